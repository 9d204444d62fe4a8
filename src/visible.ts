// Text from outside wsc (the server's values and messages, names and keys in
// bundle files) reaches a terminal only through this: control characters and
// Unicode direction overrides are shown as `\uXXXX`. Otherwise a report's SQL
// or an error body could carry escape sequences that clear the screen, hide
// lines, rename the terminal window or write to the clipboard, and a
// direction override could make a printed value read as something it is not.
// Tabs and line breaks stay: the renderers lay out multi-line values
// themselves. wsc's own colours are added by the renderers afterwards.

// C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional
// embeddings, overrides and isolates.
const CLASS = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
/** Whether there is any (no `g` flag: `test` keeps no state). */
const ANY = new RegExp(CLASS);
const EVERY = new RegExp(CLASS, 'g');

/** `text` with every unsafe character written as `\uXXXX`. */
export function visible(text: string): string {
  return ANY.test(text) ? text.replace(EVERY, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}
