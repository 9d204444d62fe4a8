// `wsc drift`'s output: what differs between the live deployment and the
// bundle, one line per field (human), a JSON document for programs, and a
// markdown issue body for a scheduled job. Pure: model in, string out.
import type { DriftEntry } from '../core/plan-model.js';
import { plural } from './diagnostics.js';
import { driftLine } from './plan-drift.js';
import type { Style } from './style.js';
import { inlineValue } from './value.js';
import { visible } from '../visible.js';

export interface DriftModel {
  environment: string;
  deploymentId: number;
  bundle?: string;
  uiEdits?: string;
  /** The bundle's directory, as given (`--dir`), for the commands printed. */
  dir?: string;
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
  return out;
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
  unknown: 'unknown',
};

const APPLY: Record<DriftEntry['apply'], string> = {
  keep: 'keeps the live value',
  revert: "writes the bundle's",
  blocked: 'leaves it alone',
};

/** An issue body: a headline, a table of every difference, and the commands that end it. */
export function renderDriftMarkdown(m: DriftModel): string {
  let out = `### wsc drift: ${code(m.environment)} (deployment ${m.deploymentId})\n\n`;
  out += `**${escapeHtml(headline(m))}**\n`;
  if (m.entries.length === 0) return out;
  out += '\n| address | field | live | bundle | changed by | apply | file |\n|---|---|---|---|---|---|---|\n';
  for (const e of m.entries) {
    const file = e.file === undefined ? '' : code(e.line === undefined ? e.file : `${e.file}:${e.line}`);
    out +=
      `| ${code(e.address)} | ${code(e.field)} | ${code(inlineValue(e.live))} | ${code(inlineValue(e.bundle))} ` +
      `| ${WHO[e.changed]} | ${APPLY[e.apply]} | ${file} |\n`;
  }
  return `${out}\n${waysForward(m)}`;
}

/** How to end the drift: per address edited outside wsc, the file takes it or apply writes over it. */
function waysForward(m: DriftModel): string {
  const dir = m.dir ?? '.';
  const addresses = [...new Set(m.entries.filter((e) => e.changed !== 'bundle').map((e) => e.address))];
  const over = (a: string) => (m.bundle !== undefined ? `wsc apply --overwrite-ui-edits ${a}` : `wsc apply`);
  const lines = addresses.map(
    (a) =>
      `- ${code(a)}: \`wsc export --only ${a} --into ${dir}\` takes the live values into its file; ` +
      `\`${over(a)}\` writes the bundle's.`,
  );
  if (m.entries.length > lines.length) lines.push('- `wsc apply` makes what only the bundle changed.');
  return `${lines.join('\n')}\n`;
}
