// `wsc export --only ADDR`: which keys of a resource's bundle document take
// the live values. Only the managed fields that differ from the deployment
// (the plan's field changes for that resource) change; every other key of
// the file stays as written, variables and all.
import type { JsonValue, ResourceChange } from '../model.js';
import type { Doc } from './docs.js';

export interface FileEdit {
  /** Key path in the document: `['title']`, `['meta', 'chart']`. */
  path: string[];
  /** The exported value (references for ids, `$${` for a literal `${`); null where the deployment has none. */
  value: JsonValue;
}

/** The edits that make a resource's document equal the deployment: its planned changes, valued from its export. */
export function editsFor(change: ResourceChange, exported: Doc): FileEdit[] {
  const edits: FileEdit[] = [];
  for (const c of change.changes) {
    const path = c.path.startsWith('meta.') ? ['meta', c.path.slice(5)] : [c.path];
    // Not fields of the file: publishing, adopting and create-only keys.
    if (path[0] === 'dashboardPublished' || path[0] === 'publicId' || path[0] === 'source') continue;
    let v: unknown = exported;
    for (const k of path) {
      v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
    }
    edits.push({ path, value: v === undefined ? null : (v as JsonValue) });
  }
  return edits;
}
