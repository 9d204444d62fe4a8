// Text from outside wsc (the server's values and messages, names and keys in
// bundle files) reaches a terminal only through this: control characters and
// Unicode direction overrides are shown as `\uXXXX`. Otherwise a report's SQL
// or an error body could carry escape sequences that clear the screen, hide
// lines, rename the terminal window or write to the clipboard, and a
// direction override could make a printed value read as something it is not.
// Tabs and line breaks stay: the renderers lay out multi-line values
// themselves. wsc's own colours are added by the renderers afterwards. Which
// characters those are is the one rule of `domain/unsafe-chars.ts`.
import { everyOf, SHOWN_ESCAPED } from './domain/unsafe-chars.js';

/** `text` with every character of `cls` (a class without the `g` flag) written as `\uXXXX`. */
export function escapedAll(text: string, cls: RegExp): string {
  return cls.test(text)
    ? text.replace(everyOf(cls), (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : text;
}

/** `text` with every unsafe character written as `\uXXXX`. */
export function visible(text: string): string {
  return escapedAll(text, SHOWN_ESCAPED);
}
