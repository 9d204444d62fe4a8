// Edits to one document of a YAML file, made in its text: each edit replaces
// only the characters of the node it changes (a scalar, a key and its value,
// the items of a sequence), so every other line keeps its text, quoting,
// flow or block style and comments. A one-widget move is that widget's lines.
// The file is parsed again after each edit (paths name nodes of the
// document as it was read; sequences are rearranged last, deepest first).
// The result is checked: read back, it must equal the document with the
// edits applied; where the text splice cannot be made, the yaml library
// writes the document instead (the same data, less of its text kept).
import { createRequire } from 'node:module';
import type { Document, Node as YamlNode, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { DocEdit, DocPath } from '../core/export/merge.js';
import type { JsonValue } from '../core/json.js';
import { toYaml } from './write.js';
import { lineStartAt } from '../yaml/positions.js';

type Yaml = typeof import('yaml');
const yaml = (): Yaml => createRequire(import.meta.url)('yaml') as Yaml;

class CannotSplice extends Error {}

function lineEnd(text: string, at: number): number {
  const n = text.indexOf('\n', at);
  return n === -1 ? text.length : n + 1;
}

function column(text: string, at: number): number {
  return at - lineStartAt(text, at);
}

function indentLines(block: string, indent: number): string {
  return block
    .split('\n')
    .map((l, i) => (i === 0 || l === '' ? l : ' '.repeat(indent) + l))
    .join('\n');
}

const FLOW_UNSAFE = /[,[\]{}#:&*!|>'"%@`]|^\s|\s$|^-|^\?/;

/** A scalar as a flow or block context may hold it on one line. */
function inlineScalar(v: JsonValue, inFlow: boolean, like?: Scalar['type']): string {
  if (typeof v !== 'string') return v === null ? 'null' : String(v);
  if (like === 'QUOTE_DOUBLE' || v.includes('\n')) return JSON.stringify(v);
  if (like === 'QUOTE_SINGLE') return `'${v.replaceAll("'", "''")}'`;
  const plain = toYaml(v).trimEnd();
  if (plain.includes('\n') || (inFlow && FLOW_UNSAFE.test(v))) return JSON.stringify(v);
  return plain;
}

/**
 * A value rendered as YAML: flow (one line; `padded`: `{ a: 1 }` rather than
 * `{a: 1}`) or block, as export writes it (lines after the first indented by `indent`).
 */
function render(v: JsonValue, flow: boolean, indent: number, padded = true): string {
  const y = yaml();
  if (v === null || typeof v !== 'object') return inlineScalar(v, flow);
  if (flow) {
    const doc = new y.Document(v);
    y.visit(doc, {
      Map: (_, n) => void (n.flow = true),
      Seq: (_, n) => void (n.flow = true),
    });
    return doc.toString({ lineWidth: 0, flowCollectionPadding: padded }).trimEnd();
  }
  return indentLines(toYaml(v).trimEnd(), indent);
}

/** Whether a flow collection's text has a space inside its brackets (`[ a ]`), as the file writes it. */
function paddedLike(text: string, start: number): boolean {
  return text[start + 1] === ' ';
}

/** A block literal of `v` whose content lines are indented by `indent`. */
function blockLiteral(v: string, indent: number): string {
  const trailing = /\n*$/.exec(v)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 0 ? v : v.slice(0, -trailing);
  if (/^\s/.test(body)) throw new CannotSplice('a block literal starting with a space');
  const lines = body.split('\n').map((l) => (l === '' ? '' : ' '.repeat(indent) + l));
  return `|${chomp}\n${lines.join('\n')}${'\n'.repeat(Math.max(trailing, 1))}`;
}

interface Found {
  node: YamlNode | null;
  /** The pair holding `node` (a mapping value), and its mapping. */
  pair?: Pair<YamlNode, YamlNode | null>;
  parent: YAMLMap | YAMLSeq;
  inFlow: boolean;
}

function find(doc: Document, path: DocPath): Found | undefined {
  const y = yaml();
  let cur: YamlNode | null = doc.contents;
  let inFlow = false;
  let found: Found | undefined;
  for (const k of path) {
    if (y.isMap(cur)) {
      const pair = cur.items.find((p) => y.isScalar(p.key) && p.key.value === k) as
        Pair<YamlNode, YamlNode | null> | undefined;
      if (pair === undefined) return undefined;
      inFlow ||= cur.flow === true;
      found = { node: pair.value, pair, parent: cur, inFlow };
      cur = pair.value;
    } else if (y.isSeq(cur) && typeof k === 'number') {
      const item = cur.items[k] as YamlNode | undefined;
      if (item === undefined) return undefined;
      inFlow ||= cur.flow === true;
      found = { node: item, parent: cur, inFlow };
      cur = item;
    } else return undefined;
  }
  return found;
}

type Splice = { start: number; end: number; text: string };

function spliceOf(text: string, doc: Document, e: DocEdit): Splice {
  const y = yaml();
  if (e.op === 'set') {
    const f = find(doc, e.path);
    if (f === undefined) return addKey(text, doc, e.path, e.value);
    const n = f.node;
    if (n === null || !n.range) throw new CannotSplice('a key without a value');
    const [start, end] = [n.range[0], n.range[1]];
    if (y.isScalar(n) && (e.value === null || typeof e.value !== 'object')) {
      const keyCol = f.pair && y.isScalar(f.pair.key) && f.pair.key.range ? column(text, f.pair.key.range[0]) : 0;
      const block = n.type === 'BLOCK_LITERAL' || n.type === 'BLOCK_FOLDED';
      if (typeof e.value === 'string' && !f.inFlow && (block || e.value.includes('\n'))) {
        // A block scalar's text ends with its line break; a quoted one's is the line's, after it.
        const lit = blockLiteral(e.value, keyCol + 2);
        return { start, end, text: text.slice(start, end).endsWith('\n') ? lit : lit.slice(0, -1) };
      }
      return { start, end, text: inlineScalar(e.value, f.inFlow, n.type) };
    }
    const flow = f.inFlow || y.isScalar(n) || (y.isCollection(n) && n.flow === true);
    const padded = y.isCollection(n) && n.flow === true ? paddedLike(text, start) : !Array.isArray(e.value);
    return { start, end, text: render(e.value, flow, column(text, start), padded) };
  }
  if (e.op === 'delete') {
    const f = find(doc, e.path);
    if (f === undefined) return { start: 0, end: 0, text: '' };
    if (!f.pair || !y.isMap(f.parent) || !f.pair.value?.range || !y.isScalar(f.pair.key) || !f.pair.key.range) {
      throw new CannotSplice('a delete outside a mapping');
    }
    const map = f.parent;
    const i = map.items.indexOf(f.pair);
    if (map.flow === true) {
      const keyStart = f.pair.key.range[0];
      const valueEnd = f.pair.value.range[1];
      const next = map.items[i + 1] as Pair<Scalar, YamlNode> | undefined;
      const prev = map.items[i - 1] as Pair<Scalar, YamlNode> | undefined;
      if (prev?.value?.range) return { start: prev.value.range[1], end: valueEnd, text: '' };
      if (next?.key.range) return { start: keyStart, end: next.key.range[0], text: '' };
      return { start: keyStart, end: valueEnd, text: '' };
    }
    if (map.items.length === 1) throw new CannotSplice('the last key of a block mapping');
    const start = lineStartAt(text, f.pair.key.range[0]);
    // A key that shares its line with a `- ` (the first of a sequence item's mapping) cannot lose its line.
    if (text.slice(start, f.pair.key.range[0]).trim() !== '') throw new CannotSplice('a key after `- `');
    return { start, end: lineEnd(text, Math.max(f.pair.value.range[1] - 1, f.pair.key.range[1])), text: '' };
  }
  return arrange(text, doc, e.path, e.items);
}

/** A new key in an existing mapping: after its last key (a block mapping) or before its `}`. */
function addKey(text: string, doc: Document, path: DocPath, value: JsonValue): Splice {
  const y = yaml();
  const parentPath = path.slice(0, -1);
  const key = String(path[path.length - 1]);
  const parent = parentPath.length === 0 ? doc.contents : find(doc, parentPath)?.node;
  if (!y.isMap(parent) || !parent.range || parent.items.length === 0) throw new CannotSplice('no mapping to add to');
  const keyText = inlineScalar(key, parent.flow === true);
  const last = parent.items[parent.items.length - 1] as Pair<YamlNode, YamlNode | null>;
  const lastEnd = last.value?.range?.[1] ?? last.key.range![1];
  if (parent.flow === true) {
    const padded = paddedLike(text, parent.range[0]);
    return { start: lastEnd, end: lastEnd, text: `, ${keyText}: ${render(value, true, 0, padded)}` };
  }
  const col = column(text, parent.range[0]);
  const at = lineEnd(text, lastEnd - 1);
  const v =
    value !== null && typeof value === 'object' && Object.keys(value).length > 0
      ? `\n${' '.repeat(col + 2)}${render(value, false, col + 2)}`
      : ` ${render(value, true, 0)}`;
  const before = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return { start: at, end: at, text: `${before}${' '.repeat(col)}${keyText}:${v}\n` };
}

/** A block sequence's items in a new order, each kept item with its own lines (comments after it included). */
function arrange(
  text: string,
  doc: Document,
  path: DocPath,
  items: ({ keep: number } | { value: JsonValue })[],
): Splice {
  const y = yaml();
  const seq = find(doc, path)?.node;
  if (!y.isSeq(seq) || !seq.range) throw new CannotSplice('no sequence to arrange');
  if (seq.flow === true || seq.items.length === 0) {
    const values = (seq.toJSON() as JsonValue[]) ?? [];
    const next = items.map((x) => ('keep' in x ? values[x.keep]! : x.value));
    return {
      start: seq.range[0],
      end: seq.range[1],
      text: render(next, seq.flow === true, column(text, seq.range[0])),
    };
  }
  const col = column(text, seq.range[0]);
  const starts = seq.items.map((n) => lineStartAt(text, (n as YamlNode).range![0]));
  if (starts.some((s) => text.slice(s, s + col + 1) !== `${' '.repeat(col)}-`)) {
    throw new CannotSplice('a sequence item not on its own `-` line');
  }
  const end = lineEnd(text, seq.range[1] - 1);
  const slices = starts.map((s, i) => {
    const slice = text.slice(s, starts[i + 1] ?? end);
    return slice.endsWith('\n') ? slice : `${slice}\n`;
  });
  if (items.length === 0) {
    // No items left: the key's value becomes `[]` on its own line.
    const colon = text.lastIndexOf(':', starts[0]);
    if (colon < 0 || text.slice(colon + 1, starts[0]).trim() !== '') throw new CannotSplice('an emptied sequence');
    return { start: colon + 1, end, text: ' []\n' };
  }
  const out = items.map((x) =>
    'keep' in x ? slices[x.keep]! : `${' '.repeat(col)}- ${render(x.value, false, col + 2).trimEnd()}\n`,
  );
  return { start: starts[0]!, end, text: out.join('') };
}

/** The edits applied to plain data: what the file must read as afterwards. */
export function applyEdits(value: unknown, edits: readonly DocEdit[]): unknown {
  const copy: unknown = structuredClone(value);
  const parentOf = (root: unknown, path: DocPath) => {
    let x = root as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) x = x[k] as Record<string | number, unknown>;
    return x;
  };
  const later: DocEdit[] = [];
  for (const e of edits) {
    if (e.op === 'arrange') later.push(e);
    else if (e.op === 'set') parentOf(copy, e.path)[e.path[e.path.length - 1]!] = structuredClone(e.value);
    else delete parentOf(copy, e.path)[e.path[e.path.length - 1]!];
  }
  for (const e of orderArranges(later)) {
    if (e.op !== 'arrange') continue;
    const old = e.path.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)[k], copy) as unknown[];
    const next = e.items.map((x) => ('keep' in x ? old[x.keep] : structuredClone(x.value)));
    if (e.path.length === 0) return next;
    parentOf(copy, e.path)[e.path[e.path.length - 1]!] = next;
  }
  return copy;
}

