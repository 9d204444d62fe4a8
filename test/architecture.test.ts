// The dependency rules between the top-level parts of src/ (a folder, or a
// file directly in src/), read from the import lines of every source file
// (type-only imports count: they couple the code as much as the others).
// A failure names each offending import as `file → file`.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/** One import: both files relative to src/, with `/` separators. */
interface Edge {
  from: string;
  to: string;
}

/** Imports between files of src/: `import … from`, `export … from`, `import '…'` and `import('…')`. */
function importsOf(srcDir: string): Edge[] {
  const edges: Edge[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts')) {
        const text = fs.readFileSync(file, 'utf8');
        for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
          if (!imported.fileName.startsWith('.')) continue;
          const target = path.resolve(path.dirname(file), imported.fileName).replace(/\.js$/, '.ts');
          edges.push({ from: relative(srcDir, file), to: relative(srcDir, target) });
        }
      }
    }
  };
  walk(srcDir);
  return edges;
}

function relative(srcDir: string, file: string): string {
  return path.relative(srcDir, file).split(path.sep).join('/');
}

/** The top-level part a file belongs to: its folder under src/, or the file itself (`errors` for src/errors.ts). */
function partOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file.replace(/\.ts$/, '') : file.slice(0, slash);
}

/** Sets of parts that import each other, directly or through others (strongly connected, more than one part). */
function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    const [a, b] = [partOf(e.from), partOf(e.to)];
    if (!next.has(a)) next.set(a, new Set());
    if (!next.has(b)) next.set(b, new Set());
    if (a !== b) next.get(a)!.add(b);
  }
  // Tarjan's algorithm: every strongly connected component in one pass.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

/** The imports that keep the parts of a cycle connected, as `file → file`. */
function importsWithin(edges: readonly Edge[], parts: readonly string[]): string[] {
  const inside = new Set(parts);
  return edges
    .filter((e) => partOf(e.from) !== partOf(e.to) && inside.has(partOf(e.from)) && inside.has(partOf(e.to)))
    .map((e) => `${e.from} → ${e.to}`)
    .sort();
}

interface Rule {
  from: string;
  /** Parts `from` may not import. */
  never?: readonly string[];
  /** When given, the only parts `from` may import (besides itself). */
  only?: readonly string[];
  why: string;
}

const RULES: readonly Rule[] = [
  {
    from: 'core',
    never: ['api', 'bundle', 'commands', 'config', 'render', 'emulator'],
    why: 'core is pure: it sees the API and the bundle only through domain types and the ports it is given',
  },
  {
    from: 'emulator',
    only: ['domain', 'make-dir'],
    why: 'the emulator is an independent check on the client: it shares only the wire types',
  },
  { from: 'render', never: ['api', 'commands'], why: 'renderers turn models into strings; they do no I/O' },
  { from: 'domain', only: [], why: 'domain is the bottom layer: everything may use it, it uses nothing of wsc' },
];

/** The imports that break a rule, as `file → file (why)`. */
function violations(edges: readonly Edge[], rules: readonly Rule[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const [a, b] = [partOf(e.from), partOf(e.to)];
    if (a === b) continue;
    for (const rule of rules) {
      if (rule.from !== a) continue;
      const broken = rule.never?.includes(b) || (rule.only !== undefined && !rule.only.includes(b));
      if (broken) out.push(`${e.from} → ${e.to} (${a} may not import ${b}: ${rule.why})`);
    }
  }
  return out.sort();
}

/**
 * Cycles known when this test was written, each to be removed with its
 * allow-list entry. An entry whose cycle is gone fails the test, so the
 * list cannot outlive its reason.
 */
const KNOWN_CYCLES: readonly { parts: readonly string[]; why: string }[] = [];

describe('dependency rules between the parts of src/', () => {
  const edges = importsOf(SRC);

  test('reads the import graph (the reader is not blind)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'main.ts', to: 'cli.ts' });
    // A dynamic import and a type-only import are both read.
    expect(edges.some((e) => e.from === 'cli.ts' && e.to.startsWith('commands/'))).toBe(true);
    expect(edges).toContainEqual({ from: 'commands/plan.ts', to: 'commands/options.ts' });
  });

  test('core, emulator, render and domain import only what their rules allow', () => {
    expect(violations(edges, RULES)).toEqual([]);
  });

  test('no cycle between the parts of src/ beyond the known ones', () => {
    const known = new Set(KNOWN_CYCLES.map((c) => [...c.parts].sort().join(' ⇄ ')));
    const found = cycles(edges);
    const unknown = found
      .filter((parts) => !known.has(parts.join(' ⇄ ')))
      .map((parts) => ({ cycle: parts.join(' ⇄ '), imports: importsWithin(edges, parts) }));
    expect(unknown).toEqual([]);
    const stale = [...known].filter((k) => !found.some((parts) => parts.join(' ⇄ ') === k));
    expect(stale, 'a known cycle is gone: remove its entry from KNOWN_CYCLES').toEqual([]);
  });
});

describe('the rule checker itself', () => {
  const edges: Edge[] = [
    { from: 'core/plan.ts', to: 'core/model.ts' },
    { from: 'core/plan.ts', to: 'bundle/suggest.ts' },
    { from: 'bundle/load.ts', to: 'config/variables.ts' },
    { from: 'config/wsc-yaml.ts', to: 'render/error.ts' },
    { from: 'render/error.ts', to: 'bundle/issues.ts' },
    { from: 'emulator/store.ts', to: 'domain/wire.ts' },
    { from: 'emulator/index.ts', to: 'errors.ts' },
  ];

  test('finds a cycle through three parts and names its imports', () => {
    expect(cycles(edges)).toEqual([['bundle', 'config', 'render']]);
    expect(importsWithin(edges, ['bundle', 'config', 'render'])).toEqual([
      'bundle/load.ts → config/variables.ts',
      'config/wsc-yaml.ts → render/error.ts',
      'render/error.ts → bundle/issues.ts',
    ]);
  });

  test('names a forbidden import and one outside an only-list, file by file', () => {
    expect(violations(edges, RULES)).toEqual([
      `core/plan.ts → bundle/suggest.ts (core may not import bundle: ${RULES[0]!.why})`,
      `emulator/index.ts → errors.ts (emulator may not import errors: ${RULES[1]!.why})`,
    ]);
  });
});
