// No phantom diffs: for random bundles, the plan against a live
// state that already holds the bundle's content is empty, whatever the key
// order or jsonQuery formatting on either side; and the plan is deterministic.
// The "applied" live state is built by a small simulation of what the server
// does with the requests (ids assigned, refs resolved, meta merged, widget ids
// assigned), written independently of the planner.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Report, UserAttribute, Workbook } from '../../src/domain/wire.js';
import { collectRefs } from '../../src/core/refs.js';
import { isRef, type DesiredState, type LiveState, type PlanContext } from '../../src/core/model.js';
import type { JsonValue } from '../../src/core/json.js';
import { plan } from '../../src/core/plan/index.js';
import { livePublicId } from '../../src/core/publicid.js';
import { dAttr, dReport, dWorkbook, lAttr, lReport, lWorkbook } from './builders.js';
import { runs } from '../helpers/property.js';

type Obj = { [k: string]: JsonValue };

// --- generators -------------------------------------------------------------

const plainJson = fc.jsonValue({ maxDepth: 3 }).filter((v) => collectRefs(v).length === 0) as fc.Arbitrary<JsonValue>;
const metaKey = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/).filter((k) => k !== 'dashboardDraft');
const slugArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const pidArb = fc.stringMatching(/^[1-9A-Za-z][0-9A-Za-z]{11}$/);
// Made once: a stringMatching arbitrary costs a millisecond to make, and the chain below runs for every bundle.
const widgetIdArb = fc.stringMatching(/^w[0-9]{1,3}$/);

function optionalFields<T extends Record<string, fc.Arbitrary<unknown>>>(rec: T) {
  return fc.record(rec, { requiredKeys: [] });
}

const bundleArb = fc
  .record({
    slugs: fc.uniqueArray(slugArb, { maxLength: 4 }),
    pids: fc.uniqueArray(pidArb, { maxLength: 5 }),
    attrs: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 }),
    perDeployment: fc.boolean(),
    deploymentId: fc.integer({ min: 1, max: 50 }),
  })
  .chain(({ slugs, pids, attrs, perDeployment, deploymentId }) => {
    const idOrRef = <T>(refs: T[]) =>
      refs.length > 0
        ? fc.oneof(fc.integer({ min: 1, max: 999 }), fc.constantFrom(...refs))
        : fc.integer({ min: 1, max: 999 });
    const reportRef = idOrRef(pids.map((p) => ({ $report: p })));
    const workbookRef = idOrRef(slugs.map((s) => ({ $workbook: s })));
    const widget = fc.record(
      {
        id: widgetIdArb,
        type: fc.constantFrom('CHART', 'TEXT'),
        position: fc.record({
          x: fc.nat(12),
          y: fc.nat(12),
          w: fc.integer({ min: 1, max: 12 }),
          h: fc.integer({ min: 1, max: 8 }),
        }),
        config: fc.record({ reportId: reportRef, title: fc.string() }, { requiredKeys: ['reportId'] }),
      },
      { requiredKeys: ['type', 'position'] },
    );
    const draft = optionalFields({ title: fc.string(), widgets: fc.array(widget, { maxLength: 3 }) });
    const meta = fc.dictionary(metaKey, plainJson, { maxKeys: 3 });
    const workbook = (slug: string) =>
      fc
        .record({
          fields: optionalFields({
            name: fc.string({ maxLength: 20 }),
            folderId: fc.option(fc.integer({ min: 1, max: 99 })),
            meta: fc
              .tuple(meta, fc.option(draft, { nil: undefined }))
              .map(([m, d]) => (d === undefined ? m : { ...m, dashboardDraft: d })),
          }),
          publish: fc.boolean(),
        })
        .map(({ fields, publish }) => dWorkbook(slug, fields as never, publish));
    const report = (pid: string) =>
      optionalFields({
        name: fc.string({ maxLength: 20 }),
        title: fc.option(fc.string()),
        workbookId: workbookRef,
        folderId: fc.integer({ min: 1, max: 99 }),
        sqlQuery: fc.string(),
        jsonQuery: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        pivotItems: fc.record({
          columns: fc.array(fc.string()),
          filters: fc.array(fc.string()),
          measures: fc.array(fc.string()),
          rows: fc.array(fc.string()),
        }),
        meta,
        endResultCell: fc.string(),
      }).map((fields) => dReport(pid, fields as never, { source: 'PLAYGROUND' }));
    const attr = (name: string) =>
      optionalFields({ displayName: fc.string(), description: fc.string(), defaultValue: fc.string() }).map((f) =>
        dAttr(name, f),
      );
    return fc.record({
      desired: fc.record({
        workbooks: fc.tuple(...slugs.map(workbook)),
        reports: fc.tuple(...pids.map(report)),
        userAttributes: fc.tuple(...attrs.map(attr)),
      }),
      ctx: fc.constant<PlanContext>({
        environment: 'prop',
        deploymentId,
        publicIds: perDeployment ? 'per-deployment' : 'as-is',
        targets: [],
      }),
      extraMeta: fc.dictionary(metaKey, plainJson, { maxKeys: 2 }),
      seed: fc.integer(),
    });
  });

