// The semantic check: every member the bundle's managed reports and
// dashboards name, against the target deployment's model. Pure: the members
// come with their places (found by the bundle's locator), the model as an
// index. What `/v1/meta` decides (rules.ts) is an issue at once; a name it
// does not list is pending, for Cube's planner to decide (confirm.ts): an
// error only when Cube refuses the query, a warning when it cannot be asked.
import type { SourcePos } from '../../errors.js';
import type { JsonValue } from '../json.js';
import type { DesiredState, ReportAt } from '../model.js';
import {
  dashboardMembers,
  reportMembers,
  whereOf,
  type DocPath,
  type Extracted,
  type MemberRole,
  type MemberUse,
} from './members.js';
import { resolveMember, type ModelIndex } from './model-index.js';
import { doubtfulFormat, formatIssues, type FormatIssue } from './query-format.js';
import { joins, judgeUse, type UseVerdict } from './rules.js';

export interface SemanticIssue {
  /** `report/<publicId>` or `workbook/<slug>`. */
  address: string;
  /** Where in the resource, in words: `jsonQuery.measures[0]`, `widget region-filter config.member`. */
  where: string;
  member: string;
  role: MemberRole;
  pos: SourcePos;
  suggestion?: string;
  message: string;
  /** Who decided: the model's `/v1/meta` by Cube's rules, or Cube's planner (`/v1/sql`). */
  by: 'meta' | 'cube';
}

interface UncheckedEntry {
  address: string;
  where: string;
  text: string;
  why: string;
  pos: SourcePos;
}

/** What Cube's planner was asked, and what it said. */
interface Confirmations {
  /** Queries sent to `/v1/sql`. */
  asked: number;
  /** Names `/v1/meta` does not list that Cube's planner accepted. */
  accepted: number;
}

export interface SemanticResult {
  /** Member uses checked. */
  checked: number;
  /** Errors: refused by the rules of the model's `/v1/meta`, or by Cube's planner. */
  issues: SemanticIssue[];
  /** Names `/v1/meta` does not list that Cube's planner was not (or could not be) asked about. */
  warnings: SemanticIssue[];
  unchecked: UncheckedEntry[];
  confirmations?: Confirmations;
}

/** The query Cube's planner is asked about for a report: its `jsonQuery`, or its `sqlQuery` (`format=sql`). */
type ReportQuery = { format: 'rest'; query: JsonValue } | { format: 'sql'; query: string };

/** A resource of the bundle with its members, before they are checked. */
export interface ResourceMembers {
  address: string;
  extracted: Extracted;
  /** Where to report a path: the bundle's one locator (`Locate`) asked to report, else the resource's place. */
  locate: (path: readonly (string | number)[], report: ReportAt) => SourcePos;
  /** A report's query as sent, for Cube's planner. */
  query?: ReportQuery;
  /** The `jsonQuery` is written as JSON text: a place inside it is the field's. */
  queryAsText?: boolean;
}

/** A use `/v1/meta` does not list, placed and worded, waiting for Cube's planner. */
export interface PendingUse {
  use: MemberUse;
  issue: SemanticIssue;
  /** Not a name meta lacks but a question only the planner answers (a join path, a doubtful format). */
  quiet?: true;
  /** Why it matters when Cube cannot be asked (default: it may be a hidden member). */
  ifUnasked?: string;
}

export interface PendingResource {
  resource: ResourceMembers;
  uses: PendingUse[];
}

const fallback =
  (pos: SourcePos): ResourceMembers['locate'] =>
  () =>
    pos;

