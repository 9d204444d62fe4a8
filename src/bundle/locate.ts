// Where a value of a bundle document stands, for the semantic check: by its
// path (positions are read only when a member is to be reported), or, for a
// name inside a string value (a jsonQuery or sqlQuery written as text), at
// that name's n-th appearance in the file from the value's start.
import type { Locator } from '../core/model.js';
import { rawOccurrences } from '../core/semantic/members.js';
import { lineColAt, offsetAt, type PositionIndex } from '../yaml/positions.js';

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
    const from = offsetAt(text, at);
    const hit = rawOccurrences(text.slice(from), opts.text.name)[opts.text.occurrence];
    return { file, ...(hit === undefined ? at : lineColAt(text, from + hit)) };
  };
}
