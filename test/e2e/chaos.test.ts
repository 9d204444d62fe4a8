// Chaos: for several seeds, a random mixture of every emulator fault
// (409 upsert_branch_changed, 429 with a small Retry-After, 500, 502, 503,
// 504, reset before and after the write commits, an answer cut in half after
// it commits) at a 20% total rate on
// writes, while the built CLI applies a bundle of ~30 resources (workbooks
// with dashboards charting their reports, reports, user attributes) over a
// deployment that already holds an older version of part of it. Each run
// either exits 0 and has converged, or exits 4 with an honest account (every
// planned request applied, failed or skipped exactly once; skips only behind
// a failure) and converges on a re-run without faults. Converged means: plan
// is empty, one report per publicId, one workbook per slug, one user
// attribute per name, and every managed field equals the bundle (no lost
// update).
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import {
  createEmulator,
  FAULT_KINDS,
  type Emulator,
  type FaultSpec,
  type RequestLogEntry,
} from '../../src/emulator/index.js';
import type { ReportRec, UserAttributeRec, WorkbookRec } from '../../src/emulator/types.js';
import { cleanupTemp, emulatorEnv, runCli, target, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

// CI runs four seeds, picked from a soak: there two converged in one run and
// two exited 4 and converged on the re-run, and between them every fault kind
// was injected (the order of concurrent writes varies, so the faults each
// run meets may too). WSC_CHAOS_SEEDS=FROM-TO (or a comma list) runs others,
// for a longer soak on a developer machine.
const SEEDS = chaosSeeds(process.env['WSC_CHAOS_SEEDS']) ?? [635, 697, 786, 799];

function chaosSeeds(spec: string | undefined): number[] | undefined {
  if (!spec) return undefined;
  const range = /^(\d+)-(\d+)$/.exec(spec);
  const seeds = range
    ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i)
    : spec.split(',').map(Number);
  if (seeds.length === 0 || seeds.some((n) => !Number.isSafeInteger(n)))
    throw new Error(`WSC_CHAOS_SEEDS: expected FROM-TO or a comma list of integers, got ${JSON.stringify(spec)}`);
  return seeds;
}
const TOTAL_RATE = 0.2;

// ---------------------------------------------------------------------------
// The bundle, as data (to write it and to check the deployment against it).

interface RepSpec {
  publicId: string;
  name: string;
  title: string;
  sqlQuery: string;
  workbook?: string;
}
interface WbSpec {
  slug: string;
  name: string;
  title: string;
  reports: string[];
  publish: boolean;
}
interface UaSpec {
  name: string;
  displayName: string;
}
interface Spec {
  workbooks: WbSpec[];
  reports: RepSpec[];
  userAttributes: UaSpec[];
}

const pid = (w: string, i: number) => `cx${w}${String(i).padStart(9, '0')}`;

function spec(version: 1 | 2): Spec {
  const slugs = version === 1 ? ['alpha', 'beta'] : ['alpha', 'beta', 'gamma'];
  const reports: RepSpec[] = [];
  const workbooks: WbSpec[] = [];
  for (const slug of slugs) {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const publicId = pid(slug[0]!, i);
      ids.push(publicId);
      reports.push({
        publicId,
        name: `${slug} ${i}`,
        title: `${slug} ${i} v${version}`,
        sqlQuery: `select ${i} -- v${version}`,
        workbook: slug,
      });
    }
    workbooks.push({
      slug,
      name: `${slug} v${version}`,
      title: `${slug} dashboard v${version}`,
      reports: version === 2 ? [...ids].reverse() : ids,
      publish: version === 2 && slug === 'alpha',
    });
  }
  for (let i = 0; i < (version === 1 ? 2 : 4); i++) {
    reports.push({
      publicId: pid('z', i),
      name: `loose ${i}`,
      title: `loose ${i} v${version}`,
      sqlQuery: `select 'loose ${i}' -- v${version}`,
    });
  }
  const userAttributes = [{ name: 'chaos_region', displayName: `Region v${version}` }];
  if (version === 2) userAttributes.push({ name: 'chaos_team', displayName: 'Team v2' });
  return { workbooks, reports, userAttributes };
}