function orderArranges(edits: DocEdit[]): DocEdit[] {
  return [...edits].sort((a, b) => b.path.length - a.path.length);
}

/**
 * The file's text with `edits` made to its document number `index`. Returns
 * the text and whether every edit was made in place (else the yaml library
 * wrote that document).
 */
export function editInPlace(
  text: string,
  index: number,
  edits: readonly DocEdit[],
): { text: string; inPlace: boolean } {
  const y = yaml();
  const docOf = (t: string) => y.parseAllDocuments(t) as Document[];
  const original = docOf(text);
  const want = applyEdits(original[index]!.toJS(), edits);
  const ordered = [
    ...edits.filter((e) => e.op !== 'arrange'),
    ...orderArranges(edits.filter((e) => e.op === 'arrange')),
  ];
  try {
    let out = text;
    for (const e of ordered) {
      const s = spliceOf(out, docOf(out)[index]!, e);
      out = out.slice(0, s.start) + s.text + out.slice(s.end);
    }
    const after = docOf(out);
    const ok =
      after.length === original.length &&
      after.every((d) => d.errors.length === 0) &&
      JSON.stringify(after[index]!.toJS()) === JSON.stringify(want);
    if (ok) return { text: out, inPlace: true };
  } catch (e) {
    if (!(e instanceof CannotSplice)) throw e;
  }
  // The yaml library's own writing of the document: the same edits through its node API (comments kept).
  const doc = original[index]!;
  for (const e of ordered) {
    if (e.op === 'set') doc.setIn(e.path, doc.createNode(e.value));
    else if (e.op === 'delete') doc.deleteIn(e.path);
    else {
      const seq = e.path.length === 0 ? doc.contents : doc.getIn(e.path, true);
      if (!y.isSeq(seq)) continue;
      const old = [...seq.items];
      seq.items = e.items.map((x) => ('keep' in x ? old[x.keep] : doc.createNode(x.value)));
    }
  }
  return { text: original.map(String).join(''), inPlace: false };
}
