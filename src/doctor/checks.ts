// `wsc doctor`: the checks of an environment, one small function each, run
// in order. Each gets the same context (the connection, the bundle as loaded)
// and returns one line: passed or not, what it found, and a hint when it did
// not pass. Read-only: only GETs. A check is added with one entry in CHECKS.
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import { detectWorkbookListing, type WorkbookListing } from '../api/folders.js';
import { paths, Report, UserAttribute } from '../domain/wire.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, Plan } from '../core/model.js';
import { ApiError, NetworkError, type WscError } from '../errors.js';

export interface CheckResult {
  ok: boolean;
  /** What was found, in a few words. */
  detail: string;
  /** What to do about it, when it did not pass. */
  hint?: string;
}

export interface DoctorContext {
  env: ResolvedEnvironment;
  client: ApiClient;
  deploymentId: number;
  /** The bundle, or why it could not be loaded. */
  bundle: { desired: DesiredState } | { error: WscError };
  /** The first list request, made once and shared by the checks that read its outcome. */
  probe(): Promise<unknown>;
  /** A plan of the bundle against the deployment (read once). */
  plan(): Promise<Plan>;
}

export interface DoctorCheck {
  name: string;
  run(ctx: DoctorContext): Promise<CheckResult>;
}

const fail = (detail: string, hint?: string): CheckResult => ({
  ok: false,
  detail,
  ...(hint !== undefined ? { hint } : {}),
});
const pass = (detail: string): CheckResult => ({ ok: true, detail });

/** The outcome of a request: the error it failed with, or undefined. */
async function failure(p: Promise<unknown>): Promise<WscError | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    if (e instanceof ApiError || e instanceof NetworkError) return e;
    throw e;
  }
}

const status = (e: WscError | undefined) => (e instanceof ApiError ? e.status : undefined);
/** An answer that is not the API's: a web page, a body that is not its JSON, no answer at all. */
const NOT_API_CODES = new Set(['not_api', 'bad_response', 'response_too_large']);
const notTheApi = (e: WscError | undefined) =>
  e instanceof NetworkError || (e instanceof ApiError && (NOT_API_CODES.has(e.code) || e.status < 400));

export const hostAnswers: DoctorCheck = {
  name: 'host',
  async run(ctx) {
    const e = await failure(ctx.probe());
    if (notTheApi(e)) {
      const hint = e!.hint ?? 'Check the base URL: the host only, wsc appends /api/v1.';
      return fail(`${ctx.client.baseUrl} does not answer as the Workspace Content API: ${e!.message}`, hint);
    }
    return pass(`${ctx.client.baseUrl} answers as the Workspace Content API (JSON)`);
  },
};

export const tokenAccepted: DoctorCheck = {
  name: 'token',
  async run(ctx) {
    const e = await failure(ctx.probe());
    if (notTheApi(e)) return fail('cannot tell: the host does not answer as the API', 'Fix the host first.');
    if (status(e) === 401) return fail(`the token is rejected: ${e!.message}`, e!.hint);
    return pass(`the token is accepted (${ctx.env.embedded ? 'embedded emulator' : `scheme ${ctx.env.authScheme}`})`);
  },
};

export const deploymentReadable: DoctorCheck = {
  name: 'deployment',
  async run(ctx) {
    const e = await failure(ctx.probe());
    if (e === undefined) return pass(`deployment ${ctx.deploymentId} exists and its workbooks are readable`);
    if (notTheApi(e) || status(e) === 401)
      return fail('cannot tell: the host or the token failed', 'Fix the lines above first.');
    return fail(`deployment ${ctx.deploymentId} cannot be read: ${e.message}`, e.hint);
  },
};

export const pageSize: DoctorCheck = {
  name: 'page size',
  async run(ctx) {
    const asked = ctx.client.pageSizes.initial;
    const path = paths.reports(ctx.deploymentId);
    const e = await failure(ctx.client.pages(path, Report, { sortBy: 'createdAt' }).next());
    if (e !== undefined) return fail(`cannot tell: ${e.message}`, e.hint);
    const now = ctx.client.pageSizes.of(path).current;
    if (now < asked) {
      return pass(
        `the server takes first=${now} (first=${asked} was refused or cut short); ` +
          `wsc detects this on every run, WSC_PAGE_SIZE=${now} skips the detection`,
      );
    }
    return pass(`the server takes first=${now}`);
  },
};

