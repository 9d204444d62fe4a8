// The compiled checks and parsers of zod-fast.ts against zod itself.
// Soundness: whenever a check says yes, zod accepts the value; whenever a
// parser gives a result, zod accepts the value and its output is the same
// JSON, members in the same order. Completeness where it pays: what the
// emulator serves and what bundles hold get through, so zod is skipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as wire from '../src/domain/wire.js';
import { ReportSchema, UserAttributeSchema, WorkbookSchema } from '../src/domain/bundle-schema/index.js';
import { createEmulator, generateSeed, type Emulator } from '../src/emulator/index.js';
import { canonicalJson } from '../src/core/canonical.js';
import { compileCheck, compileParse, keepsInput, NO } from '../src/zod-fast.js';
import { runs } from './helpers/property.js';

type Mode = 'valid' | 'same';

/** The promise of a `true`: zod accepts, and in `same` mode returns an equal value. */
/**
 * The promise of an answer: zod accepts; for the parser, zod's output is the
 * same JSON text (member order included). `same` also asks whether the parser
 * handed back the input itself (no copy). Returns whether the fast path answered.
 */
function expectSound(schema: z.ZodType, mode: Mode, v: unknown): boolean {
  if (mode === 'valid') {
    const said = compileCheck(schema)(v);
    if (said) expect(schema.safeParse(v).success, `zod refused what the check accepted: ${JSON.stringify(v)}`).toBe(true);
    return said;
  }
  const out = compileParse(schema)(v);
  if (out === NO) return false;
  const r = schema.safeParse(v);
  expect(r.success, `zod refused what the parser accepted: ${JSON.stringify(v)}`).toBe(true);
  if (r.success) expect(JSON.stringify(out)).toBe(JSON.stringify(r.data));
  return out === v;
}

