// What `export --into` and `export --only` did to one resource's file: what
// it took from the deployment, what it kept (a change of the bundle not
// applied yet), what it left alone (changed on both sides), what is to be
// edited by hand (a value the file writes with a variable), and whether it
// decided without an ownership record.
import type { MergeResult } from '../core/export/merge.js';
import type { JsonValue } from '../core/json.js';
import { visible } from '../visible.js';

/** A value shown on one line, cut when long. */
function short(v: JsonValue | string): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  const one = JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
  return visible(one);
}

/** The lines of one resource: `~ ADDR: took … into FILE` (or `= ADDR: FILE kept as it is`) and what follows. */
export function mergeLines(address: string, file: string, m: MergeResult): string[] {
  const lines: string[] = [];
  const a = visible(address);
  const f = visible(file);
  if (m.taken.length > 0) lines.push(`~ ${a}: took ${m.taken.map(visible).join(', ')} into ${f}`);
  else lines.push(`= ${a}: ${f} left as it is`);
  if (m.noRecord) {
    lines.push(
      '    no ownership record of this bundle to tell UI edits from changes not applied yet: ' +
        'every field that differs was taken',
    );
  }
  if (m.kept.length > 0) {
    lines.push(`    kept ${m.kept.map(visible).join(', ')}: changed in the bundle and not applied yet`);
  }
  if (m.conflicts.length > 0) {
    lines.push(
      `    ! left ${m.conflicts.map(visible).join(', ')}: changed in the bundle and outside wsc since the last ` +
        'apply; merge by hand, or keep the bundle with `wsc apply --overwrite-ui-edits ' +
        `${a}\``,
    );
  }
  for (const h of m.byHand) {
    const where = h.line === undefined ? f : `${f}:${h.line}:${h.col}`;
    lines.push(
      `    ! edit by hand ${visible(h.path)} at ${where}: the file writes ${short(h.file)} (with a variable), ` +
        `the deployment now has ${short(h.live)}`,
    );
  }
  return lines;
}

/** The JSON form of a resource's merge (the `updated[]` entry of `--output json`). */
export function mergeJson(address: string, file: string, m: MergeResult) {
  return {
    address,
    file,
    fields: m.taken,
    kept: m.kept,
    conflicts: m.conflicts,
    byHand: m.byHand.map((h) => ({ path: h.path, line: h.line, col: h.col, file: h.file, live: h.live })),
    noRecord: m.noRecord,
  };
}
