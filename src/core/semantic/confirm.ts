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

type Use = PendingUse['use'];

/**
 * What a refusal of Cube's planner is about: a pending use (an error there), another use of the resource (an
 * error there), or what the model refused already (nothing new: said once, by the model).
 */
type Culprit = { pending: PendingUse } | { use: Use } | 'the model';

/** The key path a query-format error of Cube's names (`Invalid query format: "filters[0]" …`), if any. */
function formatKey(error: string): (string | number)[] | undefined {
  const m = /Invalid query format: "([A-Za-z_$][\w$]*(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*)"/.exec(error);
  if (m === null) return undefined;
  return m[1]!
    .split(/\.|\[(\d+)\]/)
    .flatMap((k) => (k === undefined || k === '' ? [] : [/^\d+$/.test(k) ? Number(k) : k]));
}

/** The culprit of Cube's `error` on ask `a`; `modelSaid`: the model's errors in the resource (member, place). */
function culprit(a: Ask, error: string, modelSaid: readonly { member: string; where: string }[]): Culprit {
  const r = a.resource;
  const refused = (u: Use) => modelSaid.some((i) => i.member === u.member && i.where === whereOf(u));
  // A doubt about the format (no member) is named by its key: `"foo" is not allowed`.
  const doubt = a.uses.find((p) => p.use.member === '' && error.includes(`"${String(p.use.at?.[1])}"`));
  if (doubt !== undefined) return { pending: doubt };
  // A format error names the key at fault (`"order.orders.count" must be one of [asc, desc]`, `"measures[0]"
  // with value …`): what the model refused under it, else the use written there, else the key itself.
  const key = formatKey(error);
  if (key !== undefined) {
    const where = whereOf({ path: ['jsonQuery', ...key] });
    const under = (w: string) => w === where || w.startsWith(`${where}.`) || w.startsWith(`${where}[`);
    if (modelSaid.some((i) => under(i.where))) return 'the model';
    const pending = a.uses.find((p) => whereOf(p.use) === where);
    if (pending !== undefined) return { pending };
    const use = r.extracted.uses.find((u) => whereOf(u) === where);
    return {
      use: use ?? { member: '', role: 'query', path: r.queryAsText === true ? ['jsonQuery'] : ['jsonQuery', ...key] },
    };
  }
  // The member Cube names: the longest of the resource's names its error contains.
  const named = (member: string) => member !== '' && (error.includes(`'${member}'`) || error.includes(member));
  const member = r.extracted.uses
    .map((u) => u.member)
    .filter(named)
    .sort((x, y) => y.length - x.length)[0];
  if (member !== undefined) {
    const uses = r.extracted.uses.filter((u) => u.member === member);
    if (uses.some(refused)) return 'the model';
    const pending = a.uses.find((p) => p.use.member === member);
    return pending !== undefined ? { pending } : { use: uses[0]! };
  }
  // Nothing it names: the model's own error, if it found one (Cube stops at the first), else the first doubt.
  return modelSaid.length > 0 ? 'the model' : { pending: a.uses[0]! };
}

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
      const modelSaid = result.issues.filter((i) => i.address === a.resource.address && i.by === 'meta');
      const c = culprit(a, v.error, modelSaid);
      if (c === 'the model') {
        // What the model refused already (a measure in `dimensions`, a granularity a dimension lacks, a filter's
        // format) is what Cube stopped at: said once, by the model; the pending uses were not reached.
        for (const p of a.uses) warn(p, 'Cube refused the query for another reason first');
        continue;
      }
      const first = 'pending' in c ? c.pending : undefined;
      const use = first?.use ?? (c as { use: Use }).use;
      const suggestion = first?.issue.suggestion;
      const mean = suggestion !== undefined ? ` (did you mean \`${suggestion}\`?)` : '';
      const said = { message: `Cube refuses the query: ${shortError(v.error)}${mean}`, by: 'cube' as const };
      const at = (u: Use) =>
        result.issues.push(issueAt(a.resource, u, suggestion !== undefined ? { ...said, suggestion } : said));
      at(use);
      // The member Cube names, written again elsewhere in the resource (a pivot's, a second filter's): the same
      // refusal there. Any other pending use was not reached: Cube stopped at the first.
      for (const p of a.uses) {
        if (p === first) continue;
        if (use.member !== '' && p.use.member === use.member) at(p.use);
        else warn(p, 'Cube refused the query for another reason first');
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