export const userAttributes: DoctorCheck = {
  name: 'user attributes',
  async run(ctx) {
    const managed = 'desired' in ctx.bundle ? ctx.bundle.desired.userAttributes.length : 0;
    const list = z.looseObject({ items: z.array(UserAttribute) });
    const e = await failure(ctx.client.get(paths.userAttributes(), list, { first: 1 }));
    if (e === undefined) return pass('readable');
    if (status(e) === 403 && managed === 0) {
      return pass('not readable with this token (403); fine: the bundle manages none, so wsc does not read them');
    }
    const hint =
      managed > 0
        ? `The bundle manages ${managed}: use a token that may read and write user attributes (an admin's).`
        : e.hint;
    return fail(`not readable: ${e.message}`, hint);
  },
};

const LISTING: Record<WorkbookListing, string> = {
  all: 'GET /workbooks lists the workbooks in folders too',
  'root-only': 'GET /workbooks lists the root level only; wsc also lists each folder (one request per folder)',
  unknown: 'no workbook is in a folder yet, so either listing reads the same (wsc checks again on every run)',
};

export const workbookListing: DoctorCheck = {
  name: 'workbook listing',
  async run(ctx) {
    try {
      return pass(LISTING[await detectWorkbookListing(ctx.client, ctx.deploymentId)]);
    } catch (e) {
      if (!(e instanceof ApiError || e instanceof NetworkError)) throw e;
      return fail(`the workbooks and folders cannot be listed: ${e.message}`, e.hint);
    }
  },
};

const Spec = z.looseObject({ info: z.looseObject({ version: z.string() }) });

export const apiVersion: DoctorCheck = {
  name: 'API version',
  async run(ctx) {
    try {
      const spec = await ctx.client.get(paths.spec(), Spec);
      return pass(`the server reports version ${spec.info.version} (GET /api/v1/spec)`);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // Not served everywhere: not knowing the version is no reason to fail.
      return pass('not reported (GET /api/v1/spec is not served here)');
    }
  },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const bundleCounts: DoctorCheck = {
  name: 'bundle',
  async run(ctx) {
    if ('error' in ctx.bundle) {
      return fail(
        `the bundle cannot be planned: ${ctx.bundle.error.message}`,
        ctx.bundle.error.hint ?? 'Run `wsc validate`.',
      );
    }
    const d = ctx.bundle.desired;
    let plan: Plan;
    try {
      plan = await ctx.plan();
    } catch (e) {
      if (!(e instanceof Error && 'code' in e)) throw e;
      return fail(`cannot plan: ${(e as WscError).message}`, (e as WscError).hint);
    }
    const s = plan.summary;
    const counts = (w: number, r: number, a: number) =>
      `${plural(w, 'workbook')}, ${plural(r, 'report')}, ${plural(a, 'user attribute')}`;
    const manages = counts(d.workbooks.length, d.reports.length, d.userAttributes.length);
    const leaves = counts(s.unmanaged.workbooks, s.unmanaged.reports, s.unmanaged.userAttributes);
    return pass(`would manage ${manages} (${s.create} to create, ${s.adopt} to adopt); leaves alone ${leaves}`);
  },
};

/** The checks, in the order they are shown. */
export const CHECKS: DoctorCheck[] = [
  hostAnswers,
  tokenAccepted,
  deploymentReadable,
  pageSize,
  userAttributes,
  workbookListing,
  apiVersion,
  bundleCounts,
];

export interface CheckLine extends CheckResult {
  name: string;
}

/** Runs every check, one after another (their requests are few); a check that throws counts as failed. */
export async function runChecks(ctx: DoctorContext, checks: readonly DoctorCheck[] = CHECKS): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  for (const c of checks) {
    try {
      lines.push({ name: c.name, ...(await c.run(ctx)) });
    } catch (e) {
      const w = e as Partial<WscError> & Error;
      lines.push({ name: c.name, ok: false, detail: w.message, ...(w.hint !== undefined ? { hint: w.hint } : {}) });
    }
  }
  return lines;
}

/** The probe every connection check shares: the first page (one item) of the workbook list. */
export function probeOf(client: ApiClient, deploymentId: number): () => Promise<unknown> {
  let p: Promise<unknown> | undefined;
  const list = z.looseObject({ items: z.array(z.unknown()) });
  return () => (p ??= client.get(paths.workbooks(deploymentId), list, { first: 1 }));
}
