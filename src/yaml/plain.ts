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

/**
 * `anchors`: whether the text may hold an anchor (a `&`). Without one no
 * collection is met twice, and the walk keeps no record of those it met.
 */
export function toPlain(value: unknown, lookup: VarLookup | undefined, anchors = true): PlainResult {
  const walk = new Walk(lookup, anchors);
  try {
    return { value: walk.convert(value, 0), findings: walk.findings };
  } catch (e) {
    if (e instanceof Stopped) return { stop: e.stop, findings: walk.findings };
    throw e;
  }
}

class Walk {
  readonly findings: Finding[] = [];
  private nodes = 0;
  /** Where the walk is: one array, pushed and popped, copied only into what is reported. */
  private readonly path: (string | number)[] = [];
  /** Collections converted (or being converted): met again, they are an alias's. */
  private readonly seen: Set<object> | undefined;
  /** Collections being converted: met again inside themselves, a cycle. */
  private readonly open: Set<object> | undefined;
  /** Values copied for aliases in this document, and the outermost alias being copied. */
  private aliasNodes = 0;
  private aliasPath: Path | undefined;

  constructor(
    private readonly lookup: VarLookup | undefined,
    anchors: boolean,
  ) {
    if (anchors) {
      this.seen = new Set();
      this.open = new Set();
    }
  }

  private stop(rule: Stop['rule'], message: string, at: Stop['at'], path: Path = [...this.path]): Stopped {
    return new Stopped({ rule, message, path, at });
  }

  /** One more value in the document (and in the alias being copied, if any). */
  private count(): void {
    if (++this.nodes > MAX_NODES)
      throw this.stop('yaml-limit', `the document has more than ${MAX_NODES} values`, 'start', []);
    if (this.aliasPath !== undefined) this.countAlias();
  }

  private countAlias(): void {
    if (++this.aliasNodes > MAX_ALIAS_NODES) {
      const message = `YAML aliases expand to more than ${MAX_ALIAS_NODES} values (an alias bomb?)`;
      throw this.stop('yaml-alias-limit', message, 'value', this.aliasPath);
    }
  }

  private refusedTag(tag: string, at: 'tag' | 'key-tag'): Stopped {
    return this.stop('yaml-tag', `unsupported YAML tag \`${tag.replace(/^tag:yaml\.org,2002:/, '!!')}\``, at);
  }

  /** The value at the walk's path, converted in place (a collection met the first time) or copied (an alias's). */
  convert(v: unknown, depth: number): unknown {
    this.count();
    if (typeof v === 'string') return this.lookup === undefined || !hasVariables(v) ? v : this.string(v);
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return v;
      this.findings.push({ kind: 'not-finite', path: [...this.path] });
      return null;
    }
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof RefusedTag) throw this.refusedTag(v.tag, 'tag');
    if (depth >= MAX_DEPTH)
      throw this.stop('yaml-limit', `values are nested more than ${MAX_DEPTH} levels deep`, 'value');
    if (this.open?.has(v)) throw this.stop('yaml-alias', 'an alias inside its own anchor cannot be resolved', 'value');
    if (this.seen?.has(v)) return this.copy(v, depth);
    this.seen?.add(v);
    this.open?.add(v);
    const path = this.path;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        v[i] = this.convert(v[i], depth + 1);
        path.pop();
      }
    } else {
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        if (key.includes(REFUSED_KEY)) throw this.refusedTag(key.split(REFUSED_KEY)[1] ?? '', 'key-tag');
        path.push(key);
        if (FORBIDDEN_KEYS.has(key)) {
          this.findings.push({ kind: 'forbidden-key', path: [...path], key });
          delete obj[key];
        } else obj[key] = this.convert(obj[key], depth + 1);
        path.pop();
      }
    }
    this.open?.delete(v);
    return v;
  }

  /** An alias's collection, converted already: copied, each value counted. */
  private copy(v: object, depth: number): unknown {
    const outermost = this.aliasPath === undefined;
    if (outermost) {
      this.aliasPath = [...this.path];
      // The copy's own collection: counted as a value of the alias too.
      this.countAlias();
    }
    this.open?.add(v);
    const path = this.path;
    let out: unknown;
    if (Array.isArray(v)) {
      out = v.map((x: unknown, i) => {
        path.push(i);
        const c = this.copyOf(x, depth + 1);
        path.pop();
        return c;
      });
    } else {
      const obj: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        path.push(k);
        obj[k] = this.copyOf(x, depth + 1);
        path.pop();
      }
      out = obj;
    }
    this.open?.delete(v);
    if (outermost) this.aliasPath = undefined;
    return out;
  }

  /** A value inside an alias's copy: scalars as converted already, collections copied. */
  private copyOf(x: unknown, depth: number): unknown {
    if (x === null || typeof x !== 'object') {
      this.count();
      return x;
    }
    return this.convert(x, depth);
  }

  private string(v: string): unknown {
    const r = interpolate(v, this.lookup!);
    for (const problem of r.problems) this.findings.push({ kind: 'variable', path: [...this.path], problem });
    return r.value;
  }
}
