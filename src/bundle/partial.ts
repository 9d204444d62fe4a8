// What the cross-file checks can still use of a document that failed its
// schema: its identity and its references, each only where that key passes
// its own schema. Without this, a duplicate slug or publicId in a file with
// another error would appear only on the next run, once the first is fixed.
import type { z } from 'zod';
import type { DocItem } from './checks.js';
import type { PositionIndex } from '../yaml/positions.js';
import { isObject } from '../yaml/issues.js';
import { ReportSchema, UserAttributeSchema, WorkbookSchema, type Kind } from '../domain/bundle-schema/index.js';

/** Per kind: the keys that must pass for the document to take part (its identity), then those used when they pass. */
const KEYS: Record<Kind, { shape: Record<string, z.ZodType>; identity: string; more: string[] }> = {
  Workbook: { shape: WorkbookSchema.shape, identity: 'slug', more: [] },
  Report: { shape: ReportSchema.shape, identity: 'publicId', more: ['workbookId'] },
  UserAttribute: { shape: UserAttributeSchema.shape, identity: 'name', more: ['id'] },
};

/**
 * The cross-checkable part of a document that failed its schema, or
 * undefined when its identity itself is invalid. `meta` is kept as it is
 * when it is a mapping: the references in it are checked by walking it, and
 * the dashboard checks skip partial documents.
 */
export function partialItem(
  kind: Kind,
  file: string,
  positions: PositionIndex,
  value: Record<string, unknown>,
): DocItem | undefined {
  const { shape, identity, more } = KEYS[kind];
  const passes = (key: string) => Object.hasOwn(value, key) && shape[key]!.safeParse(value[key]).success;
  if (!passes(identity)) return undefined;
  const kept: Record<string, unknown> = { kind, [identity]: value[identity] };
  for (const key of more) if (passes(key)) kept[key] = value[key];
  const meta = value['meta'];
  if (kind !== 'UserAttribute' && isObject(meta)) kept['meta'] = meta;
  return { kind, file, positions, value: kept, partial: true };
}
