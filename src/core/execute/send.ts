// One request sent through the port, references resolved from what this run
// wrote, and its failure explained in the bundle's terms (a publicId taken,
// a move refused). The one ambiguous outcome, a report create whose answer
// was lost, is settled here by reading the report back (exactly once).
import type { Report } from '../../domain/wire.js';
import { ApiError, NetworkError, type SourcePos } from '../../errors.js';
import { isFolderRef, type Plan, type PlannedRequest, type RecordSpec } from '../plan-model.js';
import type { ApiPort } from '../api-port.js';
import { withRecord } from '../ownership.js';
import { createFolderOnce, folderIdOf, resolveFolderId } from './folder-create.js';
import { explainMove } from './folder-move.js';
import { withCurrentDraft } from './draft-reread.js';
import { matchesSent, publicIdRejected, publicIdTaken, type PublicIdContext } from './report-create.js';
import { refAddress } from '../plan/graph.js';
import { resolveRefs, unresolvedRef } from './resolve.js';
import { createUserAttributeConverging } from './user-attribute-create.js';

export interface Sent {
  id?: number;
  recovered: boolean;
}

export interface SendContext {
  plan: Plan;
  port: ApiPort;
  /** The id of an address: written by this run, else read by the plan. */
  idOf: (address: string) => number | undefined;
  posOf: (address: string) => SourcePos | undefined;
  /** Told of a folder create that lost the race to another writer's copy. */
  onLostFolder: (requestId: string, lost: { ours: number; deleted: boolean }) => void;
}

export function makeSender(ctx: SendContext): (req: PlannedRequest) => Promise<Sent> {
  const { plan, idOf } = ctx;
  return async (req) => {
    const port = ctx.port.labelled?.(req.address) ?? ctx.port; // --verbose names the resource
    const op = req.operation;
    const resolve = <T>(v: T): T => resolveRefs(resolveFolderId(v, idOf), idOf);
    const owned = (body: Record<string, unknown>, spec: RecordSpec | undefined) =>
      spec === undefined ? body : withRecord(body, resolveSpec(spec, resolve));
    switch (op.op) {
      case 'upsertWorkbook': {
        const reread = op.reread;
        const sent = resolve(op.body);
        const current =
          reread === undefined
            ? sent
            : await withCurrentDraft(() => port.readWorkbook(reread.workbookId), reread, sent, req.address);
        const body = owned(current, op.record);
        try {
          const wb = await port.upsertWorkbookBySlug(op.slug, body);
          return { id: wb.id, recovered: false };
        } catch (e) {
          throw explainMove(e, req, body, plan);
        }
      }
      case 'createFolder': {
        const parentId = isFolderRef(op.parentId) ? folderIdOf(op.parentId, idOf) : op.parentId;
        const r = await createFolderOnce(port, op.name, parentId, op.nth ?? 1);
        if (r.lost) ctx.onLostFolder(req.id, r.lost);
        return { id: r.id, recovered: false };
      }
      case 'adoptWorkbook':
        await port.adoptWorkbook(op.workbookId, op.slug);
        return { id: op.workbookId, recovered: false };
      case 'createReport':
        return createReport(ctx, req, owned(resolve(op.body), op.record), port);
      case 'updateReport': {
        const body = owned(await withCurrentMeta(port, op, resolve(op.body)), op.record);
        try {
          const r = await port.updateReport(op.reportId, body);
          return { id: r.id, recovered: false };
        } catch (e) {
          if (!('publicId' in body)) throw explainMove(e, req, body, plan);
          // Adopting into a publicId someone holds: say who, if it can be seen.
          const publicId = body['publicId'];
          const taken =
            e instanceof ApiError && e.status === 409 && e.apiCode === undefined && typeof publicId === 'string';
          const holders = taken ? await port.findReportsByPublicId(publicId).catch(() => []) : [];
          throw explainPublicId(ctx, e, req, body, { reportId: op.reportId }, holders);
        }
      }
      case 'publishWorkbook': {
        const workbookId = typeof op.workbook === 'number' ? op.workbook : idOf(refAddress(op.workbook));
        if (workbookId === undefined) throw unresolvedRef(refAddress(op.workbook as never));
        await port.publishWorkbook(workbookId, { ...resolve(op.body), workbookId });
        return { id: workbookId, recovered: false };
      }
      case 'createUserAttribute':
        return createUserAttributeConverging(port, op.body, { address: req.address, pos: ctx.posOf(req.address) });
      case 'updateUserAttribute': {
        const ua = await port.updateUserAttribute(op.id, op.body);
        return { id: ua.id, recovered: false };
      }
      case 'deleteReport':
        await gone(() => port.deleteReport(op.reportId));
        return { id: op.reportId, recovered: false };
      case 'deleteWorkbook':
        await gone(() => port.deleteWorkbook(op.workbookId));
        return { id: op.workbookId, recovered: false };
    }
  };
}

