// YAML text of a JSON mapping written directly, byte for byte what the yaml
// library (2.x, through `toYaml` in write.ts) writes for it: export writes
// thousands of files and building a Document per file cost most of its CPU.
// Every rule here is the library's (stringifyPair, stringifyCollection,
// stringifyString with lineWidth 0, so nothing is folded), restricted to the
// cases export meets. A value outside them (a root that is not a mapping, a
// multi-line string that would be quoted, a key over 1024 characters, a
// string starting with `---` or `...`) makes `directYaml` return undefined
// and the caller uses the library. test/bundle/write-yaml.test.ts compares
// both on arbitrary values.
import type { JsonValue } from '../core/model.js';

/** Thrown inside the writer when a value is not one it writes; never escapes `directYaml`. */
class NotHandled {}
const NOT_HANDLED = new NotHandled();

/** Strings toYaml double-quotes (its NEEDS_QUOTES) or the library does (controls other than tab and line feed). */
const DOUBLE = /[\uFEFF\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]/;
/** What the library's plainString refuses as a plain scalar (without a line feed, which is handled before). */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const FLOW_INDICATOR = /[[\]{},]/;
/** A document marker at the start: the library's handling depends on context; left to it. */
const DOC_MARKER = /^(---|\.\.\.)/;
/** The core schema's tests (null, bool, int, float): a string reading as one is quoted. */
const CORE_TAG =
  /^(?:~|[Nn]ull|NULL)?$|^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$|^0o[0-7]+$|^[-+]?[0-9]+$|^0x[0-9a-fA-F]+$|^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$|^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** A scalar that reads the same in a flow collection without quotes (toYaml's flowSafe). */
const FLOW_SAFE = /^[A-Za-z0-9_$][A-Za-z0-9_.$-]*$/;
const FLOW_SAFE_NOT = /^(true|false|null)$/i;
/** The library's blockEndNewlines. */
const BLOCK_END_NEWLINES = /(^|(?<!\n))\n+(?!\n|$)/g;
const DOUBLE_SHORT: Record<string, string> = {
  '0000': '\\0',
  '0007': '\\a',
  '000b': '\\v',
  '001b': '\\e',
  '0085': '\\N',
  '00a0': '\\_',
  '2028': '\\L',
  '2029': '\\P',
};

/** JSON-shaped mapping (not an array, not null). */
function isMap(v: unknown): v is { [k: string]: JsonValue } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The YAML of `value` as toYaml writes it, or undefined when `value` is not
 * a mapping or holds something this writer leaves to the library.
 */
export function directYaml(value: JsonValue, flow: boolean): string | undefined {
  if (!isMap(value)) return undefined;
  try {
    return `${blockMap(value, '', flow)}\n`;
  } catch (e) {
    if (e === NOT_HANDLED) return undefined;
    throw e;
  }
}

/** Characters of a flow-safe scalar (toYaml's flowSafe), or -1. */
function flowSafeLength(v: unknown): number {
  if (v === null || typeof v === 'boolean') return String(v).length;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).length : -1;
  if (typeof v === 'string' && FLOW_SAFE.test(v) && !FLOW_SAFE_NOT.test(v)) return v.length;
  return -1;
}

/** toYaml's flowIfSmall: a non-empty collection of at most 6 flow-safe scalars, 60 characters. */
function isSmall(v: JsonValue[] | { [k: string]: JsonValue }): boolean {
  let chars = 0;
  if (Array.isArray(v)) {
    if (v.length === 0 || v.length > 6) return false;
    for (const x of v) {
      const n = flowSafeLength(x);
      if (n < 0) return false;
      chars += n + 2;
    }
  } else {
    let items = 0;
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      const x = v[k];
      if (x === undefined) continue;
      if (++items > 6) return false;
      const kn = flowSafeLength(k);
      const vn = flowSafeLength(x);
      if (kn < 0 || vn < 0) return false;
      chars += kn + vn + 4;
    }
    if (items === 0) return false;
  }
  return chars <= 60;
}

/** A flow collection of flow-safe scalars: `{ x: 0, y: 4 }`, `[ a, b ]`. */
function flowCollection(v: JsonValue[] | { [k: string]: JsonValue }): string {
  const parts: string[] = [];
  if (Array.isArray(v)) {
    for (const x of v) parts.push(scalar(x, false, true, ''));
    return `[ ${parts.join(', ')} ]`;
  }
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x === undefined) continue;
    parts.push(`${stringScalar(k, true, true, '')}: ${scalar(x, false, true, '')}`);
  }
  return `{ ${parts.join(', ')} }`;
}

/** A mapping in block style whose pairs start at `indent` (`{}` when empty). */
function blockMap(map: { [k: string]: JsonValue }, indent: string, flow: boolean): string {
  let out = '';
  const inner = `${indent}  `;
  for (const k of Object.keys(map)) {
    const v = map[k];
    if (v === undefined) continue; // the library leaves undefined values out
    const key = stringScalar(k, true, false, inner);
    if (key.length > 1024) throw NOT_HANDLED; // written as an explicit key `? ...`
    if (out !== '') out += `\n${indent}`;
    out += key;
    if (v !== null && typeof v === 'object') {
      const empty = Array.isArray(v) ? v.length === 0 : isEmptyMap(v);
      if (empty) out += Array.isArray(v) ? ': []' : ': {}';
      else if (flow && isSmall(v)) out += `: ${flowCollection(v)}`;
      else out += `:\n${inner}${blockCollection(v, inner, flow)}`;
    } else {
      out += `: ${scalar(v, false, false, inner)}`;
    }
  }
  return out === '' ? '{}' : out;
}

