// Errors answered as NestJS-style bodies `{ statusCode, message, error, code? }`.
import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return {
      statusCode: this.status,
      message: this.message,
      error: STATUS_CODES[this.status] ?? 'Error',
      ...(this.code ? { code: this.code } : {}),
    };
  }
}

export const badRequest = (m: string) => new HttpError(400, m);
export const forbidden = (m: string) => new HttpError(403, m);
export const notFound = (m: string) => new HttpError(404, m);
export const conflict = (m: string, code?: string) => new HttpError(409, m, code);

/** `widgets[0].position.h` from a zod issue path, prefixed with `prefix`. */
function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  let s = prefix;
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else s += s === '' ? String(p) : `.${String(p)}`;
  }
  return s === '' ? '(body)' : s;
}

/** Parse with a wire schema; a failure is a 400 naming each field path. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.infer<S> {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  const parts = r.error.issues.slice(0, 10).map((i) => {
    const missing = i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined;
    return `${issuePath(prefix, i.path)}: ${missing ? 'required' : i.message}`;
  });
  if (r.error.issues.length > 10) parts.push(`(${r.error.issues.length - 10} more)`);
  throw badRequest(parts.join('; '));
}