/** The record's values with their references resolved, so that it hashes what the deployment will hold. */
function resolveSpec(spec: RecordSpec, resolve: <T>(v: T) => T): RecordSpec {
  if (spec.values === undefined) return spec;
  const values = resolve(spec.values);
  return { ...spec, values };
}

/**
 * A report's PUT replaces `meta` whole: the members this request does not set
 * are taken from the report as it is now, read just before the write, so an
 * edit of another member made since the plan read it is kept. What remains is
 * the time between this read and the write (the API has no version check).
 */
async function withCurrentMeta(
  port: ApiPort,
  op: { reportId: number; metaKeys?: string[] },
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const meta = body['meta'];
  if (op.metaKeys === undefined || meta === null || typeof meta !== 'object' || Array.isArray(meta)) return body;
  const current = (await port.readReport(op.reportId)).meta;
  const merged: Record<string, unknown> = {};
  if (current !== null && typeof current === 'object' && !Array.isArray(current)) Object.assign(merged, current);
  for (const k of op.metaKeys) if (Object.hasOwn(meta, k)) merged[k] = (meta as Record<string, unknown>)[k];
  return { ...body, meta: merged };
}

/** A delete repeated after its answer was lost meets 404: the object is gone, as asked. */
async function gone(del: () => Promise<void>): Promise<void> {
  try {
    await del();
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
}

/** A refused or taken publicId, said in the bundle's terms; any other failure as it is. */
function explainPublicId(
  ctx: SendContext,
  e: unknown,
  req: PlannedRequest,
  body: Record<string, unknown>,
  adopting: { reportId: number } | undefined,
  holders: Report[],
): unknown {
  const publicId = body['publicId'];
  if (!(e instanceof ApiError) || typeof publicId !== 'string') return e;
  const { environment, deploymentId } = ctx.plan;
  const pctx: PublicIdContext = {
    address: req.address,
    publicId,
    pos: ctx.posOf(req.address),
    environment,
    deploymentId,
  };
  if (e.status === 400) return publicIdRejected(e, pctx, adopting) ?? e;
  if (e.status === 409 && e.apiCode === undefined) return publicIdTaken(e, pctx, holders, adopting);
  return e;
}

/** Exactly once: see execute/report-create.ts. */
async function createReport(
  ctx: SendContext,
  req: PlannedRequest,
  body: Record<string, unknown>,
  port: ApiPort,
): Promise<Sent> {
  try {
    const r = await port.createReport(body);
    return { id: r.id, recovered: false };
  } catch (e) {
    const publicId = body['publicId'];
    const ambiguous =
      (e instanceof ApiError && e.status === 409 && e.apiCode === undefined) || e instanceof NetworkError;
    if (!ambiguous || typeof publicId !== 'string') throw explainPublicId(ctx, e, req, body, undefined, []);
    let holders: Report[];
    try {
      holders = await port.findReportsByPublicId(publicId);
    } catch {
      throw e; // the read-back failed too: the original failure says more
    }
    const ours = holders.find((r) => r.deploymentId === ctx.plan.deploymentId && matchesSent(body, r));
    if (ours) return { id: ours.id, recovered: true };
    if (e instanceof NetworkError) throw e;
    throw explainPublicId(ctx, e, req, body, undefined, holders);
  }
}