describe('compileCheck on hand-picked cases', () => {
  const cases: Array<[string, z.ZodType, Mode, unknown, boolean]> = [
    ['int', z.int(), 'same', 3, true],
    ['int refuses 1.5', z.int(), 'same', 1.5, false],
    ['int refuses 2^60', z.int(), 'same', 2 ** 60, false],
    ['number refuses Infinity', z.number(), 'same', Infinity, false],
    ['number refuses NaN', z.number(), 'same', NaN, false],
    ['positive refuses 0', z.int().positive(), 'valid', 0, false],
    ['max length', z.string().max(3), 'same', 'abcd', false],
    ['regex', z.string().regex(/^a+$/), 'same', 'aa', true],
    ['regex refuses', z.string().regex(/^a+$/), 'same', 'ab', false],
    ['nullish null', z.string().nullish(), 'same', null, true],
    ['enum', z.enum(['A', 'B']), 'same', 'C', false],
    ['literal', z.literal('Report'), 'same', 'Report', true],
    ['strict extra key', z.strictObject({ a: z.int() }), 'valid', { a: 1, b: 2 }, false],
    ['loose extra key', z.looseObject({ a: z.int() }), 'same', { a: 1, b: [2] }, true],
    ['strip extra key is valid', z.object({ a: z.int() }), 'valid', { a: 1, b: 2 }, true],
    ['strip extra key: a copy without it', z.object({ a: z.int() }), 'same', { a: 1, b: 2 }, false],
    ['members out of shape order: a copy in shape order', z.looseObject({ a: z.int(), b: z.int() }), 'same', { b: 1, a: 2, c: 3 }, false],
    ['members in shape order, extras last: the input itself', z.looseObject({ a: z.int(), b: z.int() }), 'same', { a: 1, b: 2, c: 3 }, true],
    ['extra before a known member: a copy', z.looseObject({ a: z.int() }), 'same', { c: 3, a: 1 }, false],
    ['missing required', z.object({ a: z.int() }), 'valid', {}, false],
    ['missing optional', z.object({ a: z.int().optional() }), 'same', {}, true],
    ['default filled in: valid', z.strictObject({ p: z.boolean().default(false) }), 'valid', {}, true],
    ['default filled in: zod fills it', z.strictObject({ p: z.boolean().default(false) }), 'same', {}, false],
    ['default given: the input itself', z.strictObject({ p: z.boolean().default(false) }), 'same', { p: true }, true],
    ['array of objects', z.array(z.strictObject({ a: z.string() })), 'same', [{ a: 'x' }, { a: 'y' }], true],
    ['array refuses object', z.array(z.int()), 'same', { 0: 1, length: 1 }, false],
    ['record', z.record(z.string(), z.int()), 'same', { a: 1, b: 2 }, true],
    ['record refuses array', z.record(z.string(), z.unknown()), 'same', [1], false],
    // A copy made at a later member keeps the members before it, in the input's order (the copy is compared with zod's JSON).
    ['record copied from its second member', z.record(z.string(), z.object({ a: z.int() })), 'same', { x: { a: 1 }, y: { a: 2, b: 3 }, z: { a: 4 } }, false],
    ['object copied from its second member', z.object({ p: z.int(), q: z.object({ a: z.int() }), r: z.int().optional(), s: z.int() }), 'same', { p: 1, q: { a: 2, b: 3 }, s: 4 }, false],
    ['record with __proto__ goes to zod', z.record(z.string(), z.unknown()), 'same', JSON.parse('{"__proto__":1}'), false],
    ['union: a strip object first gives its copy', z.union([z.object({ a: z.int() }), z.looseObject({ a: z.int() })]), 'same', { a: 1, b: 2 }, false],
    ['union: strip object first, valid', z.union([z.object({ a: z.int() }), z.looseObject({ a: z.int() })]), 'valid', { a: 1, b: 2 }, true],
    ['union: type-disjoint options', z.union([z.int(), z.strictObject({ $w: z.string() })]), 'same', { $w: 'x' }, true],
    ['refinement refuses: zod words it', z.string().refine((s) => s !== 'no'), 'same', 'no', false],
    ['refinement accepts without zod: the input itself', z.string().refine((s) => s !== 'no'), 'same', 'ok', true],
    ['refinement after a regex', z.string().regex(/^[a-z]+$/).refine((s) => s !== 'no'), 'valid', 'no', false],
    ['refinement with a truthy non-boolean result asks zod', z.string().refine((s) => s.length as unknown as boolean), 'valid', 'ok', false],
    ['superRefine: zod runs it', z.string().superRefine((_, ctx) => ctx.addIssue({ code: 'custom', message: 'no' })), 'valid', 'ok', false],
    ['transform: zod runs it', z.string().transform((s) => s.toUpperCase()), 'same', 'abc', false],
    ['class instance is not plain', z.looseObject({}), 'same', new Date(0), false],
    ['union: a refined string option is skipped for a mapping', z.union([z.string().refine(() => true), z.record(z.string(), z.int())]), 'same', { a: 1 }, true],
    ['union: a coercing option is never skipped', z.union([z.coerce.string(), z.int()]), 'same', 5, false],
  ];
  for (const [name, schema, mode, v, want] of cases) {
    it(`${name} (${mode})`, () => {
      expect(expectSound(schema, mode, v)).toBe(want);
    });
  }
});

// ---------------------------------------------------------------------------
// Random schemas and values: soundness holds for any schema of the grammar.

type Desc =
  | { t: 'string'; max?: number; re?: boolean; refine?: boolean }
  | { t: 'int' | 'number' | 'boolean' | 'null' | 'unknown' }
  | { t: 'enum' }
  | { t: 'opt' | 'nullable' | 'nullish' | 'default' | 'array' | 'record'; of: Desc }
  | { t: 'object'; mode: 'strict' | 'loose' | 'strip'; shape: Array<[string, Desc]> }
  | { t: 'union'; of: Desc[] };

