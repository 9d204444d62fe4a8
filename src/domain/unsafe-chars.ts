// The one rule of characters that make a name or a path other than it looks:
// control characters (C0, DEL, C1), which a terminal may act on and a request
// path cannot carry, and the marks that reorder text (the Arabic letter mark,
// left-to-right and right-to-left marks, embeddings, overrides, isolates), by
// which a name shown is not the name. A slug, a folder name and a saved plan's
// bundle directory are refused with one; `src/visible.ts` shows them escaped
// in output (it keeps tab and line feed, which output lays out itself).

/** C0 controls, DEL and C1 controls. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;

/** A control character or a mark that reorders text. */
// eslint-disable-next-line no-control-regex
export const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
