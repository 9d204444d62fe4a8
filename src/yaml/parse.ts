// YAML text -> plain data with positions, one reader for values: js-yaml
// (yaml/schema.ts: YAML 1.2 core scalars, plain data only), its values then
// walked once (yaml/plain.ts: variables, forbidden keys, bounds). Positions
// come from the text's root keys while loading (rootKeys) and from the
// `yaml` library's node tree (yaml/locate.ts) when a diagnostic or a lookup
// needs them: a valid bundle file costs one js-yaml read.
import jsyaml from 'js-yaml';
import type { Diagnostic } from '../errors.js';
import { locate, rootKeys, type DocLocation } from './locate.js';
import { MAX_DEPTH, sizeLimits } from './limits.js';
import { toPlain, type Finding, type Stop } from './plain.js';
import { lineColAt, PositionIndex, restOfLine, type LineCol, type Path } from './positions.js';
import { SCHEMA } from './schema.js';
import type { VarLookup, VarProblem } from './variables.js';

export interface ParsedDoc {
  /** 0-based index of the document in its file. */
  index: number;
  value: unknown;
  positions: PositionIndex;
}

export interface VarUse {
  /** Index of the document in the file. */
  doc: number;
  path: Path;
  pos: LineCol;
  problem: VarProblem;
}

export interface ParseResult {
  docs: ParsedDoc[];
  diagnostics: Diagnostic[];
  /** Variable problems, for the caller to judge (bundle: errors; wsc.yaml: only in the selected environment). */
  varProblems: VarUse[];
  /** Some document could not be read at all. */
  incomplete: boolean;
}

export interface ParseOptions {
  /** Interpolate `${...}` in scalars with this lookup; without it scalars stay as written. */
  lookup?: VarLookup;
}

/** A file's text and, once a position has been needed, where its documents' values stand. */
interface Source {
  text: string;
  located: (DocLocation | undefined)[] | undefined;
}

const located = (src: Source): (DocLocation | undefined)[] => (src.located ??= locate(src.text));

/**
 * Text where a key may be a mapping or a sequence (`]` or `}` before a `:`,
 * `? ` before a key, an alias before a `:`): only then is the node tree asked
 * for such keys, which js-yaml reads as strings ("[object Object]").
 */