/** A sequence in block style whose `- ` items start at `indent` (`[]` when empty). */
function blockSeq(seq: JsonValue[], indent: string, flow: boolean): string {
  if (seq.length === 0) return '[]';
  let out = '';
  const inner = `${indent}  `;
  for (let i = 0; i < seq.length; i++) {
    const v = seq[i];
    if (v === undefined) throw NOT_HANDLED;
    if (i > 0) out += `\n${indent}`;
    out += '- ';
    if (v !== null && typeof v === 'object') {
      const empty = Array.isArray(v) ? v.length === 0 : isEmptyMap(v);
      if (empty) out += Array.isArray(v) ? '[]' : '{}';
      else if (flow && isSmall(v)) out += flowCollection(v);
      else out += blockCollection(v, inner, flow);
    } else {
      out += scalar(v, false, false, inner);
    }
  }
  return out;
}

function blockCollection(v: JsonValue[] | { [k: string]: JsonValue }, indent: string, flow: boolean): string {
  return Array.isArray(v) ? blockSeq(v, indent, flow) : blockMap(v, indent, flow);
}

function isEmptyMap(v: { [k: string]: JsonValue }): boolean {
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && v[k] !== undefined) return false;
  return true;
}

/** A scalar value; `indent` is the library's ctx.indent (used by block scalars). */
function scalar(v: JsonValue, implicitKey: boolean, inFlow: boolean, indent: string): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return stringScalar(v, implicitKey, inFlow, indent);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw NOT_HANDLED;
      return Object.is(v, -0) ? '-0' : JSON.stringify(v);
    default:
      throw NOT_HANDLED;
  }
}

/** The library's stringifyString for a string, as toYaml sets it up. */
function stringScalar(v: string, implicitKey: boolean, inFlow: boolean, indent: string): string {
  const multiLine = v.includes('\n');
  if (DOUBLE.test(v)) {
    if (multiLine) throw NOT_HANDLED; // folded double quotes
    return doubleQuoted(v);
  }
  if (multiLine) {
    if (implicitKey || inFlow) throw NOT_HANDLED; // quoted over several lines
    return blockLiteral(v, indent);
  }
  if ((inFlow && FLOW_INDICATOR.test(v)) || NOT_PLAIN.test(v)) return quoted(v);
  if (DOC_MARKER.test(v)) throw NOT_HANDLED;
  if (CORE_TAG.test(v)) return quoted(v);
  return v;
}

/** quotedString for a single line: single quotes when it holds `"` and no `'`, else double. */
function quoted(v: string): string {
  if (v.includes('"') && !v.includes("'")) return `'${v}'`;
  return doubleQuoted(v);
}

/**
 * doubleQuotedString for a single line (JSON with YAML's short escapes), then
 * toYaml's `\xHH` for DEL and C1 controls the library leaves raw.
 */
function doubleQuoted(v: string): string {
  let json = JSON.stringify(v);
  if (json.includes('\\u')) {
    json = json.replace(/\\(u([0-9a-f]{4})|[^u])/g, (m: string, _e: string, code: string | undefined) => {
      if (code === undefined) return m;
      const short = DOUBLE_SHORT[code];
      if (short !== undefined) return short;
      return code.startsWith('00') ? `\\x${code.slice(2)}` : m;
    });
  }
  return json.replace(/[\u007F-\u0084\u0086-\u009F]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** blockString with a literal block (lineWidth 0 never folds) at a non-empty indent. */
function blockLiteral(text: string, indent: string): string {
  if (/\n[\t ]+$/.test(text)) throw NOT_HANDLED; // quoted over several lines
  let value = text;
  let endStart: number;
  for (endStart = value.length; endStart > 0; --endStart) {
    const ch = value[endStart - 1];
    if (ch !== '\n' && ch !== '\t' && ch !== ' ') break;
  }
  let end = value.substring(endStart);
  const endNlPos = end.indexOf('\n');
  let chomp: string;
  if (endNlPos === -1) chomp = '-';
  else if (value === end || endNlPos !== end.length - 1) chomp = '+';
  else chomp = '';
  if (end) {
    value = value.slice(0, -end.length);
    if (end[end.length - 1] === '\n') end = end.slice(0, -1);
    end = end.replace(BLOCK_END_NEWLINES, `$&${indent}`);
  }
  let startWithSpace = false;
  let startEnd: number;
  let startNlPos = -1;
  for (startEnd = 0; startEnd < value.length; ++startEnd) {
    const ch = value[startEnd];
    if (ch === ' ') startWithSpace = true;
    else if (ch === '\n') startNlPos = startEnd;
    else break;
  }
  let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
  if (start) {
    value = value.substring(start.length);
    start = start.replace(/\n+/g, `$&${indent}`);
  }
  const header = (startWithSpace ? '2' : '') + chomp;
  value = value.replace(/\n+/g, `$&${indent}`);
  return `|${header}\n${indent}${start}${value}${end}`;
}
