// Bundle diagnostics as text: grouped per file (files in name order), errors
// before warnings, each `file:line:col  error  message  [rule]`, then a count.
import type { Diagnostic } from '../errors.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';

export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  const rank = (d: Diagnostic) => (d.severity === 'error' ? 0 : 1);
  return [...diags].sort(
    (a, b) =>
      (a.pos.file < b.pos.file ? -1 : a.pos.file > b.pos.file ? 1 : 0) ||
      rank(a) - rank(b) ||
      a.pos.line - b.pos.line ||
      a.pos.col - b.pos.col ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

export function renderDiagnostics(diags: readonly Diagnostic[], style: Style): string {
  const { c } = style;
  let out = '';
  let file: string | undefined;
  for (const d of sortDiagnostics(diags)) {
    if (d.pos.file !== file) {
      if (file !== undefined) out += '\n';
      file = d.pos.file;
    }
    const sev = d.severity === 'error' ? c.red('error') : c.yellow('warning');
    out +=
      `${c.bold(`${visible(d.pos.file)}:${d.pos.line}:${d.pos.col}`)} ${sev} ` +
      `${visible(d.message)} ${c.dim(`[${d.rule}]`)}\n`;
    if (d.hint) out += `  ${c.cyan('hint:')} ${visible(d.hint)}\n`;
  }
  if (diags.length > 0) {
    const errors = diags.filter((d) => d.severity === 'error').length;
    const warnings = diags.length - errors;
    out += `\n${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`;
  }
  return out;
}

/** `1 report`, `2 reports`. */
export function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The last line of `wsc validate`. */
export function renderValidateSummary(
  valid: boolean,
  resources: { workbooks: number; reports: number; userAttributes: number },
  style: Style,
  /** `--semantic-check` read the data model: something was sent, though nothing written. */
  read = false,
): string {
  const { c } = style;
  const sent = read ? 'nothing was written to any API' : 'nothing was sent to any API';
  if (!valid) return `${c.red.bold('Bundle is invalid.')} Fix the errors above; ${sent}.\n`;
  const counts =
    `${plural(resources.workbooks, 'workbook')}, ` +
    `${plural(resources.reports, 'report')}, ` +
    `${plural(resources.userAttributes, 'user attribute')}`;
  return `${c.green('Bundle is valid:')} ${counts}.\n`;
}
