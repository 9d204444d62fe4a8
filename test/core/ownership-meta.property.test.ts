// Property (issue 34): no sequence of outside edits to `meta` makes wsc
// delete or overwrite what it would not have without them. A bundle is
// applied (in memory, records as the executor writes them), the deployment is
// edited outside wsc (content), the bundle changes; then the same plan is
// made twice, once more after edits to `meta` alone (the record removed,
// damaged, another bundle's, forged with hashes wsc never wrote; other
// members added or changed). The second plan overwrites no field and deletes
// no resource the first one does not.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Report, Workbook } from '../../src/domain/wire.js';
import type { DesiredReport, DesiredWorkbook, LiveState } from '../../src/core/model.js';
import type { JsonValue } from '../../src/core/json.js';
import type { Plan, RecordSpec } from '../../src/core/plan-model.js';
import { withRecord } from '../../src/core/ownership.js';
import { plan } from '../../src/core/plan/index.js';
import { runs } from '../helpers/property.js';
import { ctx, desired, dReport, dWorkbook, live, lReport, lWorkbook } from './builders.js';

type Obj = { [k: string]: JsonValue };
const own = { bundle: 'team', prune: true, maxDeletes: 1000 };
const pidOf = (i: number) => `rep${String(i).padStart(9, '0')}`;

/** What apply would leave: each write of the plan applied to the live state, with its record. */
function applyInMemory(p: Plan, state: LiveState): LiveState {
  const reports = new Map(state.reports.map((r) => [r.id, structuredClone(r)]));
  const workbooks = new Map(state.workbooks.map((w) => [w.slug!, structuredClone(w)]));
  let next = 1000 + reports.size + workbooks.size;
  for (const rc of p.changes) {
    if (rc.actions[0] === 'blocked') continue;
    for (const r of rc.requests) {
      const op = r.operation;
      const rec = (body: Obj, spec: RecordSpec | undefined) => (spec ? (withRecord(body, spec) as Obj) : body);
      if (op.op === 'createReport') {
        const body = rec(op.body as Obj, op.record);
        reports.set(next, lReport(next, String(body['publicId']), body));
        next++;
      } else if (op.op === 'updateReport') {
        const cur = reports.get(op.reportId)!;
        reports.set(op.reportId, { ...cur, ...(rec(op.body, op.record) as Partial<Report>) });
      } else if (op.op === 'upsertWorkbook') {
        const body = rec(op.body as Obj, op.record);
        const cur = workbooks.get(op.slug) ?? lWorkbook(next++, op.slug);
        const meta = { ...(cur.meta as Obj), ...((body['meta'] as Obj | undefined) ?? {}) };
        workbooks.set(op.slug, { ...cur, ...(body as Partial<Workbook>), meta });
      } else if (op.op === 'deleteReport') {
        reports.delete(op.reportId);
      }
    }
  }
  return live({ reports: [...reports.values()], workbooks: [...workbooks.values()] });
}

/** Per address, the fields a plan would overwrite (a blocked resource and a record-only write: none). */
function overwrites(p: Plan): Set<string> {
  const out = new Set<string>();
  for (const rc of p.changes) {
    if (rc.actions[0] === 'blocked' || rc.actions[0] === 'record') continue;
    for (const c of rc.changes) out.add(`${rc.address} ${c.path}`);
    if (rc.actions.includes('delete')) out.add(`${rc.address} (delete)`);
  }
  return out;
}

const text = fc.constantFrom('a', 'b', 'c');
const reportArb = fc.record({ title: text, name: text, chart: fc.option(text, { nil: undefined }) });
const widgetX = fc.integer({ min: 0, max: 2 });

function bundle(reports: { title: string; name: string; chart: string | undefined }[], xs: number[], keep: boolean[]) {
  const rs: DesiredReport[] = [];
  reports.forEach((r, i) => {
    if (!keep[i]) return;
    const fields: DesiredReport['fields'] = { title: r.title, name: r.name };
    if (r.chart !== undefined) fields.meta = { chart: r.chart };
    rs.push(dReport(pidOf(i), fields));
  });
  const draft = {
    title: 'D',
    widgets: xs.map((x, i) => ({ id: `w${i}`, type: 'TEXT', position: { x, y: i, w: 1, h: 1 } })),
  };
  const wbs: DesiredWorkbook[] = [dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft: draft } })];
  return desired({ reports: rs, workbooks: wbs });
}

