// How an error reads on stderr: the message, its details, bundle
// diagnostics when there are any, and a hint. Pure: (error, style) -> string.
import { BundleError, type WscError } from '../errors.js';
import { renderDiagnostics } from './diagnostics.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';

export function renderError(e: WscError, style: Style): string {
  const { c } = style;
  let out = '';
  if (e instanceof BundleError) out += renderDiagnostics(e.diagnostics, style);
  out += `${c.red.bold('Error:')} ${visible(e.message)} ${c.dim(`[${e.code}]`)}\n`;
  for (const d of e.details) out += `  ${visible(d)}\n`;
  if (e.hint) out += `${c.cyan('Hint:')} ${visible(e.hint)}\n`;
  return out;
}