function files(s: Spec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const w of s.workbooks) {
    const widgets = w.reports
      .map(
        (r, j) =>
          `      - id: chart-${j}\n        type: CHART\n        position: { x: ${(j % 2) * 6}, y: ${Math.floor(j / 2) * 4}, w: 6, h: 4 }\n        config: { reportId: { $report: ${r} } }\n`,
      )
      .join('');
    out[`workbooks/${w.slug}.yaml`] =
      `kind: Workbook\nslug: ${w.slug}\nname: ${w.name}\npublish: ${w.publish}\nmeta:\n  owner: chaos\n  dashboardDraft:\n    title: ${w.title}\n    widgets:\n${widgets}`;
  }
  for (const r of s.reports) {
    out[`reports/${r.publicId}.yaml`] =
      `kind: Report\npublicId: ${r.publicId}\nname: ${r.name}\ntitle: ${r.title}\nsqlQuery: ${JSON.stringify(r.sqlQuery)}\n` +
      (r.workbook ? `workbookId: { $workbook: ${r.workbook} }\n` : '');
  }
  for (const u of s.userAttributes)
    out[`user-attributes/${u.name}.yaml`] =
      `kind: UserAttribute\nname: ${u.name}\ntype: string\ndisplayName: ${u.displayName}\n`;
  return out;
}

// ---------------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every fault kind with a random share of the 20% total, on writes only. */
function faultMix(seed: number): FaultSpec {
  const rnd = mulberry32(seed);
  const weights = FAULT_KINDS.map(() => 0.2 + rnd());
  const sum = weights.reduce((a, b) => a + b, 0);
  const rates = Object.fromEntries(FAULT_KINDS.map((k, i) => [k, (weights[i]! / sum) * TOTAL_RATE]));
  return { rates, methods: ['POST', 'PUT'], retryAfter: seed % 2 };
}

