// The semantic check: every member the bundle's managed reports and
// dashboards name, against the target deployment's model. Pure: the members
// come with their places (found by the bundle's locator), the model as an
// index; the result is the issues (unknown members, with a did-you-mean),
// what could not be checked, and how many uses were checked.
import type { SourcePos } from '../../errors.js';
import type { DesiredState, Locator } from '../model.js';
import { dashboardMembers, reportMembers, whereOf, type Extracted, type MemberRole } from './members.js';
import { resolveMember, suggestMember, type ModelIndex } from './model-index.js';

interface SemanticIssue {
  /** `report/<publicId>` or `workbook/<slug>`. */
  address: string;
  /** Where in the resource, in words: `jsonQuery.measures[0]`, `widget region-filter config.member`. */
  where: string;
  member: string;
  role: MemberRole;
  pos: SourcePos;
  suggestion?: string;
  message: string;
}

interface UncheckedEntry {
  address: string;
  where: string;
  text: string;
  why: string;
  pos: SourcePos;
}

export interface SemanticResult {
  /** Member uses checked against the model. */
  checked: number;
  issues: SemanticIssue[];
  unchecked: UncheckedEntry[];
}

/** A resource of the bundle with its members, before they are checked. */
export interface ResourceMembers {
  address: string;
  extracted: Extracted;
  locate: Locator;
}

const fallback =
  (pos: SourcePos): Locator =>
  () =>
    pos;

/**
 * The members each managed resource names; `only` limits them to some addresses (`--target`).
 * `locatorOf` gives the bundle's locator of a resource (its position alone when there is none).
 */
export function bundleMembers(
  desired: DesiredState,
  opts: { only?: ReadonlySet<string> | undefined; locatorOf?: (r: object) => Locator | undefined } = {},
): ResourceMembers[] {
  const { only } = opts;
  const locate = (r: DesiredState['reports'][number] | DesiredState['workbooks'][number]) =>
    opts.locatorOf?.(r) ?? fallback(r.pos);
  const out: ResourceMembers[] = [];
  for (const r of desired.reports) {
    if (only && !only.has(r.address)) continue;
    // The query as written (a mapping or text), so that each member is found where it stands.
    const jsonQuery = r.jsonQueryMapping ?? r.fields.jsonQuery;
    const extracted = reportMembers({ jsonQuery, sqlQuery: r.fields.sqlQuery, pivotItems: r.fields.pivotItems });
    if (extracted.uses.length + extracted.unchecked.length > 0)
      out.push({ address: r.address, extracted, locate: locate(r) });
  }
  for (const w of desired.workbooks) {
    if (only && !only.has(w.address)) continue;
    const extracted = dashboardMembers(w.fields.meta ?? undefined);
    if (extracted.uses.length + extracted.unchecked.length > 0)
      out.push({ address: w.address, extracted, locate: locate(w) });
  }
  return out;
}

export function countUses(resources: readonly ResourceMembers[]): number {
  return resources.reduce((n, r) => n + r.extracted.uses.length, 0);
}

export function checkMembers(resources: readonly ResourceMembers[], index: ModelIndex): SemanticResult {
  const result: SemanticResult = { checked: 0, issues: [], unchecked: [] };
  for (const r of resources) {
    for (const u of r.extracted.uses) {
      result.checked++;
      if (resolveMember(index, u.member) !== undefined) continue;
      const pos = r.locate(u.path, {
        ...(u.atKey ? { atKey: true } : {}),
        ...(u.inText !== undefined ? { text: { name: u.member, occurrence: u.inText } } : {}),
      });
      const suggestion = suggestMember(index, u.member);
      const cube = u.member.includes('.') ? u.member.split('.')[0]! : undefined;
      const noCube = cube !== undefined && !index.cubes.has(cube) ? ` (the model has no cube or view \`${cube}\`)` : '';
      const issue: SemanticIssue = {
        address: r.address,
        where: whereOf(u),
        member: u.member,
        role: u.role,
        pos,
        message:
          `${r.address} ${whereOf(u)}: \`${u.member}\` is not a member of the data model${noCube}` +
          (suggestion !== undefined ? ` (did you mean \`${suggestion}\`?)` : ''),
      };
      if (suggestion !== undefined) issue.suggestion = suggestion;
      result.issues.push(issue);
    }
    for (const u of r.extracted.unchecked) {
      const pos = r.locate(u.path, u.inText !== undefined ? { text: { name: u.text, occurrence: u.inText } } : {});
      result.unchecked.push({ address: r.address, where: whereOf(u), text: u.text, why: u.why, pos });
    }
  }
  return result;
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