const descArb = fc.letrec<{ d: Desc }>((tie) => ({
  d: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ t: fc.constant('string' as const), max: fc.option(fc.nat(4), { nil: undefined }), re: fc.boolean(), refine: fc.boolean() }),
    fc.constantFrom<Desc>({ t: 'int' }, { t: 'number' }, { t: 'boolean' }, { t: 'null' }, { t: 'unknown' }, { t: 'enum' }),
    fc.record({ t: fc.constantFrom('opt' as const, 'nullable' as const, 'nullish' as const, 'default' as const, 'array' as const, 'record' as const), of: tie('d') }),
    fc.record({
      t: fc.constant('object' as const),
      mode: fc.constantFrom('strict' as const, 'loose' as const, 'strip' as const),
      shape: fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c'), tie('d')), { maxLength: 3, selector: ([k]) => k }),
    }),
    fc.record({ t: fc.constant('union' as const), of: fc.array(tie('d'), { minLength: 1, maxLength: 3 }) }),
  ),
})).d;

function toZod(d: Desc): z.ZodType {
  switch (d.t) {
    case 'string': {
      let s = z.string();
      if (d.max !== undefined) s = s.max(d.max);
      if (d.re) s = s.regex(/^[a-c]*$/);
      return d.refine ? s.refine((v) => !v.startsWith('b')) : s;
    }
    case 'int':
      return z.int();
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    case 'unknown':
      return z.unknown();
    case 'enum':
      return z.enum(['a', 'b']);
    case 'opt':
      return toZod(d.of).optional();
    case 'nullable':
      return toZod(d.of).nullable();
    case 'nullish':
      return toZod(d.of).nullish();
    case 'default':
      return toZod(d.of).default(null as never);
    case 'array':
      return z.array(toZod(d.of));
    case 'record':
      return z.record(z.string(), toZod(d.of));
    case 'object': {
      const shape = Object.fromEntries(d.shape.map(([k, v]) => [k, toZod(v)]));
      return d.mode === 'strict' ? z.strictObject(shape) : d.mode === 'loose' ? z.looseObject(shape) : z.object(shape);
    }
    case 'union':
      return z.union(d.of.map(toZod) as [z.ZodType, z.ZodType]);
  }
}

/** Values shaped like the description most of the time, with random slips. */
function valueArb(d: Desc): fc.Arbitrary<unknown> {
  const noise = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.double(), fc.string({ maxLength: 3 }), fc.constant([]), fc.constant({}));
  const shaped = ((): fc.Arbitrary<unknown> => {
    switch (d.t) {
      case 'string':
        return fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'x'), maxLength: 5 });
      case 'int':
        return fc.oneof(fc.integer(), fc.constant(2 ** 60));
      case 'number':
        return fc.oneof(fc.double(), fc.integer());
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'unknown':
        return fc.jsonValue({ maxDepth: 2 });
      case 'enum':
        return fc.constantFrom('a', 'b', 'c');
      case 'opt':
      case 'nullable':
      case 'nullish':
      case 'default':
        return fc.oneof(valueArb(d.of), fc.constant(undefined), fc.constant(null));
      case 'array':
        return fc.array(valueArb(d.of), { maxLength: 3 });
      case 'record':
        return fc.dictionary(fc.constantFrom('a', 'z', '__proto__'), valueArb(d.of), { maxKeys: 3 });
      case 'object':
        return fc
          .tuple(
            fc.tuple(...d.shape.map(([k, v]) => fc.tuple(fc.constant(k), fc.option(valueArb(v), { nil: undefined, freq: 4 })))),
            fc.dictionary(fc.constantFrom('a', 'x'), fc.integer(), { maxKeys: 1 }),
          )
          .map(([members, extra]) => {
            const o: Record<string, unknown> = { ...extra };
            for (const [k, v] of members) if (v !== undefined) o[k] = v;
            return o;
          });
      case 'union':
        return fc.oneof(...d.of.map(valueArb));
    }
  })();
  return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: noise });
}

/** A random schema of the grammar above and a few values mostly shaped like it, `numRuns` times. */
function forRandomSchemas(numRuns: number, check: (schema: z.ZodType, values: unknown[]) => void): void {
  fc.assert(
    fc.property(
      descArb.chain((d) => fc.tuple(fc.constant(d), fc.array(valueArb(d), { minLength: 1, maxLength: 5 }))),
      ([d, values]) => check(toZod(d), values),
    ),
    { numRuns },
  );
}

