// Where a value of a bundle document stands, for the semantic check: by its
// path (positions are read only when a member is to be reported), or, for a
// name inside a string value (a jsonQuery or sqlQuery written as text), at
// that name's n-th appearance in the file from the value's start.
import type { Locator } from '../core/model.js';
import { rawOccurrences } from '../core/semantic/members.js';
import { lineColAt, type LineCol, type PositionIndex } from '../yaml/positions.js';

/** The offset of a 1-based line and column in `text`. */
function offsetOf(text: string, pos: LineCol): number {
  let offset = 0;
  for (let line = 1; line < pos.line; line++) {
    const nl = text.indexOf('\n', offset);
    if (nl === -1) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + pos.col - 1);
}

const locators = new WeakMap<object, Locator>();

/** The locator of a desired resource made from a bundle file (bundleMembers takes it). */
export function locatorOf(resource: object): Locator | undefined {
  return locators.get(resource);
}

export function setLocator(resource: object, locator: Locator): void {
  locators.set(resource, locator);
}

export function makeLocator(file: string, positions: PositionIndex, text: string | undefined): Locator {
  return (path, opts) => {
    const at = positions.find(path, opts.atKey ? 'key' : 'value');
    if (opts.text === undefined || text === undefined) return { file, ...at };
    const from = offsetOf(text, at);
    const hit = rawOccurrences(text.slice(from), opts.text.name)[opts.text.occurrence];
    return { file, ...(hit === undefined ? at : lineColAt(text, from + hit)) };
  };
}
