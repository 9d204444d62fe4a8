// A saved plan against the deployment and the bundle now. What the plan read
// must not have changed since (its fingerprints), and the file is only a
// record of what was reviewed: the requests apply sends are always
// re-derived, and a file whose requests are not exactly those (one added,
// widened, redirected or dropped) is refused. Nothing is applied either way.
import { StalePlanError, UsageError } from '../errors.js';
import { canonicalJson } from './canonical.js';
import { checkFingerprints } from './fingerprint.js';
import type { LiveState, PlanContext } from './model.js';
import { buildGraph } from './plan/graph.js';
import type { Plan, PlannedRequest } from './plan-model.js';

/** At most this many differences are named; the count says the rest. */
const SHOWN = 10;

function describe(r: PlannedRequest): string {
  const o = r.operation;
  switch (o.op) {
    case 'upsertWorkbook':
      return `upsert of workbook ${JSON.stringify(o.slug)}`;
    case 'adoptWorkbook':
      return `adoption of workbook id ${o.workbookId} as ${JSON.stringify(o.slug)}`;
    case 'createReport':
      return 'report create';
    case 'updateReport':
      return `update of report id ${o.reportId}`;
    case 'deleteReport':
      return `delete of report id ${o.reportId}`;
    case 'deleteWorkbook':
      return `delete of workbook id ${o.workbookId}`;
    case 'publishWorkbook':
      return 'publish';
    case 'createUserAttribute':
      return 'user-attribute create';
    case 'updateUserAttribute':
      return `update of user attribute id ${o.id}`;
    case 'createFolder':
      return `create of folder ${JSON.stringify(o.name)}`;
  }
}

/** What differs between the two plans' requests, one line each (empty when they are the same). */
export function requestDifferences(saved: Plan, derived: Plan): string[] {
  const want = buildGraph(derived).byId;
  const have = buildGraph(saved).byId;
  const lines: string[] = [];
  for (const [id, r] of have) {
    const d = want.get(id);
    if (d === undefined) lines.push(`${id}: the file holds a ${describe(r)} that the bundle does not give`);
    else if (canonicalJson(r) !== canonicalJson(d))
      lines.push(`${id}: the file's ${describe(r)} differs from the bundle's (${firstDifference(r, d)})`);
  }
  for (const [id, d] of want)
    if (!have.has(id)) lines.push(`${id}: the bundle gives a ${describe(d)} that the file does not hold`);
  if (lines.length <= SHOWN) return lines;
  return [...lines.slice(0, SHOWN), `… and ${lines.length - SHOWN} more`];
}

/** The path of the first member where a and b differ, e.g. `operation.body.name`. */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (
    a !== null &&
    b !== null &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b)
  ) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (canonicalJson(x ?? null) !== canonicalJson(y ?? null) || (x === undefined) !== (y === undefined)) {
        return firstDifference(x, y, path === '' ? k : `${path}.${k}`);
      }
    }
  }
  return path === '' ? 'the request' : path;
}

/**
 * A resource the plan read that changed since it was saved: the plan is stale (`planFile` names it). `again`: the
 * way forward, the `wsc plan` that makes it again with the plan's own flags (run-commands.ts `planAgain`).
 */
export function refuseDrift(
  saved: Plan,
  live: LiveState,
  env: Pick<PlanContext, 'deploymentId' | 'publicIds'>,
  planFile: string,
  again: string,
): void {
  const drifts = checkFingerprints(saved.fingerprints, live, {
    deploymentId: env.deploymentId,
    publicIds: env.publicIds,
  });
  if (drifts.length === 0) return;
  throw new StalePlanError(
    `The saved plan ${planFile} is stale: ${drifts.length} ` +
      `resource${drifts.length === 1 ? '' : 's'} changed since it was made. ` +
      `Nothing was applied.`,
    drifts.map((d) => `${d.address}: ${d.message}`),
    { hint: again },
  );
}

/** The requests derived again (from the bundle in `dir`) must be the file's. */
export function refuseOtherRequests(saved: Plan, derived: Plan, planFile: string, dir: string, again: string): void {
  const differences = requestDifferences(saved, derived);
  if (differences.length === 0) return;
  throw new UsageError(
    `The saved plan ${planFile} does not hold the requests that the bundle ` +
      `in ${dir} gives for this deployment. Nothing was applied.`,
    {
      code: 'saved_plan_differs',
      details: differences,
      hint: `The plan file or the bundle changed since the plan was saved. ${again}`,
    },
  );
}
