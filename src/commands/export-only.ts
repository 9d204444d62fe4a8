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
import { matchOf, type IntoEdit, type IntoSides } from '../core/export/into.js';
import { reportDoc, workbookDoc, type Doc } from '../core/export/docs.js';
import { mergeResource } from '../core/export/merge.js';
import type { DesiredState, LiveState } from '../core/model.js';
import type { ResourceChange } from '../core/plan-model.js';
import { liveRecord } from '../core/ownership.js';
import { livePublicId } from '../core/publicid.js';
import { checkTargetsIn } from '../core/plan/targets.js';
import { editInPlace } from '../bundle/edit-in-place.js';
import { connect } from '../api/connect.js';
import { hintsFor } from '../api/live.js';
import { mergeLines } from '../render/export-merge.js';
import { configure } from './configure.js';
import { planOf, readLive, validBundle } from './steps.js';

const ADDRESS_RE = /^(report|workbook)\/.+$/;

/**
 * The environment, the bundle at `root` an export updates in place, and a
 * connection: a bundle that does not load is not updated (exit 3, nothing
 * read). `only`: the addresses of --only, checked before any request.
 */
export async function environmentAndBundle(opts: ExportOptions, ctx: CommandContext, root: string, only?: string[]) {
  // Whose wsc.yaml names the environment: --dir when given; else, into a bundle (--into), that bundle's own.
  const dir = opts.dirGiven !== true && opts.into !== undefined ? opts.into : opts.dir;
  const { environment: env, client } = await configure(opts, ctx, { dir });
  const { desired } = await validBundle(root, env, ctx, true);
  // In the words of the flag given (plan would say `--target`).
  if (only !== undefined) checkTargetsIn(desired, only, '--only');
  const conn = await connect(env, connectOptions(opts, client, ctx));
  return { env, desired, conn };
}
type EnvAndBundle = Awaited<ReturnType<typeof environmentAndBundle>>;

/** The deployment, read once, and the plan of the bundle against it. */
export async function liveAndPlan({ env, desired, conn }: EnvAndBundle, targets: string[]) {
  const hints = hintsFor(desired);
  const live = await readLive(conn, desired);
  return { hints, live, changes: planOf(desired, live, env, { targets }).changes };
}

export async function runExportOnly(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  const only = [...new Set(opts.only ?? [])];
  for (const a of only) {
    if (!ADDRESS_RE.test(a)) {
      throw new UsageError(`--only ${a}: expected report/<publicId> or workbook/<slug>.`, { code: 'bad_only_address' });
    }
  }
  const root = resolve(ctx.cwd, (opts.into ?? opts.out)!);
  const path = await environmentAndBundle(opts, ctx, root, only);
  const { env, desired, conn } = path;
  try {
    const { live, changes } = await liveAndPlan(path, only);
    const bundleIdOf = new Map(
      desired.reports.map((r) => [livePublicId(r.publicId, env.publicIds, env.deploymentId), r.publicId]),
    );
    const slugOf = new Map<number, string>();
    for (const w of live.workbooks) if (typeof w.slug === 'string') slugOf.set(w.id, normalizeSlug(w.slug));
    const refs = {
      workbookSlug: (id: number) => slugOf.get(id),
      reportPublicId: (id: number) => {
        const r = live.reports.find((x) => x.id === id);
        return typeof r?.publicId !== 'string' ? undefined : (bundleIdOf.get(r.publicId) ?? r.publicId);
      },
    };
    const lines: string[] = [];
    const sides = mergeSides(root, desired, live, changes, env.bundle);
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
      const merge = mergeResource({
        change,
        record: sides.record(address),
        live: sides.live(address),
        exported: built.doc,
        raw: sides.raw(address) ?? {},
        rendered: d.fields,
        // The way forward a blocked apply names: the deployment's value of a part changed on both sides too.
        takeConflicts: true,
      });
      if (merge.edits.length + merge.kept.length + merge.conflicts.length + merge.byHand.length === 0) {
        lines.push(`= ${visible(address)}: ${visible(d.pos.file)} already matches the deployment`);
        continue;
      }
      editDocument(root, { address, file: d.pos.file, match: matchOf(d), merge });
      lines.push(...mergeLines(address, d.pos.file, merge, opts.into ?? opts.out));
    }
    ctx.out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}

/** The index of the document of `file` whose identity is `match`, among the file's documents (parsed). */
function docIndex(docs: readonly unknown[], match: IntoEdit['match']): number {
  return docs.findIndex((v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    if ('publicId' in match) return o['publicId'] === match.publicId;
    if ('name' in match) return o['kind'] === 'UserAttribute' && o['name'] === match.name;
    return typeof o['slug'] === 'string' && normalizeSlug(o['slug']) === match.slug;
  });
}

/**
 * What a merge needs of each resource besides the plan: the live resource,
 * this bundle's ownership record on it, and its document as the file writes
 * it (files read once each).
 */
export function mergeSides(
  root: string,
  desired: DesiredState,
  live: LiveState,
  changes: readonly ResourceChange[],
  bundle: string | undefined,
): IntoSides {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const all = [...desired.workbooks, ...desired.reports, ...desired.userAttributes];
  const files = new Map<string, unknown[]>();
  const liveOf = (address: string): unknown => {
    const c = byAddress.get(address);
    if (c?.liveId === undefined) return undefined;
    if (c.kind === 'report') return live.reports.find((r) => r.id === c.liveId);
    if (c.kind === 'workbook') return live.workbooks.find((w) => w.id === c.liveId);
    return live.userAttributes.find((u) => u.id === c.liveId);
  };
  return {
    live: liveOf,
    record: (address) => {
      const r = bundle === undefined ? undefined : liveRecord(liveOf(address));
      // A record written for another resource (a UI copy's) says nothing of this one: the plan blocked it so.
      if (byAddress.get(address)?.blocked?.reason === 'other-resource') return undefined;
      return r?.bundle === bundle ? r : undefined;
    },
    raw: (address) => {
      const d = all.find((x) => x.address === address);
      if (d === undefined) return undefined;
      let docs = files.get(d.pos.file);
      if (docs === undefined) {
        docs = yaml.parseAllDocuments(readFileSync(join(root, d.pos.file), 'utf8')).map((x) => x.toJS() as unknown);
        files.set(d.pos.file, docs);
      }
      const doc = docs[docIndex(docs, matchOf(d))];
      return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Doc) : undefined;
    },
  };
}

/**
 * Makes a merge's edits in the document of `file` (relative to `root`) whose
 * identity is `match`, in its text: every other line of the file stays as it is.
 */
export function editDocument(root: string, { address, file, match, merge }: IntoEdit): void {
  if (merge.edits.length === 0 && merge.byHand.length === 0) return;
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const abs = join(root, file);
  const text = readFileSync(abs, 'utf8');
  const docs = yaml.parseAllDocuments(text);
  const index = docIndex(
    docs.map((x) => x.toJS() as unknown),
    match,
  );
  if (index < 0) {
    throw new WscError('only_doc_missing', `${file}: the document of ${address} was not found again.`, EXIT.failure);
  }
  // Where each value to edit by hand is, for the message.
  const lines = new yaml.LineCounter();
  yaml.parseAllDocuments(text, { lineCounter: lines });
  for (const h of merge.byHand) {
    const node = docs[index]!.getIn(h.docPath, true) as { range?: [number, number, number] } | undefined;
    if (node?.range === undefined) continue;
    const { line, col } = lines.linePos(node.range[0]);
    h.line = line;
    h.col = col;
  }
  if (merge.edits.length > 0) replaceFile(abs, editInPlace(text, index, merge.edits).text);
}
