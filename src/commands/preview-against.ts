// `wsc preview --against REF`: the baseline a preview marks its change
// against. `git:<ref>` is the bundle as committed at <ref>, read with
// `git ls-tree` and `git cat-file` (no checkout; the working tree and index
// are left alone) into a temporary directory and loaded from there.
// `env:<name>` is that environment's live deployment, read once through the
// live-read path plan uses (list requests only; nothing is written), then
// compared with each reload of the bundle by the planner, offline.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { connect } from '../api/connect.js';
import type { JsonValue } from '../core/json.js';
import { isRef, type DesiredState, type LiveState, type OwnershipContext } from '../core/model.js';
import { liveDraft } from '../core/live-draft.js';
import type { DriftEntry } from '../core/plan-model.js';
import type { ResolvedEnvironment } from '../config/types.js';
import { diffDashboard, type ReportNames } from '../core/plan/dashboard-diff.js';
import { UsageError } from '../errors.js';
import { makeDirectory } from '../make-dir.js';
import { overFileLimit } from '../yaml/read.js';
import type { Baseline } from '../preview/changes.js';
import { reportAt, type ReportLookup } from '../preview/report-changes.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { planOf, readLive, sayReading } from './steps.js';

const run = promisify(execFile);

/** Each workbook's baseline by slug, for a bundle as loaded now. */
type Baselines = (desired: DesiredState) => Map<string, Baseline>;

/** A baseline: its dashboards, and its reports (what each chart was drawn from there). */
export interface Against {
  baselines: Baselines;
  reports: ReportLookup;
}

export type AgainstRef = { kind: 'git'; ref: string } | { kind: 'env'; name: string };

export function parseAgainst(raw: string): AgainstRef {
  const m = /^(git|env):(.+)$/.exec(raw);
  // A ref that starts with `-` would read as an option of git.
  if (!m || m[2]!.startsWith('-')) {
    throw new UsageError(`--against takes git:<ref> or env:<environment>, got "${raw}".`, {
      code: 'preview_against',
      hint: 'For example --against git:main (the bundle as committed there) or --against env:production (live).',
    });
  }
  return m[1] === 'git' ? { kind: 'git', ref: m[2]! } : { kind: 'env', name: m[2]! };
}

function draftOf(w: DesiredState['workbooks'][number]): JsonValue | undefined {
  return w.fields.meta?.['dashboardDraft'];
}

async function git(dir: string, args: string[]): Promise<string> {
  try {
    return (await run('git', ['-C', dir, ...args], { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' })).stdout;
  } catch (e) {
    const err = e as { stderr?: string; code?: string | number };
    const why = err.code === 'ENOENT' ? 'git is not installed' : (err.stderr ?? String(e)).trim().split('\n')[0];
    throw new UsageError(`--against git:… cannot read the repository: ${why}.`, {
      code: 'preview_git',
      hint: 'Run wsc preview inside a git clone holding the bundle, and name a commit, branch or tag it has.',
    });
  }
}

/** The blobs' contents by object id, read by one `git cat-file --batch`. */
function catFiles(dir: string, ids: string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', dir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', () => {
      const all = Buffer.concat(chunks);
      const out = new Map<string, Buffer>();
      let at = 0;
      while (at < all.length) {
        const nl = all.indexOf(10, at);
        const [id, , size] = all.subarray(at, nl).toString('utf8').split(' ');
        const n = Number(size);
        out.set(id!, all.subarray(nl + 1, nl + 1 + n));
        at = nl + 1 + n + 1;
      }
      resolve(out);
    });
    child.stdin.end(`${ids.join('\n')}\n`);
  });
}

/** A bundle file at a ref that is not read: over the size of a bundle file (its size from `ls-tree -l`). */
export interface SkippedBlob {
  path: string;
  why: string;
}

/**
 * The bundle directory `dir` as committed at `ref`, written into a new temporary directory (the
 * caller removes it): its YAML files only, which is all a bundle is. A blob over the limit of a
 * bundle file is never read (`skipped`), as the same file in the working tree would not be.
 */
