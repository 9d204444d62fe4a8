// `wsc drift`'s output: what differs between the live deployment and the
// bundle, one line per field (human), a JSON document for programs, and a
// markdown issue body for a scheduled job. Pure: model in, string out.
import { WHOLE_RESOURCE } from '../core/drift-report.js';
import type { DriftEntry } from '../core/plan-model.js';
import { plural } from './diagnostics.js';
import { driftLine } from './plan-drift.js';
import { whereText } from './dashboard-diff.js';
import type { Style } from './style.js';
import { inlineValue } from './value.js';
import { visible } from '../visible.js';
import { applyWith, driftCommand, exportOnly, type RunFlags } from './run-commands.js';

export interface DriftModel {
  environment: string;
  deploymentId: number;
  bundle?: string;
  uiEdits?: string;
  /** The bundle's directory and the deployment's flags, as given, for the commands printed. */
  run?: RunFlags;
  entries: DriftEntry[];
}

function headline(m: DriftModel): string {
  const n = m.entries.length;
  const where = `deployment ${m.deploymentId} (environment ${visible(m.environment)})`;
  if (n === 0) return `No drift: ${where} matches the bundle.`;
  const resources = new Set(m.entries.map((e) => e.address)).size;
  return (
    `Drift: ${plural(n, 'difference')} between ${where} and the bundle, in ${plural(resources, 'resource')} ` +
    '(live → bundle):'
  );
}

export function renderDriftHuman(m: DriftModel, style: Style): string {
  const { c } = style;
  if (m.entries.length === 0) return `${c.green(headline(m))}\n`;
  let out = `${c.bold(headline(m))}\n`;
  for (const e of m.entries) out += `  ${c.yellow('~')} ${driftLine(e)}\n`;
  return (
    out +
    waysForward(m, (a) => a)
      .map((w) => `${visible(w)}\n`)
      .join('')
  );
}

export function renderDriftJson(m: DriftModel): string {
  const doc = {
    formatVersion: 1 as const,
    environment: m.environment,
    deploymentId: m.deploymentId,
    ...(m.bundle !== undefined ? { bundle: m.bundle } : {}),
    ...(m.uiEdits !== undefined ? { uiEdits: m.uiEdits } : {}),
    hasDrift: m.entries.length > 0,
    drift: m.entries.map((e) => ({ ...e })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function escapeHtml(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Inline code inside a table cell, safe whatever the text holds. */
function code(s: string): string {
  const text = escapeHtml(visible(s)).replaceAll('`', '&#96;').replaceAll('|', '&#124;').replaceAll('\n', ' ');
  return `<code>${text}</code>`;
}

const WHO: Record<DriftEntry['changed'], string> = {
  outside: 'outside wsc',
  both: 'outside wsc and in the bundle',
  bundle: 'the bundle (not applied)',
  unknown: 'not known (not applied yet)',
};

const APPLY: Record<DriftEntry['apply'], string> = {
  keep: 'keeps the live value',
  revert: "writes the bundle's",
  blocked: 'leaves it alone',
};

/** GitHub refuses issue bodies over 65536 characters: rows and ways forward stop before that. */
const ISSUE_BUDGET = 60_000;

/** Where every difference is when some are left out: the run's bundle and deployment, in full. */
const seeAll = (run?: RunFlags) =>
  `see them all with \`${driftCommand('--output human', run)}\` or \`${driftCommand('--output json', run)}\``;

/** An issue body: a headline, a table of every difference, and the commands that end it (within `maxChars`). */
export function renderDriftMarkdown(m: DriftModel, maxChars = ISSUE_BUDGET): string {
  let out = `### wsc drift: ${code(m.environment)} (deployment ${m.deploymentId})\n\n`;
  out += `**${escapeHtml(headline(m))}**\n`;
  if (m.entries.length === 0) return out;
  out += '\n| address | field | live | bundle | changed by | apply | file |\n|---|---|---|---|---|---|---|\n';
  // The rows take at most half the budget when ways forward follow, so both are seen.
  const rows = m.entries.map((e) => {
    const file = e.file === undefined ? '' : code(whereText(e.file, e) ?? e.file);
    return (
      `| ${code(e.address)} | ${code(e.field)} | ${code(inlineValue(e.live))} | ${code(inlineValue(e.bundle))} ` +
      `| ${WHO[e.changed]} | ${APPLY[e.apply]} | ${file} |\n`
    );
  });
  const all = seeAll(m.run);
  out += within(rows, (maxChars - out.length) / 2, (n) => `\n_… and ${plural(n, 'more difference')}: ${all}._\n`);
  const ways = waysForward(m, code).map((w) => `- ${w}\n`);
  return `${out}\n${within(ways, maxChars - out.length, (n) => `- … and ${n} more: ${all}.\n`)}`;
}

/** The end of the `wsc apply --prune` way forward. */
const DELETES = ', deletes included';

/** As many of `items` as fit in `room` characters with room left for the line `more(n)` that says how many did not. */
function within(items: readonly string[], room: number, more: (n: number) => string): string {
  let out = '';
  for (const [i, item] of items.entries()) {
    if (out.length + item.length + 200 > room) return out + more(items.length - i);
    out += item;
  }
  return out;
}

/**
 * How to end the drift, one line each (`address` in `at`, as each output shows it): per address with a field
 * edited outside wsc (or not known), the file takes it or apply writes over it; then, when the bundle alone
 * changed a field or holds a resource the deployment lacks, apply makes it (with --prune when it no longer
 * holds one the deployment has).
 */
function waysForward(m: DriftModel, at: (address: string) => string): string[] {
  // A whole resource on one side only has no live values to take: apply creates it, or (--prune) deletes it.
  const fields = m.entries.filter((e) => e.changed !== 'bundle' && e.field !== WHOLE_RESOURCE);
  const addresses = [...new Set(fields.map((e) => e.address))];
  const over = (a: string) => applyWith(m.bundle !== undefined ? `--overwrite-ui-edits ${a}` : '', m.run);
  const lines = addresses.map(
    (a) =>
      `${at(a)}: \`${exportOnly(a, m.run)}\` takes the live values into its file; \`${over(a)}\` writes the bundle's.`,
  );
  // A resource the bundle no longer holds is deleted only with --prune (`apply: keep` says apply keeps it).
  const held = m.entries.some((e) => e.field === WHOLE_RESOURCE && e.live !== undefined && e.apply === 'keep');
  if (m.entries.some((e) => e.changed === 'bundle' || (e.field === WHOLE_RESOURCE && e.live === undefined)))
    lines.push(
      `\`${applyWith(held ? '--prune' : '', m.run)}\` makes what only the bundle changed${held ? DELETES : ''}.`,
    );
  return lines;
}