// --- helpers ----------------------------------------------------------------

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Same content, object keys in a random order, at every depth. */
function shuffleKeys<T>(v: T, rand: () => number): T {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, rand)) as T;
  if (v === null || typeof v !== 'object') return v;
  const entries = Object.entries(v).sort(() => rand() - 0.5);
  const out: Record<string, unknown> = {};
  for (const [k, x] of entries)
    Object.defineProperty(out, k, {
      value: shuffleKeys(x, rand),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out as T;
}

function reformatJson(s: unknown, rand: () => number): unknown {
  if (typeof s !== 'string') return s;
  return JSON.stringify(shuffleKeys(JSON.parse(s), rand), null, 1 + Math.floor(rand() * 4));
}

function resolve(v: JsonValue, reports: Map<string, number>, workbooks: Map<string, number>): JsonValue {
  if (isRef(v)) return '$report' in v ? reports.get(v.$report)! : workbooks.get(v.$workbook)!;
  if (Array.isArray(v)) return v.map((x) => resolve(x, reports, workbooks));
  if (v !== null && typeof v === 'object') {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, {
        value: resolve(x, reports, workbooks),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return v;
}

/** What the server holds after the bundle was applied. */
function simulateApplied(d: DesiredState, ctx: PlanContext, extraMeta: Obj, seed: number): LiveState {
  const rand = rng(seed);
  const workbookIds = new Map(d.workbooks.map((w, i) => [w.slug, 100 + i]));
  const reportIds = new Map(d.reports.map((r, i) => [r.publicId, 500 + i]));
  let widgetSeq = 0;
  const workbooks: Workbook[] = d.workbooks.map((w) => {
    const meta = resolve(w.fields.meta ?? {}, reportIds, workbookIds) as Obj;
    const draft = meta['dashboardDraft'] as Obj | undefined;
    if (draft && Array.isArray(draft['widgets'])) {
      draft['widgets'] = draft['widgets'].map((x) =>
        (x as Obj)['id'] === undefined ? { ...(x as Obj), id: `srv-${++widgetSeq}` } : x,
      );
    }
    return lWorkbook(workbookIds.get(w.slug)!, rand() < 0.5 ? w.slug.toUpperCase() : w.slug, {
      deploymentId: ctx.deploymentId,
      name: w.fields.name ?? 'Untitled',
      ...(w.fields.folderId !== undefined ? { folderId: w.fields.folderId } : {}),
      meta: { ...extraMeta, ...meta },
      dashboardDraft: draft ?? null,
      dashboardPublished: w.publish ? (draft ?? null) : null,
    });
  });
  const reports: Report[] = d.reports.map((r) => {
    const fields = resolve(r.fields, reportIds, workbookIds) as Obj;
    const meta = fields['meta'] as Obj | undefined;
    return lReport(reportIds.get(r.publicId)!, livePublicId(r.publicId, ctx.publicIds, ctx.deploymentId), {
      deploymentId: ctx.deploymentId,
      source: r.source,
      description: null,
      ...fields,
      name: (fields['name'] as string | undefined) ?? 'Untitled',
      ...(fields['jsonQuery'] !== undefined ? { jsonQuery: reformatJson(fields['jsonQuery'], rand) as string } : {}),
      ...(meta !== undefined ? { meta: { ...extraMeta, ...meta } } : {}),
    });
  });
  const userAttributes: UserAttribute[] = d.userAttributes.map((a, i) => lAttr(900 + i, a.name, { ...a.fields }));
  // Unmanaged neighbours.
  workbooks.push(lWorkbook(1, 'zz-unmanaged'));
  reports.push(lReport(2, 'zzUnmanaged1'));
  return shuffleKeys({ workbooks, reports, userAttributes }, rand);
}

function shuffleDesired(d: DesiredState, seed: number): DesiredState {
  const rand = rng(seed ^ 0x5bd1e995);
  const order = <T>(xs: T[]) => [...xs].sort(() => rand() - 0.5);
  return {
    workbooks: order(d.workbooks).map((w) => ({ ...w, fields: shuffleKeys(w.fields, rand) })),
    reports: order(d.reports).map((r) => {
      const fields = shuffleKeys(r.fields, rand);
      if (fields.jsonQuery !== undefined) fields.jsonQuery = reformatJson(fields.jsonQuery, rand) as string;
      return { ...r, fields };
    }),
    userAttributes: order(d.userAttributes),
  };
}

// --- properties -------------------------------------------------------------

describe('planner properties', () => {
  it('a live state equal to the bundle yields an empty plan', () => {
    fc.assert(
      fc.property(bundleArb, ({ desired, ctx, extraMeta, seed }) => {
        const p = plan(desired, simulateApplied(desired, ctx, extraMeta, seed), ctx);
        expect(p.changes.filter((c) => c.actions[0] !== 'noop').map((c) => [c.address, c.changes])).toEqual([]);
        expect(p.summary.noop).toBe(desired.workbooks.length + desired.reports.length + desired.userAttributes.length);
        expect(p.summary.unmanaged).toEqual({ workbooks: 1, reports: 1, userAttributes: 0 });
      }),
      { numRuns: runs(150) },
    );
  });

  it('key order and jsonQuery formatting in the bundle never yield a change', () => {
    fc.assert(
      fc.property(bundleArb, ({ desired, ctx, extraMeta, seed }) => {
        const l = simulateApplied(desired, ctx, extraMeta, seed);
        const p = plan(shuffleDesired(desired, seed), l, ctx);
        expect(p.changes.every((c) => c.requests.length === 0)).toBe(true);
      }),
      { numRuns: runs(150) },
    );
  });

  it('is deterministic: same inputs, and inputs in another order, give deep-equal plans', () => {
    fc.assert(
      fc.property(
        bundleArb,
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        ({ desired, ctx, extraMeta, seed }, drop) => {
          // A live state that differs: some resources missing, some renamed.
          const applied = simulateApplied(desired, ctx, extraMeta, seed);
          const l: LiveState = {
            workbooks: applied.workbooks.filter((_, i) => !drop[i % 20]),
            reports: applied.reports
              .filter((_, i) => !drop[(i + 7) % 20])
              .map((r, i) => (drop[(i + 3) % 20] ? { ...r, name: `${r.name}!` } : r)),
            userAttributes: applied.userAttributes,
          };
          const a = plan(desired, l, ctx);
          expect(plan(desired, l, ctx)).toEqual(a);
          const reversed: LiveState = {
            workbooks: [...l.workbooks].reverse(),
            reports: [...l.reports].reverse(),
            userAttributes: [...l.userAttributes].reverse(),
          };
          expect(
            JSON.stringify(
              plan(shuffleDesired(desired, seed), reversed, ctx).changes.map((c) => [
                c.address,
                c.actions,
                c.requests.map((r) => r.id),
              ]),
            ),
          ).toBe(JSON.stringify(a.changes.map((c) => [c.address, c.actions, c.requests.map((r) => r.id)])));
        },
      ),
      { numRuns: runs(150) },
    );
  });
});