const FLOW_KEY = /[\]}][ \t]*:/;
const EXPLICIT_KEY = /(?:^|[\s,[{])\?(?:\s|$)/m;
const ALIAS_KEY = /(?:^|[\s,[{])\*[^\s,[\]{}]*[ \t]*:/m;
const mayHoldComplexKey = (text: string): boolean =>
  FLOW_KEY.test(text) ||
  (text.includes('?') && EXPLICIT_KEY.test(text)) ||
  (text.includes('*') && ALIAS_KEY.test(text));

export function parseYaml(file: string, text: string, opts: ParseOptions = {}): ParseResult {
  const out: ParseResult = { docs: [], diagnostics: [], varProblems: [], incomplete: false };
  const diag = (severity: 'error' | 'warning', rule: string, message: string, pos: LineCol, hint?: string) =>
    out.diagnostics.push({ severity, rule, message, pos: { file, ...pos }, ...(hint ? { hint } : {}) });
  const limit = sizeLimits(file, text);
  if (limit) return { ...out, diagnostics: [limit], incomplete: true };

  const src: Source = { text, located: undefined };
  const read = readValues(text, file, diag);
  if (read === undefined) return { ...out, incomplete: true };
  const { values } = read;
  for (const w of read.warnings) diag('warning', 'yaml', w.message, w.pos);
  if (read.duplicate) {
    const dups = located(src).flatMap((d) => d?.duplicates ?? []);
    if (dups.length === 0) dups.push({ key: keyAt(text, read.duplicate), pos: read.duplicate });
    const hint = 'A mapping may name each key once; the later value would silently win.';
    for (const d of dups) diag('error', 'duplicate-key', `duplicate key \`${d.key}\``, d.pos, hint);
  }
  const maybeComplex = mayHoldComplexKey(text);
  const anchors = text.includes('&');
  const keys = rootKeys(text);
  for (let index = 0; index < values.length; index++) {
    // An empty document (nothing but comments, or `~`): skipped.
    if (values[index] === null || values[index] === undefined) continue;
    const complex = maybeComplex ? (located(src)[index]?.complexKeys ?? []) : [];
    for (const pos of complex) diag('error', 'yaml-key', 'keys must be plain strings', pos);
    const plain = toPlain(values[index], opts.lookup, anchors);
    if (complex.length === 0 && plain.findings.length === 0 && 'value' in plain) {
      const topKeys = keys?.length === values.length ? keys[index] : undefined;
      out.docs.push({ index, value: plain.value, positions: lazyPositions(src, index, plain.value, topKeys) });
      continue;
    }
    const loc = located(src)[index];
    const positions = positionsOf(loc);
    for (const f of plain.findings) report(f, index, positions, out, diag);
    if ('stop' in plain) {
      const { stop } = plain;
      diag('error', stop.rule, stopMessage(stop, text, positions), where(stop, positions, loc));
    }
    if ('value' in plain && complex.length === 0) out.docs.push({ index, value: plain.value, positions });
    else out.incomplete = true;
  }
  return out;
}

type Diag = (severity: 'error' | 'warning', rule: string, message: string, pos: LineCol, hint?: string) => void;

/**
 * Every document's value by js-yaml, or undefined after a diagnostic. A
 * duplicate key stops js-yaml: the file is read again with the later value
 * winning (JSON.parse's way), for its other problems to be reported too.
 */
function readValues(
  text: string,
  file: string,
  diag: Diag,
): { values: unknown[]; duplicate?: LineCol; warnings: { message: string; pos: LineCol }[] } | undefined {
  // Kept only if the file reads: an error says what matters then.
  const warnings: { message: string; pos: LineCol }[] = [];
  const load = (json: boolean) =>
    jsyaml.loadAll(text, null, {
      schema: SCHEMA,
      filename: file,
      json,
      // Bounds js-yaml's recursion; the walk reports the depth past MAX_DEPTH where it is.
      maxDepth: MAX_DEPTH + 1,
      onWarning: (w: jsyaml.YAMLException) => warnings.push({ message: w.reason, pos: markOf(w, text) }),
    } as jsyaml.LoadOptions);
  let duplicate: LineCol | undefined;
  try {
    try {
      return { values: load(false), warnings };
    } catch (e) {
      if (!(e instanceof jsyaml.YAMLException) || e.reason !== 'duplicated mapping key') throw e;
      duplicate = markOf(e, text);
      warnings.length = 0;
      return { values: load(true), duplicate, warnings };
    }
  } catch (e) {
    if (!(e instanceof jsyaml.YAMLException)) {
      // Nothing but a YAML exception is expected; a stack overflow is the one js-yaml's bound leaves possible.
      const why = e instanceof RangeError ? 'nesting too deep' : String((e as Error)?.message ?? e);
      diag('error', 'yaml-syntax', `cannot parse YAML: ${why}`, { line: 1, col: 1 });
    } else if (/^nesting exceeded maxDepth/.test(e.reason)) {
      diag('error', 'yaml-limit', `values are nested more than ${MAX_DEPTH} levels deep`, markOf(e, text));
    } else diag('error', 'yaml-syntax', `YAML syntax error: ${e.reason}`, markOf(e, text));
    return undefined;
  }
}

/**
 * Where js-yaml's mark points; past the text's end (js-yaml reads a final
 * line break that may not be there), at its end.
 */
function markOf(e: jsyaml.YAMLException, text: string): LineCol {
  const mark = e.mark as { line?: number; column?: number } | undefined;
  const end = lineColAt(text, text.length);
  const line = (mark?.line ?? 0) + 1;
  if (line > end.line) return end;
  return { line, col: (mark?.column ?? 0) + 1 };
}

/** The key written at `pos` (js-yaml's mark of a duplicate), as a string. */
function keyAt(text: string, pos: LineCol): string {
  const written = /^(.*?)[ \t]*:(?:\s|$)/.exec(restOfLine(text, pos))?.[1] ?? '';
  try {
    const v = jsyaml.load(written, { schema: SCHEMA });
    return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : written;
  } catch {
    return written;
  }
}

/** A document's positions, from its location (none: the file's start). */
function positionsOf(loc: DocLocation | undefined): PositionIndex {
  const positions = new PositionIndex(loc?.start ?? { line: 1, col: 1 });
  if (loc) for (const [key, pos] of loc.positions) positions.setByKey(key, pos);
  return positions;
}

/**
 * The positions of a document read without a problem: its root keys from
 * the text when they are exactly its keys, the rest at the first lookup that
 * needs them. The closure holds the file's source only, not the values.
 */
function lazyPositions(
  src: Source,
  index: number,
  value: unknown,
  topKeys: { key: string; pos: LineCol }[] | undefined,
): PositionIndex {
  const own = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : undefined;
  const exact = topKeys !== undefined && own !== undefined && topKeys.length > 0 && topKeys.length === own.length;
  const found = exact && topKeys.every((k, i) => k.key === own[i]) ? topKeys : undefined;
  const positions = new PositionIndex(found?.[0]!.pos, (p) => {
    const loc = located(src)[index];
    if (!loc) return;
    // The start found with the root keys stays: a position once given does not move.
    if (!found) p.start = loc.start;
    for (const [key, pos] of loc.positions) p.setByKey(key, pos);
  });
  for (const k of found ?? []) positions.setTopKey(k.key, k.pos);
  return positions;
}

function report(f: Finding, doc: number, positions: PositionIndex, out: ParseResult, diag: Diag): void {
  if (f.kind === 'forbidden-key') {
    const hint = 'It could alter object prototypes in tools that merge this data; rename or remove it.';
    diag('error', 'forbidden-key', `key \`${f.key}\` is not allowed`, positions.find(f.path, 'key'), hint);
  } else if (f.kind === 'not-finite') {
    const message = 'numbers must be finite (`.inf` and `.nan` have no JSON form)';
    diag('error', 'yaml-number', message, positions.find(f.path, 'value'));
  } else {
    // At the variable's column when the scalar's style lets it be known, else at the scalar.
    const at = positions.get(f.path);
    const pos =
      at?.shift !== undefined
        ? { line: at.value.line, col: at.value.col + at.shift + f.problem.index }
        : positions.find(f.path, 'value');
    out.varProblems.push({ doc, path: f.path, pos, problem: f.problem });
  }
}

function where(stop: Stop, positions: PositionIndex, loc: DocLocation | undefined): LineCol {
  if (stop.at === 'start') return positions.start;
  // A tag js-yaml gives a key the node tree may give the mapping: then it is at the mapping's.
  const tag = (stop.at === 'key-tag' ? loc?.keyTags[0] : undefined) ?? positions.get(stop.path)?.tag;
  return tag ?? positions.find(stop.path, 'value');
}

/** The stop's message; an alias met inside its own anchor is named as written. */
function stopMessage(stop: Stop, text: string, positions: PositionIndex): string {
  if (stop.rule !== 'yaml-alias') return stop.message;
  const pos = positions.find(stop.path, 'value');
  const alias = /^\*[^\s,[\]{}]+/.exec(restOfLine(text, pos))?.[0];
  return alias ? `alias \`${alias}\` cannot be resolved here` : stop.message;
}
