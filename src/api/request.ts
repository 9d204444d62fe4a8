// A request as the client takes it: method, path, query, body and the schema
// of the answer. Its own file so that pagination.ts can ask for pages through
// a narrow interface without importing the client.
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | undefined>;

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Starts with /api/v1 (wire.ts `paths`). */
  path: string;
  query?: Query;
  body?: unknown;
  schema: z.ZodType<T>;
  /** A POST whose repetition is harmless (it carries its own identity, or is idempotent). */
  safeToRetryPost?: boolean;
  /** The resource this request is for (`workbook/sales`), named in --verbose lines and wait notices. */
  label?: string;
  /** A page of a list: its body counts toward the client's budget of list bytes. */
  listPage?: boolean;
}
