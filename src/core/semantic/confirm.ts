// Cube decides every error on a name `/v1/meta` does not list: production
// meta leaves hidden members and primary keys out, yet Cube answers queries
// naming them. Pure: which queries to ask the Core Data API's planner
// (`/v1/sql`) about, and what its answers make of the pending uses. A
// report's query is asked as written (`format=sql` for its `sqlQuery`); a
// widget's member, or a pivot's that its query does not select, as a
// one-member query. Only for resources the plan creates or changes, at most
// MAX_ASKS queries; the same query is asked once.
import type { PlannerVerdict } from '../../domain/data-model.js';
import type { JsonValue } from '../json.js';
import type { Plan } from '../plan-model.js';
import { issueAt, type PendingResource, type PendingUse, type ResourceMembers, type SemanticResult } from './check.js';
import { whereOf } from './members.js';

/** Queries Cube's planner is asked about in one run, at most. */
export const MAX_ASKS = 200;
/** Cube's error text shown, at most (the rest is cut). */
const ERROR_SHOWN = 400;

export interface Ask {
  /** The same key, the same question: asked once. */
  key: string;
  format: 'rest' | 'sql';
  /** Tried in turn until one is accepted (a widget's member: as a dimension, then as a measure). */
  queries: readonly (JsonValue | string)[];
  resource: ResourceMembers;
  uses: PendingUse[];
}

/** Pending uses no query was asked about, and why. */
interface NotAsked {
  uses: PendingUse[];
  why: string;
}

const MEASURE_KEYS = new Set(['measure', 'measures']);

function oneMember(r: ResourceMembers, p: PendingUse): Ask {
  const m = p.use.member;
  const asMeasure = { measures: [m] };
  const queries =
    p.use.widget !== undefined && MEASURE_KEYS.has(p.use.widget.key) ? [asMeasure] : [{ dimensions: [m] }, asMeasure];
  return { key: `rest ${JSON.stringify(queries)}`, format: 'rest', queries, resource: r, uses: [p] };
}

/** The asks of one resource: its query for what the query names, one-member queries for the rest. */
function asksOf(pr: PendingResource): Ask[] {
  const r = pr.resource;
  const q = r.query;
  if (q === undefined) return pr.uses.map((p) => oneMember(r, p));
  const inQuery = (p: PendingUse) => {
    if (q.format === 'sql') return true;
    if (p.use.path[0] === 'jsonQuery') return true;
    // A pivot's member that the query selects too: the query's verdict is its verdict.
    return r.extracted.uses.some((u) => u.path[0] === 'jsonQuery' && u.member === p.use.member);
  };
  const whole = pr.uses.filter(inQuery);
  const asks = pr.uses.filter((p) => !inQuery(p)).map((p) => oneMember(r, p));
  if (whole.length > 0) {
    const key = `${q.format} ${typeof q.query === 'string' ? q.query : JSON.stringify(q.query)}`;
    asks.unshift({ key, format: q.format, queries: [q.query], resource: r, uses: whole });
  }
  return asks;
}

/** The questions for Cube's planner: the pending uses of the resources the plan creates or changes. */
export function plannedAsks(
  pending: readonly PendingResource[],
  changes: (address: string) => boolean,
  max = MAX_ASKS,
): { asks: Ask[]; notAsked: NotAsked[] } {
  const asks: Ask[] = [];
  const notAsked: NotAsked[] = [];
  const keys = new Set<string>();
  for (const pr of pending) {
    if (!changes(pr.resource.address)) {
      notAsked.push({ uses: pr.uses, why: `the plan does not change ${pr.resource.address}, so Cube was not asked` });
      continue;
    }
    for (const a of asksOf(pr)) {
      if (!keys.has(a.key) && keys.size >= max) {
        notAsked.push({ uses: a.uses, why: `Cube's planner is asked about ${max} queries at most in one run` });
        continue;
      }
      keys.add(a.key);
      asks.push(a);
    }
  }
  return { asks, notAsked };
}

/**
 * The use Cube's error names (the longest name it contains; among the uses of that name not pending, one the
 * model refused already), else the first pending one.
 */
