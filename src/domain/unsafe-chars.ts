// The one rule of characters that make text other than it looks, and every
// character class wsc tests text with, made here from the same ranges:
// control characters (C0, DEL, C1), which a terminal may act on and a request
// path cannot carry, and the marks that reorder text (the Arabic letter mark,
// left-to-right and right-to-left marks, embeddings, overrides, isolates), by
// which a name shown is not the name. A slug, a folder name and a saved plan's
// bundle directory are refused with one; `src/visible.ts` shows them escaped
// in output (it keeps tab and line feed, which output lays out itself); a
// YAML file may hold none but tab, line breaks and NEL (YAML 1.2's printable
// set); a token in a header none at all. A class grows here, once, for all.

// The ranges, each written once (as a character class's inside).
const C0 = '\\u0000-\\u001f';
/** C0 but tab and line feed: what output escapes (it lays out tabs and lines itself). */
const C0_BUT_TAB_LF = '\\u0000-\\u0008\\u000b-\\u001f';
/** C0 but tab, line feed and carriage return: YAML's printable set keeps those three. */
const C0_BUT_TAB_LF_CR = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f';
const DEL_C1 = '\\u007f-\\u009f';
/** DEL and C1 but NEL (U+0085, a line break to YAML). */
const DEL_C1_BUT_NEL = '\\u007f-\\u0084\\u0086-\\u009f';
/** The marks that reorder text: Arabic letter mark, LRM/RLM, embeddings and overrides, isolates. */
const BIDI = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** Other characters no terminal or diff shows: soft hyphen, Mongolian vowel separator, zero widths, BOM. */
const INVISIBLE_FORMAT = '\\u00ad\\u180e\\u200b-\\u200d\\u2060-\\u2064\\ufeff';

// No `g` flag: `test` keeps no state. A `replace` of every one takes `everyOf(CLASS)`.
const cls = (inside: string): RegExp => new RegExp(`[${inside}]`);

/** The class with the `g` flag, for `replace`. */
export const everyOf = (re: RegExp): RegExp => new RegExp(re.source, 'g');

/** C0 controls, DEL and C1 controls. */
export const CONTROL_CHAR = cls(C0 + DEL_C1);

/** A control character or a mark that reorders text. */
export const CONTROL_OR_BIDI = cls(C0 + DEL_C1 + BIDI);

/** What output shows as `\uXXXX` (`src/visible.ts`): controls but tab and line feed, and the reordering marks. */
export const SHOWN_ESCAPED = cls(C0_BUT_TAB_LF + DEL_C1 + BIDI);

/** Characters a name may hold that nobody sees: the reordering marks and the other invisible ones. */
export const INVISIBLE = cls(BIDI + INVISIBLE_FORMAT);

/** Not printable in a YAML file (YAML 1.2's c-printable): C0 but tab, LF, CR; DEL; C1 but NEL. */
export const NOT_PRINTABLE_IN_YAML = cls(C0_BUT_TAB_LF_CR + DEL_C1_BUT_NEL);

/** The controls a YAML writer leaves raw in a double-quoted scalar, where `\xHH` escapes them: DEL, C1 but NEL. */
export const RAW_IN_DOUBLE_QUOTES = cls(DEL_C1_BUT_NEL);

/**
 * Characters a plain or block scalar may lose or change on reading back: a
 * BOM is dropped, line separators fold, controls (but tab and line breaks)
 * and lone surrogates are not printable; a string holding one is written
 * double-quoted.
 */
export const NEEDS_DOUBLE_QUOTES = cls(`\\ufeff${C0_BUT_TAB_LF_CR}${DEL_C1}\\u2028\\u2029\\ud800-\\udfff`);

/** What no text holds (NUL to backspace): a body with one is binary, not a message. */
export const BINARY_CONTROL = cls('\\u0000-\\u0008');

/** What an HTTP header value cannot carry: C0 controls, DEL, and anything beyond Latin-1. */
export const NOT_IN_HEADER = cls(`${C0}\\u007f\\u0100-\\uffff`);
