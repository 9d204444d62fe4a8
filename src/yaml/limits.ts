// What bounds the cost of reading a hostile YAML file, checked on the text
// before any parsing (sizeLimits) and while its values are walked (the MAX_*
// the walk in plain.ts counts).
import type { Diagnostic } from '../errors.js';
import { lineColAt, type LineCol } from './positions.js';

/** Nodes produced by alias expansion, per document (the "billion laughs" guard). */
export const MAX_ALIAS_NODES = 10_000;
/** Nodes per document. */
export const MAX_NODES = 1_000_000;
/** Nesting depth of mappings and sequences. */
export const MAX_DEPTH = 64;

/**
 * A YAML parser costs microseconds per line or flow item, so a file of a few
 * MiB of tiny entries would take seconds, and its values as many objects:
 * files are capped by lines + commas (a cheap upper bound of the entries), by
 * documents and by bracket depth, before parsing. Real bundle files are far
 * below all three.
 */
const MAX_ELEMENTS = 50_000;
const MAX_DOCUMENTS = 1_000;
const MAX_FLOW_DEPTH = 1000;

/** A refusal when the text is over the limits that bound parsing time, before any parsing. */
export function sizeLimits(file: string, text: string): Diagnostic | undefined {
  const refuse = (message: string, at: LineCol): Diagnostic => ({
    severity: 'error',
    rule: 'yaml-limit',
    message,
    pos: { file, ...at },
  });
  // A text this short cannot pass any limit (an element or a nesting level
  // takes a character, a document four): most bundle files skip the scan.
  if (text.length <= MAX_FLOW_DEPTH) return undefined;
  const size = structureSize(text);
  if (size.elements > MAX_ELEMENTS || size.documents > MAX_DOCUMENTS) {
    const what =
      size.documents > MAX_DOCUMENTS
        ? `more than ${MAX_DOCUMENTS} documents`
        : `more than ${MAX_ELEMENTS} lines and list items`;
    return refuse(`file has ${what}; split it into several files`, { line: 1, col: 1 });
  }
  if (size.depth > MAX_FLOW_DEPTH)
    return refuse(`values are nested more than ${MAX_FLOW_DEPTH} levels deep`, lineColAt(text, size.offset));
  return undefined;
}

/**
 * Elements, documents, and the deepest nesting of `[`/`{` with where it first
 * passes MAX_FLOW_DEPTH, quotes ignored (brackets in a string only ever
 * overcount, and balanced ones cancel out).
 */
function structureSize(text: string): { elements: number; documents: number; depth: number; offset: number } {
  let elements = 0;
  let documents = 0;
  let depth = 0;
  let max = 0;
  let offset = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      elements++;
      if (text.startsWith('---', i + 1)) documents++;
    } else if (c === 0x2c) elements++;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max && max <= MAX_FLOW_DEPTH) {
        max = depth;
        offset = i;
      }
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return { elements, documents, depth: max, offset };
}