export async function bundleAtRef(dir: string, ref: string): Promise<{ copy: string; skipped: SkippedBlob[] }> {
  const top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  const prefix = (await git(dir, ['rev-parse', '--show-prefix'])).trim();
  const commit = (await git(dir, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`])).trim();
  const listing = await git(top, ['ls-tree', '-r', '-l', '-z', commit, '--', prefix === '' ? '.' : prefix]);
  const files = listing
    .split('\0')
    .filter((l) => l !== '')
    .map((l) => {
      const [meta, path] = [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)];
      const [mode, type, id, size] = meta.split(/ +/);
      return { mode: mode!, type: type!, id: id!, size: Number(size), path: path.slice(prefix.length) };
    })
    .filter((f) => f.type === 'blob' && f.mode !== '120000' && /\.ya?ml$/i.test(f.path))
    .filter((f) => !f.path.split('/').some((p) => p === '..' || p.startsWith('.wsc')));
  const skipped: SkippedBlob[] = [];
  const read = files.filter((f) => {
    const why = Number.isFinite(f.size) ? overFileLimit(f.size) : 'its size is unknown';
    if (why !== undefined) skipped.push({ path: f.path, why });
    return why === undefined;
  });
  const blobs = await catFiles(
    top,
    read.map((f) => f.id),
  );
  const out = await mkdtemp(join(tmpdir(), 'wsc-against-'));
  for (const f of read) {
    const target = join(out, f.path);
    await makeDirectory(dirname(target));
    await writeFile(target, blobs.get(f.id) ?? Buffer.alloc(0));
  }
  return { copy: out, skipped };
}

/** Report titles of both bundles (now first), for the drafts' diffs; no live ids in a git baseline. */
function names(now: DesiredState, then: DesiredState): ReportNames {
  const titles = new Map<string, string>();
  for (const r of [...then.reports, ...now.reports]) {
    const t = r.fields['title'] ?? r.fields['name'];
    if (typeof t === 'string' && t !== '') titles.set(r.publicId, t);
  }
  return { byId: () => undefined, title: (pid) => titles.get(pid) };
}

export function gitBaselines(then: DesiredState): Against {
  const before = new Map(then.workbooks.map((w) => [w.slug, draftOf(w)]));
  const reports = new Map(then.reports.map((r) => [r.publicId, reportAt(r.fields, r.publicId)]));
  const lookup: ReportLookup = (ref) => (isRef(ref) && '$report' in ref ? reports.get(ref.$report) : undefined);
  return {
    reports: lookup,
    baselines: (now) => {
      const n = names(now, then);
      return new Map(
        now.workbooks.map((w) => {
          const b = before.has(w.slug) ? before.get(w.slug) : undefined;
          const exists = before.has(w.slug);
          return [w.slug, { before: exists ? (b ?? {}) : undefined, diff: diffDashboard(b, draftOf(w), n) }];
        }),
      );
    },
  };
}

/** The live reports by id and by publicId, as the baseline's charts read them. */
function liveReports(live: LiveState): ReportLookup {
  const byId = new Map(live.reports.map((r) => [r.id, r]));
  const byPublicId = new Map(live.reports.flatMap((r) => (r.publicId ? [[r.publicId, r] as const] : [])));
  return (ref) => {
    const r =
      typeof ref === 'number'
        ? byId.get(ref)
        : isRef(ref) && '$report' in ref
          ? byPublicId.get(ref.$report)
          : undefined;
    if (r === undefined) return undefined;
    const fields = {
      jsonQuery: r.jsonQuery ?? undefined,
      sqlQuery: r.sqlQuery ?? undefined,
      meta: r.meta ?? undefined,
    };
    return reportAt(fields as Record<string, JsonValue | undefined>, r.publicId ?? undefined);
  };
}

/** The live deployment of environment `name`, read once; each reload of the bundle planned against it. */
export async function envBaselines(
  name: string,
  dir: string,
  desired: DesiredState,
  ctx: CommandContext,
): Promise<Against> {
  const { environment: env, client } = await configure({ env: name }, ctx, { dir });
  // preview has no connection flags: their defaults.
  const conn = await connect(env, connectOptions({ verbose: false, concurrency: 8, maxRetries: 6 }, client, ctx));
  let live: LiveState;
  try {
    sayReading(env, ctx);
    live = await readLive(conn, desired);
  } finally {
    await conn.close();
  }
  // Planned as `wsc plan` plans it (ownership and the environment's uiEdits), so that the picture agrees with it.
  const ownership = env.bundle !== undefined ? ownershipFor(env.bundle, env) : undefined;
  return {
    reports: liveReports(live),
    baselines: (now) => {
      const p = planOf(now, live, env, ownership !== undefined ? { ownership } : {});
      const out = new Map<string, Baseline>();
      for (const w of now.workbooks) out.set(w.slug, { before: draftOf(w) ?? {}, diff: undefined });
      for (const c of p.changes) {
        if (c.kind !== 'workbook') continue;
        const slug = c.address.slice('workbook/'.length);
        if (c.actions.includes('create')) out.set(slug, { before: undefined, diff: undefined });
        const kept = keptParts(c.drift);
        const f = c.changes.find((x) => x.path === 'meta.dashboardDraft');
        const liveDraftOf = () => liveDraft(live.workbooks.find((w) => w.id === c.liveId)) ?? {};
        if (f !== undefined && !c.actions.includes('create'))
          out.set(slug, { before: f.before ?? {}, diff: f.dashboard, ...(kept.length > 0 ? { kept } : {}) });
        else if (kept.length > 0) out.set(slug, { before: liveDraftOf(), diff: undefined, kept });
      }
      return out;
    },
  };
}

function ownershipFor(bundle: string, env: ResolvedEnvironment): OwnershipContext {
  return { bundle, prune: false, ...(env.uiEdits !== undefined ? { uiEdits: env.uiEdits } : {}) };
}

/** The draft parts a workbook's plan keeps as edited outside wsc (`widget w1`, `title`). */
function keptParts(drift: readonly DriftEntry[] | undefined): string[] {
  const prefix = 'meta.dashboardDraft ';
  return (drift ?? [])
    .filter((d) => d.apply === 'keep' && d.field.startsWith(prefix))
    .map((d) => d.field.slice(prefix.length));
}

/** Removes a directory made by bundleAtRef. */
export async function removeBundleCopy(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
