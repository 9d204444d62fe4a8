// `wsc export --into DIR`'s and `--only`'s result: what each resource of the
// bundle took from the deployment, in each format (the merge lines of one
// file are export-merge.ts's).
import type { IntoOutcome } from '../core/export/into.js';
import type { OnlyOutcome } from '../core/export/only.js';
import { visible } from '../visible.js';
import { mergeJson, mergeLines } from './export-merge.js';
import { planCommand, type RunFlags } from './run-commands.js';

interface IntoResult {
  /** Resources whose files took something from the deployment, or kept or left something (see mergeJson). */
  updated: ReturnType<typeof mergeJson>[];
  /** Resources the bundle did not hold: a new file each. */
  created: { address: string; file: string }[];
  /** Managed resources that already match. */
  unchanged: number;
  /** Resources of the bundle that the deployment does not hold (their files are left as they are). */
  notLive: string[];
}

function renderIntoJson(into: string, result: IntoResult): string {
  return `${JSON.stringify({ formatVersion: 1, into, ...result }, null, 2)}\n`;
}

function renderIntoHuman(into: string, r: IntoResult, merged: string[], target: RunFlags): string {
  const lines = [...merged];
  for (const c of r.created) lines.push(`+ ${visible(c.address)}: new file ${visible(c.file)}`);
  for (const a of r.notLive) lines.push(`! ${visible(a)}: not in the deployment; its file is left as it is`);
  const took = r.updated.filter((u) => u.fields.length > 0).length;
  // Resources whose file took nothing but keeps a change of its own or is left for a hand edit.
  const left = r.updated.length - took;
  lines.push(
    `Updated ${visible(into)}: ${took} updated, ${r.created.length} new, ${r.unchanged} unchanged` +
      `${left > 0 ? `, ${left} left as they are` : ''}` +
      `${r.notLive.length > 0 ? `, ${r.notLive.length} not in the deployment` : ''}. wsc.yaml is left as it is.`,
  );
  if (r.updated.some((u) => u.byHand.length + u.conflicts.length > 0)) {
    const plan = planCommand('', { ...target, dir: into });
    lines.push(`Lines marked ! are left for you to merge: \`${plan}\` shows what still differs.`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `export --into DIR`'s output (`human` or `json`) from what it did to the bundle's files. `target`: the flags
 * that chose the deployment, for the commands printed.
 */
export function renderInto(output: string, into: string, o: IntoOutcome, target: RunFlags = {}): string {
  const result: IntoResult = {
    updated: o.edits.map((e) => mergeJson(e.address, e.file, e.merge)),
    created: o.created.map((c) => ({ address: c.address, file: c.rel })),
    unchanged: o.unchanged,
    notLive: o.notLive,
  };
  if (output === 'json') return renderIntoJson(into, result);
  return renderIntoHuman(
    into,
    result,
    o.edits.flatMap((e) => mergeLines(e.address, e.file, e.merge, { ...target, dir: into })),
    target,
  );
}

/** `export --only`'s lines: what each named resource's file took, or that it already matches. */
export function renderOnly(outcomes: readonly OnlyOutcome[], into: string, target: RunFlags = {}): string {
  const lines = outcomes.flatMap(({ address, file, edit }) =>
    edit === undefined
      ? [`= ${visible(address)}: ${visible(file)} already matches the deployment`]
      : mergeLines(address, file, edit.merge, { ...target, dir: into }),
  );
  return `${lines.join('\n')}\n`;
}
