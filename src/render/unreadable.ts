// Warnings for live items wsc could not read and the bundle does not manage:
// one line each, naming the item, on stderr. Pure: (items, style) -> string.
import type { UnreadableItem } from '../core/model.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';

export function renderUnreadableWarnings(items: readonly UnreadableItem[], style: Style): string {
  let out = '';
  for (const o of items) {
    const id = o.id !== undefined ? ` ${o.id}` : '';
    const name = `${o.kind}${id}${o.identity !== undefined ? ` (${visible(o.identity)})` : ''}`;
    out +=
      `${style.c.yellow('warning')} ${name}: not read: ${visible(o.why)}; ` +
      `the bundle does not manage it, so it is left alone.\n`;
  }
  return out;
}
