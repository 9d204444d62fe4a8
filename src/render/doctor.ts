// `wsc doctor` output: one ✓/✗ line per check (– for one not run), a hint
// under each failed one, the check's findings under it, and a closing line;
// or the same as JSON. The human form comes in pieces (header, line, summary)
// so that the command prints each line as soon as it is decided. Pure: (model, style) -> string.
import type { CheckLine } from '../doctor/types.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';

export interface DoctorReport {
  environment: string;
  baseUrl: string;
  deploymentId: number;
  checks: CheckLine[];
}

export function doctorPassed(r: DoctorReport): boolean {
  return r.checks.every((c) => c.ok);
}

export function renderDoctorHeader(r: Omit<DoctorReport, 'checks'>): string {
  return `wsc doctor: environment ${visible(r.environment)} (${visible(r.baseUrl)}, deployment ${r.deploymentId})\n`;
}

/** A check's findings shown under it at most; JSON carries them all. */
const LISTED = 30;

export function renderDoctorLine(x: CheckLine, style: Style): string {
  const { c } = style;
  const mark = !x.checked ? c.dim('–') : x.ok ? c.green('✓') : c.red('✗');
  const lines = [`${mark} ${x.name}: ${visible(x.detail)}`];
  const items = x.items ?? [];
  for (const item of items.slice(0, LISTED)) lines.push(`    ${visible(item)}`);
  if (items.length > LISTED) lines.push(`    … and ${items.length - LISTED} more (--output json lists every one)`);
  if (!x.ok && x.checked && x.hint) lines.push(`    ${c.cyan('hint:')} ${visible(x.hint)}`);
  return `${lines.join('\n')}\n`;
}

export function renderDoctorSummary(checks: readonly CheckLine[], style: Style): string {
  const { c } = style;
  const failed = checks.filter((x) => x.checked && !x.ok).length;
  const skipped = checks.filter((x) => !x.checked).length;
  if (failed === 0 && skipped === 0) return `${c.green(`All ${checks.length} checks passed.`)}\n`;
  const notRun = skipped > 0 ? `, ${skipped} not checked` : '';
  return `${c.red(`${failed} of ${checks.length} checks failed${notRun}.`)}\n`;
}

export function renderDoctorJson(r: DoctorReport): string {
  const out = {
    formatVersion: 1,
    environment: r.environment,
    baseUrl: r.baseUrl,
    deploymentId: r.deploymentId,
    ok: doctorPassed(r),
    checks: r.checks.map((x) => ({
      name: x.name,
      ok: x.ok,
      checked: x.checked,
      detail: x.detail,
      ...(x.hint !== undefined ? { hint: x.hint } : {}),
      ...(x.items !== undefined ? { items: x.items } : {}),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