/** Differences between the deployment and the bundle; empty = converged. Reports in `others` are not the bundle's. */
function divergence(emu: Emulator, s: Spec, others: ReadonlySet<string> = new Set()): string[] {
  const snap = emu.snapshot();
  const reps = (snap.reports ?? []).filter((r) => r.deploymentId === 1 && !others.has(r.publicId ?? '')) as ReportRec[];
  const wbs = (snap.workbooks ?? []).filter((w) => w.deploymentId === 1) as WorkbookRec[];
  const uas = (snap.userAttributes ?? []) as UserAttributeRec[];
  const out: string[] = [];
  const count = <T>(xs: T[], key: (x: T) => string) =>
    xs.reduce((m, x) => m.set(key(x), (m.get(key(x)) ?? 0) + 1), new Map<string, number>());
  for (const [k, n] of count(reps, (r) => r.publicId ?? `(none: report ${r.id})`))
    if (n > 1) out.push(`${n} reports with publicId ${k}`);
  for (const [k, n] of count(wbs, (w) => w.slug ?? '')) if (n > 1) out.push(`${n} workbooks with slug ${k}`);
  for (const [k, n] of count(uas, (u) => u.name)) if (n > 1) out.push(`${n} user attributes named ${k}`);
  if (reps.length !== s.reports.length) out.push(`${reps.length} reports, expected ${s.reports.length}`);
  if (wbs.length !== s.workbooks.length) out.push(`${wbs.length} workbooks, expected ${s.workbooks.length}`);

  const wbBySlug = new Map(wbs.map((w) => [w.slug, w]));
  const repByPid = new Map(reps.map((r) => [r.publicId, r]));
  for (const r of s.reports) {
    const live = repByPid.get(r.publicId);
    if (!live) {
      out.push(`report ${r.publicId} missing`);
      continue;
    }
    for (const f of ['name', 'title', 'sqlQuery'] as const)
      if (live[f] !== r[f])
        out.push(`report ${r.publicId} ${f}: ${JSON.stringify(live[f])} != ${JSON.stringify(r[f])}`);
    const wbId = r.workbook ? wbBySlug.get(r.workbook)?.id : undefined;
    if ((live.workbookId ?? undefined) !== wbId)
      out.push(`report ${r.publicId} workbookId ${live.workbookId} != ${wbId}`);
  }
  for (const w of s.workbooks) {
    const live = wbBySlug.get(w.slug);
    if (!live) {
      out.push(`workbook ${w.slug} missing`);
      continue;
    }
    if (live.name !== w.name) out.push(`workbook ${w.slug} name ${live.name} != ${w.name}`);
    if (live.meta['owner'] !== 'chaos') out.push(`workbook ${w.slug} meta.owner lost`);
    const draft = live.meta['dashboardDraft'] as
      { title?: string; widgets?: { id: string; config?: { reportId?: number } }[] } | undefined;
    if (draft?.title !== w.title) out.push(`workbook ${w.slug} draft title ${draft?.title} != ${w.title}`);
    const want = w.reports.map((p, j) => `chart-${j}:${repByPid.get(p)?.id}`);
    const got = (draft?.widgets ?? []).map((x) => `${x.id}:${x.config?.reportId}`);
    if (JSON.stringify(got) !== JSON.stringify(want))
      out.push(`workbook ${w.slug} widgets ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    if (w.publish) {
      const pub = live.dashboardPublished as { title?: string; widgets?: { config?: { reportId?: number } }[] } | null;
      const pubIds = (pub?.widgets ?? []).map((x) => x.config?.reportId);
      if (
        pub?.title !== w.title ||
        JSON.stringify(pubIds) !== JSON.stringify(w.reports.map((p) => repByPid.get(p)?.id))
      ) {
        out.push(`workbook ${w.slug} published dashboard is not the draft`);
      }
    }
  }
  for (const u of s.userAttributes) {
    const live = uas.find((x) => x.name === u.name);
    if (!live) out.push(`user attribute ${u.name} missing`);
    else if (live.displayName !== u.displayName)
      out.push(`user attribute ${u.name} displayName ${live.displayName} != ${u.displayName}`);
  }
  return out;
}

interface SeedRun {
  seed: number;
  emu: Emulator;
  /** The test's own expect: the seeds run concurrently. */
  expect: TestContext['expect'];
  env: typeof emulatorEnv;
  target: string[];
}

/** One concurrent test per seed, each against an emulator of its own (seeded with it), closed whatever happens. */
function eachSeed(seeds: number[], name: string, body: (run: SeedRun) => Promise<void>): void {
  it.concurrent.for(seeds)(name, { timeout: 58_000 }, async (seed: number, { expect }: TestContext) => {
    const emu = await createEmulator({ port: 0, randomSeed: seed });
    try {
      await body({ seed, emu, expect, env: emulatorEnv, target: target(emu) });
    } finally {
      await emu.close();
    }
  });
}

interface PlanJson {
  changes: { address: string; requests: { id: string; dependsOn: string[] }[] }[];
}
interface ApplyJson {
  status: string;
  applied: { request: string; address: string }[];
  failed: { request: string; address: string; message: string }[];
  skipped: { request: string; address: string; reason: string }[];
}

describe.concurrent('chaos: random faults at 20% on writes, every kind, several seeds', () => {
  eachSeed(
    SEEDS,
    'seed %i: converges with no duplicate and no lost update, or exits 4 honestly and converges on re-run',
    async ({ seed, emu, expect, env, target }) => {
      const dir = writeFiles(files(spec(1)));
      const v1 = await runCli(['apply', '--dir', dir, ...target, '--auto-approve'], { env });
      expect(v1.code, v1.stderr).toBe(0);

      // Version 2 over version 1: updates of every old resource, new ones, a publish.
      writeFiles(files(spec(2)), dir);
      const want = spec(2);
      const planned = await runCli(['plan', '--dir', dir, ...target, '--output', 'json'], { env });
      expect(planned.code, planned.stderr).toBe(0);
      const plan = JSON.parse(planned.stdout) as PlanJson;
      const requests = plan.changes.flatMap((c) => c.requests);
      expect(requests.length).toBeGreaterThan(30);

      emu.setFaults(faultMix(seed));
      emu.clearLog();
      const run = await runCli(['apply', '--dir', dir, ...target, '--auto-approve', '--output', 'json'], {
        env,
        timeoutMs: 50_000,
      });
      const injected = emu.log.filter((e) => e.fault).map((e) => e.fault!);
      const context = `seed ${seed}, exit ${run.code}, faults injected: ${injected.join(' ')}\nstderr:\n${run.stderr.slice(-3000)}\nstdout:\n${run.stdout.slice(0, 3000)}`;
      expect([0, 4], context).toContain(run.code);
      expect(injected.length, context).toBeGreaterThan(0);
      const result = JSON.parse(run.stdout) as ApplyJson;
      console.log(
        `chaos seed ${seed}: exit ${run.code}; ${injected.length} faults (${[...new Set(injected)].sort().join(', ')}); ${result.applied.length} applied, ${result.failed.length} failed, ${result.skipped.length} skipped`,
      );

      // Honest: each planned request is applied, failed or skipped, exactly once.
      const seen = [...result.applied, ...result.failed, ...result.skipped].map((x) => x.request).sort();
      expect(seen, context).toEqual(requests.map((r) => r.id).sort());
      if (run.code === 0) {
        expect(result.failed, context).toEqual([]);
        expect(result.skipped, context).toEqual([]);
      } else {
        expect(result.failed.length, context).toBeGreaterThan(0);
        for (const f of result.failed) expect(f.message.length).toBeGreaterThan(0);
        // A skip is always behind a failed (or itself skipped) request it depends on.
        const notDone = new Set([...result.failed, ...result.skipped].map((x) => x.request));
        const byId = new Map(requests.map((r) => [r.id, r]));
        for (const s of result.skipped)
          expect(
            byId.get(s.request)!.dependsOn.some((d) => notDone.has(d)),
            `${s.request}: ${s.reason}`,
          ).toBe(true);
        // What it says it applied is there.
        const snap = emu.snapshot();
        for (const a of result.applied) {
          const [kind, key] = a.address.split('/') as [string, string];
          const present =
            kind === 'report'
              ? snap.reports?.some((r) => r.publicId === key)
              : kind === 'workbook'
                ? snap.workbooks?.some((w) => w.slug === key)
                : snap.userAttributes?.some((u) => u.name === key);
          expect(present, `applied ${a.request} but ${a.address} is not there`).toBe(true);
        }
        // Re-run without faults: converges.
        emu.setFaults(undefined);
        const again = await runCli(['apply', '--dir', dir, ...target, '--auto-approve'], { env });
        expect(again.code, `re-run: ${again.stderr}\n${again.stdout}`).toBe(0);
      }

      emu.setFaults(undefined);
      expect(divergence(emu, want), context).toEqual([]);
      const after = await runCli(['plan', '--dir', dir, ...target, '--detailed-exitcode'], { env });
      expect(after.code, `plan after: ${after.stdout}\n${after.stderr}`).toBe(0);
    },
  );

  it('the mixtures cover every fault kind at a 20% total rate', () => {
    for (const seed of SEEDS) {
      const rates = faultMix(seed).rates!;
      expect(Object.keys(rates).sort()).toEqual([...FAULT_KINDS].sort());
      expect(Object.values(rates).reduce((a, b) => a + (b ?? 0), 0)).toBeCloseTo(TOTAL_RATE, 10);
      expect(Math.min(...Object.values(rates).map((r) => r ?? 0))).toBeGreaterThan(0);
    }
  });
});

// Prune under the same faults: the bundle (named) shrinks from version 2 to
// version 1 (a workbook and its 8 reports, 2 loose reports gone) while the
// rest is updated; DELETEs meet faults too. Beside it live a report of
// another bundle and one made in the UI. Converged means: the deployment is
// version 1 exactly, both bystanders are there, and each gone resource was
// deleted exactly once (a repeat after a lost answer meets 404, which is no
// second delete) and nothing else was deleted.
describe.concurrent('chaos: prune under random faults at 20%', () => {
  const PRUNE_SEEDS = chaosSeeds(process.env['WSC_CHAOS_SEEDS']) ?? [635, 786];
  eachSeed(
    PRUNE_SEEDS,
    'seed %i: deletes exactly what the bundle dropped, once each, after the updates',
    async ({ seed, emu, expect, env, target }) => {
      const wscYaml = 'bundle: chaos\nenvironments:\n  test:\n    deploymentId: 1\n';
      const v2 = writeFiles({ ...files(spec(2)), 'wsc.yaml': wscYaml });
      expect((await runCli(['apply', '--dir', v2, ...target, '--auto-approve'], { env })).code).toBe(0);
      const other = writeFiles({
        'wsc.yaml': 'bundle: other\nenvironments:\n  test:\n    deploymentId: 1\n',
        'r.yaml': 'kind: Report\npublicId: cxother00001\nname: other\n',
      });
      expect((await runCli(['apply', '--dir', other, ...target, '--auto-approve'], { env })).code).toBe(0);
      const ui = await fetch(`${emu.url}/api/v1/deployments/1/reports`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'made in the UI', publicId: 'cxuimade0001' }),
      });
      expect(ui.status).toBe(200);

      const want = spec(1);
      const kept = new Set(want.reports.map((r) => r.publicId));
      const before = emu.snapshot();
      const doomed = new Set([
        ...(before.reports ?? [])
          .filter(
            (r) =>
              (r.publicId ?? '').startsWith('cx') &&
              !kept.has(r.publicId ?? '') &&
              r.publicId !== 'cxother00001' &&
              r.publicId !== 'cxuimade0001',
          )
          .map((r) => `/api/v1/deployments/1/reports/${r.id}`),
        ...(before.workbooks ?? [])
          .filter((w) => w.slug === 'gamma')
          .map((w) => `/api/v1/deployments/1/workbooks/${w.id}`),
      ]);
      expect(doomed.size).toBe(11);

      const v1 = writeFiles({ ...files(want), 'wsc.yaml': wscYaml });
      emu.setFaults({ ...faultMix(seed), methods: ['POST', 'PUT', 'DELETE'] });
      emu.clearLog();
      const run = await runCli(['apply', '--dir', v1, ...target, '--auto-approve', '--prune'], {
        env,
        timeoutMs: 50_000,
      });
      const injected = emu.log.filter((e) => e.fault).map((e) => e.fault!);
      const context = `seed ${seed}, exit ${run.code}, faults: ${injected.join(' ')}\nstderr:\n${run.stderr.slice(-3000)}\nstdout:\n${run.stdout.slice(0, 3000)}`;
      expect([0, 4], context).toContain(run.code);
      const runs = [[...emu.log]];
      emu.setFaults(undefined);
      if (run.code === 4) {
        emu.clearLog();
        const again = await runCli(['apply', '--dir', v1, ...target, '--auto-approve', '--prune'], { env });
        expect(again.code, `re-run: ${again.stderr}\n${again.stdout}`).toBe(0);
        runs.push([...emu.log]);
      }
      const log = runs.flat();
      console.log(
        `chaos prune seed ${seed}: exit ${run.code}; ${injected.length} faults (${[...new Set(injected)].sort().join(', ')})`,
      );

      const committed = (e: RequestLogEntry) =>
        (e.status === 200 && e.fault === undefined) || e.fault === 'reset-after' || e.fault === 'garbled-after';
      const deleted = log
        .filter((e) => e.method === 'DELETE' && committed(e))
        .map((e) => e.path)
        .sort();
      expect(deleted, context).toEqual([...doomed].sort());
      // In each run, no create or update starts after the first delete.
      for (const r of runs) {
        const firstDelete = r.findIndex((e) => e.method === 'DELETE');
        if (firstDelete >= 0)
          expect(
            r.slice(firstDelete).filter((e) => e.method === 'PUT' || e.method === 'POST'),
            context,
          ).toEqual([]);
      }
      expect(divergence(emu, want, new Set(['cxother00001', 'cxuimade0001'])), context).toEqual([]);
      const snap = emu.snapshot();
      expect(snap.reports?.some((r) => r.publicId === 'cxother00001')).toBe(true);
      expect(snap.reports?.some((r) => r.publicId === 'cxuimade0001')).toBe(true);
      const after = await runCli(['plan', '--dir', v1, ...target, '--prune', '--detailed-exitcode'], { env });
      expect(after.code, `plan after: ${after.stdout}\n${after.stderr}`).toBe(0);
    },
  );
});
