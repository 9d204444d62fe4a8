// What `export --into` and `export --only` did to one resource's file: what
// it took from the deployment, what it kept (a change of the bundle not
// applied yet), what it left alone (changed on both sides), what is to be
// edited by hand (a value the file writes with a variable), and whether it
// decided without an ownership record.
import type { MergeResult } from '../core/export/merge.js';
import type { JsonValue } from '../core/json.js';
import { visible } from '../visible.js';
import { applyWith, exportOnly, type RunFlags } from './run-commands.js';

/** Where a long value is wrapped (at a space when it has one): never cut, since the difference may be at its end. */
const WRAP = 72;

/**
 * A value in full as a JSON string, wrapped onto lines of about WRAP
 * characters at spaces, each line under `indent`: joined again (without the
 * indent) the lines are the value's JSON exactly.
 */
function wrapped(v: JsonValue | string, indent: string): string[] {
  const text = visible(JSON.stringify(v));
  const lines: string[] = [];
  let rest = text;
  while (rest.length > WRAP) {
    const space = rest.lastIndexOf(' ', WRAP);
    const cut = space > WRAP / 2 ? space + 1 : WRAP;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  lines.push(rest);
  return lines.map((l) => `${indent}${l}`);
}

/**
 * The lines of one resource: `~ ADDR: took … into FILE` (or `= ADDR: FILE kept as it is`) and what follows.
 * `run`: the bundle's directory and the deployment's flags, as given, for the commands printed.
 */
export function mergeLines(address: string, file: string, m: MergeResult, run: RunFlags = {}): string[] {
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
  if (m.replaced.length > 0) {
    lines.push(
      `    replaced ${m.replaced.map(visible).join(', ')}: the bundle's value, changed since the last apply and ` +
        "not applied, is replaced by the deployment's",
    );
  }
  if (m.conflicts.length > 0) {
    lines.push(
      `    ! left ${m.conflicts.map(visible).join(', ')}: changed in the bundle and outside wsc since the last ` +
        `apply; take the deployment's values with \`${visible(exportOnly(address, run))}\`, ` +
        `or keep the bundle's with \`${visible(applyWith(`--overwrite-ui-edits ${address}`, run))}\``,
    );
  }
  for (const h of m.byHand) {
    const where = h.line === undefined ? f : `${f}:${h.line}:${h.col}`;
    lines.push(
      `    ! edit by hand ${visible(h.path)} at ${where}: the file writes it with a variable, so wsc does not ` +
        'rewrite it. The file writes:',
      ...wrapped(h.file, '        '),
      '      the deployment now has:',
      ...wrapped(h.live, '        '),
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
    replaced: m.replaced,
    byHand: m.byHand.map((h) => ({ path: h.path, line: h.line, col: h.col, file: h.file, live: h.live })),
    noRecord: m.noRecord,
  };
}
