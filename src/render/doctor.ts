// `wsc doctor` output: one ✓/✗ line per check, a hint under each failed one,
// and a closing line; or the same as JSON. Pure: (model, style) -> string.
import type { CheckLine } from '../doctor/checks.js';
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

export function renderDoctorHuman(r: DoctorReport, style: Style): string {
  const { c } = style;
  const where = `${visible(r.baseUrl)}, deployment ${r.deploymentId}`;
  const lines = [`wsc doctor: environment ${visible(r.environment)} (${where})`];
  for (const x of r.checks) {
    lines.push(`${x.ok ? c.green('✓') : c.red('✗')} ${x.name}: ${visible(x.detail)}`);
    if (!x.ok && x.hint) lines.push(`    ${c.cyan('hint:')} ${visible(x.hint)}`);
  }
  const failed = r.checks.filter((x) => !x.ok).length;
  lines.push(
    failed === 0
      ? c.green(`All ${r.checks.length} checks passed.`)
      : c.red(`${failed} of ${r.checks.length} checks failed.`),
  );
  return `${lines.join('\n')}\n`;
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
      detail: x.detail,
      ...(x.hint !== undefined ? { hint: x.hint } : {}),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