const metaEdit = fc.oneof(
  fc.constant({ kind: 'remove' as const }),
  fc.constantFrom<JsonValue>('x', { bundle: 5 }, [1, 2], null, {}).map((v) => ({ kind: 'set' as const, v })),
  fc.constant({ kind: 'set' as const, v: { bundle: 'other', hash: '0', fields: {} } }),
  fc
    .record({ h: fc.stringMatching(/^[0-9a-f]{16}$/), path: fc.constantFrom('title', 'name', 'meta.chart') })
    .map(({ h, path }) => ({ kind: 'set' as const, v: { bundle: 'team', hash: h, fields: { [path]: h } } })),
  fc.record({ hash: fc.stringMatching(/^[0-9a-f]{16}$/) }).map(({ hash }) => ({ kind: 'rehash' as const, hash })),
  text.map((v) => ({ kind: 'member' as const, v })),
);

function editMeta(meta: unknown, e: MetaEdit): Obj {
  const m: Obj = { ...((meta ?? {}) as Obj) };
  if (e.kind === 'remove') delete m['wsc'];
  else if (e.kind === 'set') m['wsc'] = e.v;
  else if (e.kind === 'rehash') m['wsc'] = { ...((m['wsc'] as Obj | undefined) ?? {}), hash: e.hash };
  else m['note'] = e.v;
  return m;
}
type MetaEdit =
  { kind: 'remove' } | { kind: 'set'; v: JsonValue } | { kind: 'rehash'; hash: string } | { kind: 'member'; v: string };

describe('outside edits to meta never widen what apply overwrites or deletes', () => {
  test('property: plan after meta edits ⊆ plan without them (fields overwritten, resources deleted)', () => {
    fc.assert(
      fc.property(
        fc.array(reportArb, { minLength: 1, maxLength: 4 }),
        fc.array(widgetX, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ title: fc.option(text, { nil: undefined }), x: fc.option(widgetX, { nil: undefined }) }), {
          minLength: 5,
          maxLength: 5,
        }),
        fc.array(reportArb, { minLength: 4, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.array(fc.option(metaEdit, { nil: undefined }), { minLength: 5, maxLength: 5 }),
        (reports0, xs0, outside, reports1, keep, metaEdits) => {
          const d0 = bundle(
            reports0,
            xs0,
            reports0.map(() => true),
          );
          const applied = applyInMemory(plan(d0, live({}), ctx({ ownership: own })), live({}));
          // outside wsc: content edits (a report's title, a widget moved)
          const edited = live({
            workbooks: applied.workbooks.map((w) => {
              const x = outside[4]?.x;
              if (x === undefined) return w;
              const meta = structuredClone(w.meta) as { dashboardDraft: { widgets: { position: { x: number } }[] } };
              meta.dashboardDraft.widgets[0]!.position.x = x;
              return { ...w, meta };
            }),
            reports: applied.reports.map((r, i) =>
              outside[i]?.title !== undefined ? { ...r, title: outside[i].title } : r,
            ),
          });
          // the bundle changes: some reports dropped (prune), values changed, widgets moved
          const d1 = bundle(
            reports0.map((r, i) => ({ ...r, ...reports1[i]! })),
            xs0.map((x, i) => (i === 0 ? x : (x + 1) % 3)),
            reports0.map((_, i) => keep[i] ?? true),
          );
          // outside wsc: edits to meta alone
          const tampered = live({
            workbooks: edited.workbooks.map((w) => (metaEdits[4] ? { ...w, meta: editMeta(w.meta, metaEdits[4]) } : w)),
            reports: edited.reports.map((r, i) => (metaEdits[i] ? { ...r, meta: editMeta(r.meta, metaEdits[i]) } : r)),
          });
          const without = overwrites(plan(d1, edited, ctx({ ownership: own })));
          const withEdits = overwrites(plan(d1, tampered, ctx({ ownership: own })));
          const wider = [...withEdits].filter((x) => !without.has(x));
          expect(wider).toEqual([]);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
