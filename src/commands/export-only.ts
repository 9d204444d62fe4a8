// `wsc export --only ADDR ... --into DIR` (or `--out DIR`): take the deployment's values of the
// named resources into their existing files of the bundle at DIR (a UI edit
// into Git). Only the managed fields that differ are rewritten, in place in
// the YAML document, so comments, key order and every other file stay as
// they are. Never writes to the API.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { ExportOptions } from './options.js';
import { normalizeSlug, type Report, type Workbook } from '../domain/wire.js';
import { EXIT, UsageError, WscError } from '../errors.js';
import type { CommandContext } from './context.js';
import { connectOptions } from './connection.js';
import { visible } from '../visible.js';
import { replaceFile } from '../bundle/write-files.js';
import type { IntoEdit } from '../core/export/into.js';
import type { Connection } from '../api/connect.js';

const ADDRESS_RE = /^(report|workbook)\/.+$/;

/**
 * The environment and the bundle at `root` an export updates in place. A
 * bundle that does not load is not updated (exit 3, nothing read).
 */
export async function environmentAndBundle(opts: ExportOptions, ctx: CommandContext, root: string) {
  const { resolveEnvironment } = await import('../config/environment.js');
  const { loadValidBundle } = await import('../bundle/load.js');
  const env = await resolveEnvironment({
    // Whose wsc.yaml names the environment: --dir when given; else, into a bundle (--into), that bundle's own.
    dir: resolve(ctx.cwd, opts.dirGiven !== true && opts.into !== undefined ? opts.into : opts.dir),
    flags: { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment },
    env: ctx.env,
  });
  const { desired } = await loadValidBundle(root, {
    vars: env.vars,
    env: ctx.env,
    mayHoldUnknownRefs: true,
    tokenVariables: env.tokenVariables,
  });
  return { env, desired };
}
type EnvAndBundle = Awaited<ReturnType<typeof environmentAndBundle>>;

/** The deployment, read once, and the plan of the bundle against it. */
export async function liveAndPlan(conn: Connection, { env, desired }: EnvAndBundle, targets: string[]) {
  const { hintsFor, readLiveState } = await import('../api/live.js');
  const { plan } = await import('../core/plan.js');
  const hints = hintsFor(desired);
  const live = await readLiveState(conn.client, conn.deploymentId, hints);
  const p = plan(desired, live, {
    environment: env.name,
    deploymentId: env.deploymentId,
    publicIds: env.publicIds,
    targets,
    fingerprints: false,
  });
  return { hints, live, changes: p.changes };
}

export async function runExportOnly(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  const only = [...new Set(opts.only ?? [])];
  for (const a of only) {
    if (!ADDRESS_RE.test(a)) {
      throw new UsageError(`--only ${a}: expected report/<publicId> or workbook/<slug>.`, { code: 'bad_only_address' });
    }
  }
  const { connect } = await import('../api/connect.js');
  const { reportDoc, workbookDoc } = await import('../core/export/docs.js');
  const { editsFor } = await import('../core/export/only.js');
  const { livePublicId } = await import('../core/publicid.js');

  const root = resolve(ctx.cwd, (opts.into ?? opts.out)!);
  const { env, desired } = await environmentAndBundle(opts, ctx, root);
  const conn = await connect(env, connectOptions(opts, ctx));
  try {
    const { live, changes } = await liveAndPlan(conn, { env, desired }, only);
    const bundleIdOf = new Map(
      desired.reports.map((r) => [livePublicId(r.publicId, env.publicIds, env.deploymentId), r.publicId]),
    );
    const slugOf = new Map<number, string>();
    for (const w of live.workbooks) if (typeof w.slug === 'string') slugOf.set(w.id, normalizeSlug(w.slug));
    const refs = {
      workbookSlug: (id: number) => slugOf.get(id),
      reportPublicId: (id: number) => {
        const r = live.reports.find((x) => x.id === id);
        return r === undefined ? undefined : (bundleIdOf.get(r.publicId) ?? r.publicId);
      },
    };
    const lines: string[] = [];
    for (const address of only) {
      const change = changes.find((c) => c.address === address)!;
      if (change.liveId === undefined) {
        const where = `deployment ${env.deploymentId}`;
        const why = `--only ${address}: it is not in ${where}, so there is nothing to take from it.`;
        throw new WscError('only_not_live', why, EXIT.failure, {
          hint: 'Apply the bundle to create it, or drop it from --only.',
        });
      }
      const dr = desired.reports.find((r) => r.address === address);
      const dw = desired.workbooks.find((w) => w.address === address);
      const d = (dr ?? dw)!;
      const built = dr
        ? reportDoc(live.reports.find((r) => r.id === change.liveId) as Report, { publicId: dr.publicId }, refs)
        : workbookDoc(live.workbooks.find((w) => w.id === change.liveId) as Workbook, dw!.slug, refs);
      const edits = editsFor(change, built.doc);
      if (edits.length === 0) {
        lines.push(`${visible(address)}: ${visible(d.pos.file)} already matches the deployment.`);
        continue;
      }
      const match = dr ? { publicId: dr.publicId } : { slug: dw!.slug };
      editDocument(root, { address, file: d.pos.file, match, edits });
      const fields = edits.map((e) => e.path.join('.')).join(', ');
      lines.push(`${visible(address)}: took ${fields} from the deployment into ${visible(d.pos.file)}.`);
    }
    ctx.out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}

/**
 * Sets `edits` in the document of `file` (relative to `root`) whose identity
 * is `match`, in place: comments, key order and the other documents of the
 * file stay as they are.
 */
export function editDocument(root: string, { address, file, match, edits }: IntoEdit): void {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const abs = join(root, file);
  const docs = yaml.parseAllDocuments(readFileSync(abs, 'utf8'));
  const doc = docs.find((x) => {
    const v = x.toJS() as Record<string, unknown> | null;
    if (v === null || typeof v !== 'object') return false;
    if ('publicId' in match) return v['publicId'] === match.publicId;
    if ('name' in match) return v['kind'] === 'UserAttribute' && v['name'] === match.name;
    return typeof v['slug'] === 'string' && normalizeSlug(v['slug']) === match.slug;
  });
  if (doc === undefined) {
    throw new WscError('only_doc_missing', `${file}: the document of ${address} was not found again.`, EXIT.failure);
  }
  for (const e of edits) doc.setIn(e.path, e.value);
  replaceFile(abs, docs.map(String).join(''));
}