describe('compileCheck on random schemas', () => {
  it('never says yes where zod says no, nor "same" where zod changes the value', () => {
    let yes = 0;
    forRandomSchemas(runs(2500), (schema, values) => {
      for (const v of values) {
        for (const mode of ['valid', 'same'] as const) if (expectSound(schema, mode, v)) yes++;
      }
    });
    // The property is not vacuous: many values were accepted.
    expect(yes).toBeGreaterThan(2000);
  });
});

describe('keepsInput: zod gives back what it accepts, up to member order', () => {
  const cases: Array<[string, z.ZodType, boolean]> = [
    ['loose object', z.looseObject({ a: z.int(), b: z.looseObject({ c: z.string() }).nullish() }), true],
    ['strict object', z.strictObject({ a: z.int() }), true],
    ['strip object drops unknown members', z.object({ a: z.int() }), false],
    ['a strip object deep inside', z.looseObject({ a: z.array(z.object({ b: z.int() })) }), false],
    ['default fills in', z.looseObject({ a: z.boolean().default(false) }), false],
    ['optional default', z.looseObject({ a: z.boolean().default(false).optional() }), false],
    ['transform', z.string().transform((s) => s.trim()), false],
    ['coercion', z.coerce.string(), false],
    ['refinements change nothing', z.string().regex(/^a/).refine((s) => s.length < 9), true],
    ['record of unknown', z.record(z.string(), z.unknown()), true],
    ['union of loose options', z.union([z.int(), z.looseObject({ a: z.int() })]), true],
    ['union whose options both take objects', z.union([z.record(z.string(), z.boolean()), z.unknown()]), false],
    ['union with a strip option', z.union([z.int(), z.object({ a: z.int() })]), false],
    ['loose object whose catchall strips', z.object({ a: z.int() }).catchall(z.object({})), false],
  ];
  for (const [name, schema, want] of cases) it(name, () => expect(keepsInput(schema)).toBe(want));

  it('holds for the reports and workbooks list items (drafts are kept as sent), not for a strip object', () => {
    expect(keepsInput(wire.Report)).toBe(true);
    expect(keepsInput(wire.Workbook)).toBe(true);
    expect(keepsInput(wire.DashboardConfig)).toBe(false);
  });

  it('on random schemas: where it says yes, the output zod gives for an accepted value is that value, members maybe reordered', () => {
    let checked = 0;
    forRandomSchemas(runs(2500), (schema, values) => {
      if (!keepsInput(schema)) return;
      for (const v of values) {
        if (!compileCheck(schema)(v)) continue;
        const r = schema.safeParse(v);
        expect(r.success).toBe(true);
        if (r.success) expect(canonicalJson(r.data)).toBe(canonicalJson(v));
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(1000);
  });
});

// ---------------------------------------------------------------------------
// The real schemas: what the emulator serves and what bundles hold.

let emu: Emulator;
const served: { reports: unknown[]; workbooks: unknown[]; userAttributes: unknown[] } = { reports: [], workbooks: [], userAttributes: [] };
beforeAll(async () => {
  emu = await createEmulator({ port: 0, randomSeed: 5, seed: generateSeed({ reports: 60, workbooks: 12, withDashboards: true, randomSeed: 9 }) });
  const get = async (path: string) => {
    const res = await fetch(`${emu.url}/api/v1${path}?first=500`, { headers: { authorization: `Bearer ${emu.adminToken}` } });
    return ((await res.json()) as { items: unknown[] }).items;
  };
  served.reports = await get('/deployments/1/reports');
  served.workbooks = await get('/deployments/1/workbooks');
  served.userAttributes = await get('/user-attributes');
});
afterAll(async () => {
  await emu?.close();
});

const bundleDocs = (): Array<{ kind: string; [k: string]: unknown }> => {
  const root = join(import.meta.dirname, '../fixtures/example');
  const docs: Array<{ kind: string }> = [];
  for (const sub of ['reports', 'workbooks', 'user-attributes']) {
    for (const f of readdirSync(join(root, sub))) {
      for (const d of parseAllDocuments(readFileSync(join(root, sub, f), 'utf8')) as Array<{ toJS(): unknown }>) {
        // The loader substitutes variables before validating; so does this.
        docs.push(JSON.parse(JSON.stringify(d.toJS()).replaceAll('"${vars.financeFolderId}"', '42')) as { kind: string });
      }
    }
  }
  return docs;
};

/** A value with one slip at a random place: a member dropped, added, or replaced. */
function mutated(base: unknown): fc.Arbitrary<unknown> {
  const paths: Array<Array<string | number>> = [];
  const walk = (v: unknown, p: Array<string | number>) => {
    paths.push(p);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
  };
  walk(base, []);
  const replacement = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom(undefined, 1.5, -1, '', '000000abcdef', 'x'.repeat(300), 'CHART', 'published', {}));
  return fc.tuple(fc.constantFrom(...paths), fc.constantFrom('replace', 'drop', 'add'), replacement).map(([path, op, x]) => {
    const copy = structuredClone(base);
    if (path.length === 0) return op === 'replace' ? x : copy;
    let parent = copy as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (op === 'drop') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (op === 'add' && !Array.isArray(parent)) parent[`extra${String(last)}`] = x;
    else parent[last] = x;
    return copy;
  });
}

describe('compileCheck on the schemas wsc uses', () => {
  it('parses every item the emulator serves without zod (the input itself, or a copy in zod\'s member order)', () => {
    expect(served.reports.length).toBe(60);
    const answered = (s: z.ZodType, v: unknown) => {
      expectSound(s, 'same', v);
      return compileParse(s)(v) !== NO;
    };
    for (const r of served.reports) expect(answered(wire.Report, r)).toBe(true);
    for (const w of served.workbooks) expect(answered(wire.Workbook, w)).toBe(true);
    for (const a of served.userAttributes) expect(answered(wire.UserAttribute, a)).toBe(true);
    // Members already in zod's order come back as they are, with no copy.
    const inOrder = wire.Report.parse(served.reports[0]);
    expect(compileParse(wire.Report)(inOrder)).toBe(inOrder);
  });

  it('vouches for every document of the example bundle', () => {
    const schemaOf = { Report: ReportSchema, Workbook: WorkbookSchema, UserAttribute: UserAttributeSchema } as Record<string, z.ZodType>;
    const docs = bundleDocs();
    expect(docs.length).toBeGreaterThan(5);
    for (const d of docs) expect(expectSound(schemaOf[d.kind]!, 'valid', d)).toBe(true);
  });

  it('is sound on served items with a slip (wire schemas, same mode)', () => {
    const pairs: Array<[z.ZodType, unknown]> = [
      ...served.reports.slice(0, 5).map((r) => [wire.Report, r] as [z.ZodType, unknown]),
      ...served.workbooks.slice(0, 5).map((w) => [wire.Workbook, w] as [z.ZodType, unknown]),
      ...served.userAttributes.slice(0, 3).map((a) => [wire.UserAttribute, a] as [z.ZodType, unknown]),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...pairs).chain(([s, v]) => fc.tuple(fc.constant(s), mutated(v))), ([s, v]) => {
        expectSound(s, 'same', v);
        expectSound(s, 'valid', v);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('is sound on bundle documents with a slip (bundle schemas, valid mode)', () => {
    const schemaOf = { Report: ReportSchema, Workbook: WorkbookSchema, UserAttribute: UserAttributeSchema } as Record<string, z.ZodType>;
    const docs = bundleDocs();
    fc.assert(
      fc.property(fc.constantFrom(...docs).chain((d) => fc.tuple(fc.constant(schemaOf[d.kind]!), mutated(d))), ([s, v]) => {
        expectSound(s, 'valid', v);
      }),
      { numRuns: runs(3000) },
    );
  });
});
