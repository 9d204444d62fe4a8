// `wsc doctor`: the checks of an environment, one small function each, run
// in order (run.ts). Each gets the same context (types.ts: the connection, the
// bundle as loaded, reads shared between checks) and returns one line: passed
// or not, what it found, and a hint when it did not pass. A check names the
// checks it needs (`needs`): when one of them failed it is not run. Read-only:
// only GETs. A check is added with one entry in CHECKS.
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import { detectWorkbookListing, type WorkbookListing } from '../api/folders.js';
import { paths, Report, UserAttribute } from '../domain/wire.js';
import type { Plan } from '../core/plan-model.js';
import { ApiError, NetworkError, type WscError } from '../errors.js';
import { fail, failure, pass, type DoctorCheck } from './types.js';
import { SPEC_CHECKS } from './spec-checks.js';
import { deepCheck } from './deep.js';
import { dataModel } from './data-model.js';

const status = (e: WscError | undefined) => (e instanceof ApiError ? e.status : undefined);
/**
 * Whether a failed probe still shows the API answering: an error answer of
 * its own (JSON) refusing the token (401) or the access (403), or not finding
 * the deployment (404). Anything else (no answer, a web page, a body that is
 * not the API's JSON, a gateway's 5xx, a 429 that asks for more time than
 * doctor waits) leaves the host unproven.
 */
const apiAnswered = (e: WscError) => e instanceof ApiError && e.jsonBody === true && [401, 403, 404].includes(e.status);

const BASE_URL_HINT =
  'Check the base URL: it names the host of the Workspace Content API only (wsc appends /api/v1), ' +
  'not a web page or another service.';

const hostAnswers: DoctorCheck = {
  name: 'host',
  async run(ctx) {
    const e = await failure(ctx.probe());
    if (e !== undefined && !apiAnswered(e)) {
      // A web page's 404 or 401 says nothing of deployments or tokens: the URL is what to check.
      const page = e instanceof ApiError && e.jsonBody !== true;
      const hint = page || e.hint === undefined ? BASE_URL_HINT : e.hint;
      const more = e.details.length > 0 ? ` — ${e.details.join(' ')}` : '';
      return fail(`${ctx.client.baseUrl} does not answer as the Workspace Content API: ${e.message}${more}`, hint);
    }
    return pass(`${ctx.client.baseUrl} answers as the Workspace Content API (JSON)`);
  },
};

const tokenAccepted: DoctorCheck = {
  name: 'token',
  needs: ['host'],
  async run(ctx) {
    const e = await failure(ctx.probe());
    if (status(e) === 401) return fail(`the token is rejected: ${e!.message}`, e!.hint);
    return pass(`the token is accepted (${ctx.env.embedded ? 'embedded emulator' : `scheme ${ctx.env.authScheme}`})`);
  },
};

const deploymentReadable: DoctorCheck = {
  name: 'deployment',
  needs: ['token'],
  async run(ctx) {
    const e = await failure(ctx.probe());
    if (e === undefined) return pass(`deployment ${ctx.deploymentId} exists and its workbooks are readable`);
    return fail(`deployment ${ctx.deploymentId} cannot be read: ${e.message}`, e.hint);
  },
};

const pageSize: DoctorCheck = {
  name: 'page size',
  needs: ['deployment'],
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

const userAttributes: DoctorCheck = {
  name: 'user attributes',
  needs: ['token'],
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

const workbookListing: DoctorCheck = {
  name: 'workbook listing',
  needs: ['deployment'],
  async run(ctx) {
    try {
      return pass(LISTING[await detectWorkbookListing(ctx.client, ctx.deploymentId)]);
    } catch (e) {
      if (!(e instanceof ApiError || e instanceof NetworkError)) throw e;
      return fail(`the workbooks and folders cannot be listed: ${e.message}`, e.hint);
    }
  },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const bundleCounts: DoctorCheck = {
  name: 'bundle',
  needs: ['deployment'],
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

/** The checks, in the order they are shown (`--deep` adds deepCheck at the end). */
const CHECKS: readonly DoctorCheck[] = [
  hostAnswers,
  tokenAccepted,
  deploymentReadable,
  pageSize,
  userAttributes,
  workbookListing,
  ...SPEC_CHECKS,
  bundleCounts,
  dataModel,
];

/** The checks of a run: `--deep` adds the export round trip. */
export const checksOf = (deep: boolean): readonly DoctorCheck[] => (deep ? [...CHECKS, deepCheck] : CHECKS);

/** The probe every connection check shares: the first page (one item) of the workbook list. */
export function probeOf(client: ApiClient, deploymentId: number): () => Promise<unknown> {
  let p: Promise<unknown> | undefined;
  const list = z.looseObject({ items: z.array(z.unknown()) });
  return () => (p ??= client.get(paths.workbooks(deploymentId), list, { first: 1 }));
}