function culprit(
  a: Ask,
  error: string,
  refused: (use: PendingUse['use']) => boolean,
): PendingUse | { use: PendingUse['use']; issue?: undefined } {
  // A doubt about the format (no member) is named by its key: `"foo" is not allowed`.
  const named = (member: string) => member !== '' && (error.includes(`'${member}'`) || error.includes(member));
  const byLength = (x: { use: { member: string } }, y: { use: { member: string } }) =>
    y.use.member.length - x.use.member.length;
  const pending = [...a.uses].sort(byLength).find((p) => named(p.use.member));
  if (pending !== undefined) return pending;
  const other = a.resource.extracted.uses
    .filter((u) => u.member !== '' && named(u.member))
    .sort((x, y) => y.member.length - x.member.length || Number(refused(y)) - Number(refused(x)))[0];
  if (other !== undefined) return { use: other };
  const key = (p: PendingUse) => p.use.at?.[1];
  return a.uses.find((p) => p.use.member === '' && error.includes(`"${String(key(p))}"`)) ?? a.uses[0]!;
}

/** Whether the model's own check has an error at this use already. */
const refusedAlready = (result: SemanticResult, address: string, use: PendingUse['use']) =>
  result.issues.some((i) => i.address === address && i.member === use.member && i.where === whereOf(use));

const shortError = (e: string) => (e.length > ERROR_SHOWN ? `${e.slice(0, ERROR_SHOWN)}…` : e);

/** The pending uses settled: Cube's refusals become errors at the member, the rest warnings or nothing. */
export function settle(
  result: SemanticResult,
  asks: readonly Ask[],
  verdicts: ReadonlyMap<string, PlannerVerdict>,
  notAsked: readonly NotAsked[],
): SemanticResult {
  const confirmations = { asked: verdicts.size, accepted: 0 };
  const warn = (p: PendingUse, why: string) =>
    result.warnings.push({ ...p.issue, message: `${p.issue.message}; ${why}` });
  for (const a of asks) {
    const v = verdicts.get(a.key) ?? { kind: 'unavailable', why: 'not asked within the time budget' };
    if (v.kind === 'accepted') confirmations.accepted += a.uses.filter((p) => p.quiet !== true).length;
    else if (v.kind === 'unavailable')
      for (const p of a.uses)
        warn(p, `Cube's planner could not be asked (${v.why}), ${p.ifUnasked ?? 'so it may be a hidden member'}`);
    else {
      const refused = (use: PendingUse['use']) => refusedAlready(result, a.resource.address, use);
      const c = culprit(a, v.error, refused);
      if (c.issue === undefined && refused(c.use)) {
        // A use the model already refused (a measure in `dimensions`, a granularity it lacks) is what Cube
        // stopped at: said once, by the model; the pending uses were not reached.
        for (const p of a.uses) warn(p, 'Cube refused the query for another reason first');
        continue;
      }
      const suggestion = c.issue?.suggestion;
      const mean = suggestion !== undefined ? ` (did you mean \`${suggestion}\`?)` : '';
      const said = { message: `Cube refuses the query: ${shortError(v.error)}${mean}`, by: 'cube' as const };
      const at = (use: PendingUse['use']) =>
        result.issues.push(issueAt(a.resource, use, suggestion !== undefined ? { ...said, suggestion } : said));
      at(c.use);
      // The member Cube names, written again elsewhere in the resource (a pivot's, a second filter's): the same
      // refusal there. Any other pending use was not reached: Cube stopped at the first.
      const same = (p: PendingUse) => p !== c && c.use.member !== '' && p.use.member === c.use.member;
      for (const p of a.uses) {
        if (same(p)) at(p.use);
        else if (p !== c) warn(p, 'Cube refused the query for another reason first');
      }
    }
  }
  for (const n of notAsked) for (const p of n.uses) warn(p, n.why);
  result.confirmations = confirmations;
  return result;
}

/** The addresses a plan creates or changes (what Cube's planner is asked about). */
export function changesOf(plan: Plan): (address: string) => boolean {
  const changed = new Set(
    plan.changes
      .filter((c) => c.actions.some((a) => a === 'create' || a === 'update' || a === 'adopt' || a === 'publish'))
      .map((c) => c.address),
  );
  return (a) => changed.has(a);
}
