// js-yaml's value of a document -> plain data, walked once: variables
// interpolated scalar by scalar, keys that could reach a prototype removed,
// numbers without a JSON form nulled, and everything bounded. js-yaml gives
// an alias the very object of its anchor: the walk copies it (a tree, as
// written, for whatever reads the data next), counting the values copied
// (the "billion laughs" guard), and refuses an alias inside its own anchor
// (a cycle). What it finds is by path; yaml/parse.ts puts positions on it.
import { FORBIDDEN_KEYS } from '../domain/forbidden-keys.js';
import { MAX_ALIAS_NODES, MAX_DEPTH, MAX_NODES } from './limits.js';
import type { Path } from './positions.js';
import { REFUSED_KEY, RefusedTag } from './schema.js';
import { hasVariables, interpolate, type VarLookup, type VarProblem } from './variables.js';

/** Something reported, the rest read on. */
export type Finding =
  | { kind: 'forbidden-key'; path: Path; key: string }
  | { kind: 'not-finite'; path: Path }
  | { kind: 'variable'; path: Path; problem: VarProblem };

/** What makes the document unusable: where (`at` what of the path) and why. */
export interface Stop {
  rule: 'yaml-limit' | 'yaml-alias-limit' | 'yaml-alias' | 'yaml-tag';
  message: string;
  path: Path;
  /** The path's value, its tag, the tag of its key, or the document's start. */
  at: 'value' | 'tag' | 'key-tag' | 'start';
}

export type PlainResult = { value: unknown; findings: Finding[] } | { stop: Stop; findings: Finding[] };

class Stopped extends Error {
  constructor(readonly stop: Stop) {
    super(stop.message);
  }
}

export function toPlain(value: unknown, lookup: VarLookup | undefined): PlainResult {
  const walk = new Walk(lookup);
  try {
    return { value: walk.convert(value, [], 0), findings: walk.findings };
  } catch (e) {
    if (e instanceof Stopped) return { stop: e.stop, findings: walk.findings };
    throw e;
  }
}

function refusedTag(tag: string, path: Path, at: 'tag' | 'key-tag'): Stopped {
  const written = tag.replace(/^tag:yaml\.org,2002:/, '!!');
  return new Stopped({ rule: 'yaml-tag', message: `unsupported YAML tag \`${written}\``, path: [...path], at });
}

class Walk {
  readonly findings: Finding[] = [];
  private nodes = 0;
  /** Collections converted (or being converted): met again, they are an alias's. */
  private readonly seen = new Set<object>();
  /** Collections being converted: met again inside themselves, a cycle. */
  private readonly open = new Set<object>();
  /** Values copied for aliases in this document, and the outermost alias being copied. */
  private aliasNodes = 0;
  private aliasPath: Path | undefined;

  constructor(private readonly lookup: VarLookup | undefined) {}

  /** One more value in the document (and in the alias being copied, if any). */
  private count(): void {
    if (++this.nodes > MAX_NODES)
      throw new Stopped({
        rule: 'yaml-limit',
        message: `the document has more than ${MAX_NODES} values`,
        path: [],
        at: 'start',
      });
    if (this.aliasPath !== undefined) this.countAlias();
  }

  private countAlias(): void {
    if (++this.aliasNodes > MAX_ALIAS_NODES)
      throw new Stopped({
        rule: 'yaml-alias-limit',
        message: `YAML aliases expand to more than ${MAX_ALIAS_NODES} values (an alias bomb?)`,
        path: this.aliasPath!,
        at: 'value',
      });
  }

  /** The value at `path`, converted in place (a collection met the first time) or copied (an alias's). */
  convert(v: unknown, path: Path, depth: number): unknown {
    this.count();
    if (typeof v === 'string') return this.lookup === undefined || !hasVariables(v) ? v : this.string(v, path);
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return v;
      this.findings.push({ kind: 'not-finite', path: [...path] });
      return null;
    }
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof RefusedTag) throw refusedTag(v.tag, path, 'tag');
    if (depth >= MAX_DEPTH)
      throw new Stopped({
        rule: 'yaml-limit',
        message: `values are nested more than ${MAX_DEPTH} levels deep`,
        path: [...path],
        at: 'value',
      });
    if (this.open.has(v))
      throw new Stopped({
        rule: 'yaml-alias',
        message: 'an alias inside its own anchor cannot be resolved',
        path: [...path],
        at: 'value',
      });
    if (this.seen.has(v)) return this.copy(v, path, depth);
    this.seen.add(v);
    this.open.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = this.convert(v[i], [...path, i], depth + 1);
    } else {
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        if (key.includes(REFUSED_KEY)) throw refusedTag(key.split(REFUSED_KEY)[1] ?? '', path, 'key-tag');
        if (FORBIDDEN_KEYS.has(key)) {
          this.findings.push({ kind: 'forbidden-key', path: [...path, key], key });
          delete obj[key];
        } else obj[key] = this.convert(obj[key], [...path, key], depth + 1);
      }
    }
    this.open.delete(v);
    return v;
  }

  /** An alias's collection, converted already: copied, each value counted. */
  private copy(v: object, path: Path, depth: number): unknown {
    const outermost = this.aliasPath === undefined;
    if (outermost) {
      this.aliasPath = [...path];
      // The copy's own collection: counted as a value of the alias too.
      this.countAlias();
    }
    this.open.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map((x, i) => this.convertCopy(x, [...path, i], depth + 1));
    else {
      const obj: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) obj[k] = this.convertCopy(x, [...path, k], depth + 1);
      out = obj;
    }
    this.open.delete(v);
    if (outermost) this.aliasPath = undefined;
    return out;
  }

  /** A value inside an alias's copy: scalars as converted already, collections copied. */
  private convertCopy(x: unknown, path: Path, depth: number): unknown {
    if (x === null || typeof x !== 'object') {
      this.count();
      return x;
    }
    return this.convert(x, path, depth);
  }

  private string(v: string, path: Path): unknown {
    const r = interpolate(v, this.lookup!);
    for (const problem of r.problems) this.findings.push({ kind: 'variable', path: [...path], problem });
    return r.value;
  }
}