function parsedQuery(text: JsonValue | undefined): JsonValue | undefined {
  if (typeof text !== 'string') return text ?? undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * The members each managed resource names; `only` limits them to some addresses (`--target`).
 * Each is placed by its own locator (`locate`, made from its file), else at its position alone.
 */
export function bundleMembers(
  desired: DesiredState,
  opts: { only?: ReadonlySet<string> | undefined } = {},
): ResourceMembers[] {
  const { only } = opts;
  const locate = (r: DesiredState['reports'][number] | DesiredState['workbooks'][number]) =>
    r.locate ?? fallback(r.pos);
  const out: ResourceMembers[] = [];
  for (const r of desired.reports) {
    if (only && !only.has(r.address)) continue;
    // The query as written (a mapping or text), so that each member is found where it stands.
    const jsonQuery = r.jsonQueryMapping ?? r.fields.jsonQuery;
    const extracted = reportMembers({ jsonQuery, sqlQuery: r.fields.sqlQuery, pivotItems: r.fields.pivotItems });
    const query = parsedQuery(r.fields.jsonQuery);
    // A query that names nothing is still checked (Cube refuses a query that selects nothing).
    if (extracted.uses.length + extracted.unchecked.length === 0 && (query === undefined || query === null)) continue;
    const entry: ResourceMembers = { address: r.address, extracted, locate: locate(r) };
    if (query !== undefined && query !== null) {
      entry.query = { format: 'rest', query };
      if (r.jsonQueryMapping === undefined) entry.queryAsText = true;
    } else if (typeof r.fields.sqlQuery === 'string') entry.query = { format: 'sql', query: r.fields.sqlQuery };
    out.push(entry);
  }
  for (const w of desired.workbooks) {
    if (only && !only.has(w.address)) continue;
    const extracted = dashboardMembers(w.fields.meta ?? undefined);
    if (extracted.uses.length + extracted.unchecked.length > 0)
      out.push({ address: w.address, extracted, locate: locate(w) });
  }
  return out;
}

/**
 * Whether a bundle document as written (its kind and value, before the desired state is built) gives the check
 * something to ask: bundleMembers's rule, one document at a time. Plan and apply start reading the data model
 * when the first such document is loaded, not before (a bundle that names no member mints no token).
 */
export function documentNamesMembers(kind: string, value: Readonly<Record<string, unknown>>): boolean {
  if (kind === 'Report') {
    const { jsonQuery, sqlQuery, pivotItems } = value as Record<string, JsonValue | undefined>;
    const query = parsedQuery(jsonQuery);
    if (query !== undefined && query !== null) return true;
    const extracted = reportMembers({ jsonQuery, sqlQuery, pivotItems });
    return extracted.uses.length + extracted.unchecked.length > 0;
  }
  if (kind === 'Workbook') {
    const extracted = dashboardMembers((value['meta'] ?? undefined) as JsonValue | undefined);
    return extracted.uses.length + extracted.unchecked.length > 0;
  }
  return false;
}

/** A use of a member (a table a report's SQL reads is checked too, but it is not a member). */
const isMember = (u: MemberUse) => u.role !== 'sql-table';

export function countUses(resources: readonly ResourceMembers[]): number {
  return resources.reduce((n, r) => n + r.extracted.uses.filter(isMember).length, 0);
}

function placeOf(r: ResourceMembers, u: MemberUse, atGranularity = false): SourcePos {
  if (atGranularity && u.granularity !== undefined && u.inText === undefined) return r.locate(u.granularity.path, {});
  return r.locate(u.path, {
    ...(u.atKey ? { atKey: true } : {}),
    ...(u.inText !== undefined ? { text: { name: u.member, occurrence: u.inText } } : {}),
  });
}

/** An issue at a use of a resource. */
export function issueAt(
  r: ResourceMembers,
  u: MemberUse,
  said: { message: string; suggestion?: string; by: SemanticIssue['by']; atGranularity?: boolean },
): SemanticIssue {
  const issue: SemanticIssue = {
    address: r.address,
    where: whereOf(u),
    member: u.member,
    role: u.role,
    pos: placeOf(r, u, said.atGranularity === true),
    message: `${r.address} ${whereOf(u)}: ${said.message}`,
    by: said.by,
  };
  if (said.suggestion !== undefined) issue.suggestion = said.suggestion;
  return issue;
}

/** A format error of a report's query, at its place (the field's when the query is JSON text). */
function formatIssueAt(r: ResourceMembers, f: FormatIssue): SemanticIssue {
  const sub = r.queryAsText === true ? [] : f.path;
  const where = whereOf({ path: ['jsonQuery', ...f.path] });
  return {
    address: r.address,
    where,
    member: '',
    role: 'query',
    pos: r.locate(['jsonQuery', ...sub], {}),
    message: `${r.address} ${where}: ${f.message}`,
    by: 'meta',
  };
}

/** A doubt about a report's query format, pending for Cube's planner: its whole query is asked. */
function doubtAt(r: ResourceMembers, f: FormatIssue): PendingUse {
  const at: DocPath = ['jsonQuery', ...f.path];
  const use: MemberUse = { member: '', role: 'query', path: r.queryAsText === true ? ['jsonQuery'] : at, at };
  const issue = issueAt(r, use, { message: f.message, by: 'meta' });
  return { use, issue, quiet: true, ifUnasked: 'so wsc cannot tell whether Cube takes the query' };
}

/** What `/v1/meta` decides of the resources' members, and the uses it does not list (for Cube's planner). */
export function checkMembers(
  resources: readonly ResourceMembers[],
  index: ModelIndex,
): { result: SemanticResult; pending: PendingResource[] } {
  const result: SemanticResult = { checked: 0, issues: [], warnings: [], unchecked: [] };
  const pending: PendingResource[] = [];
  for (const r of resources) {
    const judged: { use: MemberUse; verdict: UseVerdict }[] = [];
    const mine: PendingUse[] = [];
    for (const use of r.extracted.uses) {
      if (isMember(use)) result.checked++;
      const verdict = judgeUse(index, use);
      judged.push({ use, verdict });
      if (verdict.kind === 'error') result.issues.push(issueAt(r, use, { ...verdict, by: 'meta' }));
      else if (verdict.kind === 'unlisted') mine.push({ use, issue: issueAt(r, use, { ...verdict, by: 'meta' }) });
    }
    // Two cubes of one query with no join path: decided by the model's components (a report's query only);
    // cubes of one component are asked of the planner (meta does not say which way joins go).
    const j =
      r.query?.format === 'rest'
        ? joins(
            index,
            judged.filter((x) => x.use.path[0] === 'jsonQuery'),
          )
        : {};
    if (j.refused !== undefined)
      result.issues.push(issueAt(r, j.refused.use, { message: j.refused.message, by: 'meta' }));
    if (r.query?.format === 'rest') {
      for (const f of formatIssues(r.query.query, index)) result.issues.push(formatIssueAt(r, f));
      for (const f of doubtfulFormat(r.query.query)) mine.push(doubtAt(r, f));
    }
    if (j.ask !== undefined && mine.length === 0)
      mine.push({ use: j.ask.use, issue: issueAt(r, j.ask.use, { message: j.ask.message, by: 'meta' }), quiet: true });
    if (mine.length > 0) pending.push({ resource: r, uses: mine });
    for (const u of r.extracted.unchecked) {
      const pos = r.locate(u.path, u.inText !== undefined ? { text: { name: u.text, occurrence: u.inText } } : {});
      result.unchecked.push({ address: r.address, where: whereOf(u), text: u.text, why: u.why, pos });
    }
  }
  return { result, pending };
}

/** Titles of the members a report names, for the preview: `name → title` of those the model knows. */
export function memberTitles(names: readonly string[], index: ModelIndex): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const m = resolveMember(index, n);
    if (m?.title !== undefined) out[n] = m.name === n ? m.title : `${m.title} (${n.slice(m.name.length + 1)})`;
  }
  return out;
}
