// The ambiguous outcomes of writing a report's publicId, and what they mean.
//
// A report create always carries its publicId, so a POST whose answer was
// lost (connection dropped after the server committed it) is safe to send
// again: the retry then meets 409 "already used". Reading the report back
// tells the two cases apart: in this deployment with the content we sent, it
// is ours (exactly once); anywhere else, the id is taken, and publicIds are
// unique across the account, not per deployment.
import { isPlaceholderPublicId, type Report } from '../../domain/wire.js';
import { ApiError, type ApiCode, type SourcePos } from '../../errors.js';
import { canonicalJson } from '../canonical.js';

function sameValue(field: string, sent: unknown, got: unknown): boolean {
  if ((sent === null || sent === undefined) && (got === null || got === undefined)) return true;
  if (field === 'jsonQuery' && typeof sent === 'string' && typeof got === 'string') {
    try {
      return canonicalJson(JSON.parse(sent)) === canonicalJson(JSON.parse(got));
    } catch {
      return sent === got;
    }
  }
  if (field === 'meta' && sent !== null && typeof sent === 'object' && got !== null && typeof got === 'object') {
    // The server merges meta: only the keys we sent are ours to compare.
    const g = got as Record<string, unknown>;
    return Object.entries(sent).every(([k, v]) => canonicalJson(v) === canonicalJson(g[k] ?? null));
  }
  return canonicalJson(sent ?? null) === canonicalJson(got ?? null);
}

/** Whether `report` holds every field of the create body `sent`, compared canonically. */
export function matchesSent(sent: Record<string, unknown>, report: Report): boolean {
  const r = report as Record<string, unknown>;
  return Object.entries(sent).every(([k, v]) => sameValue(k, v, r[k]));
}

export interface PublicIdContext {
  address: string;
  publicId: string;
  pos?: SourcePos;
  environment: string;
  deploymentId: number;
}

function where(pos: SourcePos | undefined): string {
  return pos ? pos.file : 'the bundle';
}

/** The API's failure said again in the bundle's terms, the request and answer kept. */
export function rewrap(e: ApiError, code: ApiCode, message: string, hint: string): ApiError {
  return new ApiError(
    { method: e.method, path: e.path, status: e.status, apiCode: e.apiCode, serverMessage: e.serverMessage, code },
    message,
    { hint, cause: e },
  );
}

/** The 409 after reading back: the publicId belongs to someone else. */
export function publicIdTaken(
  e: ApiError,
  ctx: PublicIdContext,
  holders: Report[],
  adopting?: { reportId: number },
): ApiError {
  const here = holders.find((r) => r.deploymentId === ctx.deploymentId && r.id !== adopting?.reportId);
  const file = where(ctx.pos);
  if (here && adopting) {
    return rewrap(
      e,
      'public_id_taken',
      `publicId ${ctx.publicId} (${ctx.address}, ${file}) cannot be given to ` +
        `report ${adopting.reportId}: report ${here.id} in deployment ` +
        `${ctx.deploymentId} already has it.`,
      `Choose another publicId in ${file}, or drop the adopt block and manage report ${here.id} instead.`,
    );
  }
  if (here) {
    return rewrap(
      e,
      'public_id_taken',
      `publicId ${ctx.publicId} (${ctx.address}, ${file}) is already used by ` +
        `report ${here.id} in deployment ${ctx.deploymentId}, whose content ` +
        `differs from the bundle: another writer created it after the plan was made.`,
      'Run `wsc plan` again: that report will then be updated instead of ' +
        'created. If it is not yours, choose another publicId in ' +
        `${file}.`,
    );
  }
  const other = holders[0];
  const holder = other
    ? `a report in deployment ${other.deploymentId}`
    : `another report in the account (not in deployment ${ctx.deploymentId})`;
  return rewrap(
    e,
    'public_id_taken',
    `publicId ${ctx.publicId} (${ctx.address}, ${file}) is already used by ` +
      `${holder}. publicIds are unique across the whole account, not per ` +
      `deployment, so two deployments of one account cannot share one.`,
    `Set \`publicIds: per-deployment\` for the environment ` +
      `"${ctx.environment}" in wsc.yaml, so that each deployment gets its own ` +
      `id derived from the bundle's, or choose another publicId in ${file}.`,
  );
}

/** A 400 on a write carrying a publicId: placeholder shape, or a change of a write-once id. */
export function publicIdRejected(
  e: ApiError,
  ctx: PublicIdContext,
  adopting: { reportId: number } | undefined,
): ApiError | undefined {
  const file = where(ctx.pos);
  const msg = e.serverMessage ?? '';
  if (isPlaceholderPublicId(ctx.publicId) || /placeholder|reserved/i.test(msg)) {
    return rewrap(
      e,
      'public_id_placeholder',
      `publicId ${ctx.publicId} (${ctx.address}, ${file}) has the reserved ` +
        `placeholder shape the API shows for reports without a stable id; the ` +
        `API rejects it.`,
      `Choose another publicId in ${file}: 12 characters of [0-9A-Za-z] of ` +
        `your own, not a placeholder copied from the API.`,
    );
  }
  if (adopting && /public ?id/i.test(msg)) {
    return rewrap(
      e,
      'public_id_write_once',
      `report ${adopting.reportId} already has a publicId, and a publicId ` +
        `cannot be changed once set; it cannot be adopted as ${ctx.publicId} ` +
        `(${ctx.address}, ${file}).`,
      `Remove the adopt block from ${file} (or point it at a report that has ` +
        `no stable publicId), or use the report's existing publicId in the bundle.`,
    );
  }
  return undefined;
}
