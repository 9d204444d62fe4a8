// What `/v1/meta` alone decides about one member use, with no request: the
// rules of Cube's query format (../shared facts, "Query format") that hold
// for every member the answer lists. A member's role per query field
// (a dimension under `measures` is refused); a granularity suffix only in
// `dimensions` and order keys (pivots and widgets name columns the same way);
// a granularity among the standard ones and the dimension's own; a time grain
// only on a `time` dimension (queries, pivots, TIME_GRAIN widgets). A name
// the answer does not list is not decided here: production `/v1/meta` leaves
// hidden members and primary keys out, so only Cube's planner can say
// (confirm.ts); the words say no more than the answer does.
import type { MemberUse } from './members.js';
import {
  knownGrain,
  resolveName,
  suggestMember,
  type MemberKind,
  type ModelIndex,
  type ModelMember,
} from './model-index.js';

export type UseVerdict =
  | { kind: 'ok'; member: ModelMember }
  /** A table of a report's SQL that is a cube or a view of the answer. */
  | { kind: 'table' }
  /** Refused by the rules: Cube refuses it too. `atGranularity`: the `granularity` value is the culprit. */
  | { kind: 'error'; message: string; suggestion?: string; atGranularity?: true }
  /** Not in `/v1/meta`: only Cube's planner can say whether the model has it. */
  | { kind: 'unlisted'; message: string; suggestion?: string };

/** The roles a query field takes, and whether a granularity suffix may follow a member there. */
const FIELD_RULES: Partial<
  Record<MemberUse['role'], { kinds?: readonly MemberKind[]; suffix: boolean; field: string }>
> = {
  measure: { kinds: ['measure'], suffix: false, field: 'measures' },
  // Cube plans a segment under `dimensions` as a boolean column (the real Cube's recording).
  dimension: { kinds: ['dimension', 'segment'], suffix: true, field: 'dimensions' },
  segment: { kinds: ['segment'], suffix: false, field: 'segments' },
  timeDimension: { kinds: ['dimension'], suffix: false, field: 'timeDimensions[].dimension' },
  filter: { suffix: false, field: 'filters[].member' },
  order: { suffix: true, field: 'order' },
  pivot: { suffix: true, field: 'pivotItems' },
  widget: { suffix: true, field: 'a widget' },
};

const article = (k: string) => (/^[aeiou]/.test(k) ? `an ${k}` : `a ${k}`);
const kindText = (m: ModelMember) =>
  m.kind === 'dimension' && m.type ? `${article(m.type)} dimension` : article(m.kind);
const withSuggestion = (index: ModelIndex, name: string) => {
  const s = suggestMember(index, name);
  return s === undefined || s === name ? {} : { suggestion: s };
};
const meanText = (s: { suggestion?: string }) =>
  s.suggestion !== undefined ? ` (did you mean \`${s.suggestion}\`?)` : '';

/** The words for a name `/v1/meta` does not list. */
function unlisted(index: ModelIndex, name: string): UseVerdict {
  const dot = name.indexOf('.');
  const cube = dot > 0 ? name.slice(0, dot) : undefined;
  const s = withSuggestion(index, name);
  const message =
    cube === undefined
      ? `\`${name}\` is not a member name (\`cube.member\`)`
      : index.cubes.has(cube)
        ? `\`${name}\` is not public in the data model (primary keys are private unless \`public: true\`)`
        : `\`${cube}\` is not a public cube or view of the data model`;
  return { kind: 'unlisted', message: message + meanText(s), ...s };
}

/** What Cube's planner accepts but the warehouse then refuses (a contract-suite recording of the real Cube). */
export const FAILS_IN_WAREHOUSE = 'Cube plans it, the query fails in the warehouse';

/**
 * A time grain on a member: a granularity neither standard nor the dimension's own is refused by Cube's planner;
 * a standard one on a dimension that is not `time` is planned, then fails in the warehouse.
 */
function grainVerdict(index: ModelIndex, m: ModelMember, grain: string, written: string): UseVerdict | undefined {
  if (!knownGrain(m, grain)) {
    const s = m.type === 'time' ? withSuggestion(index, written) : {};
    return {
      kind: 'error',
      message: `Granularity "${grain}" does not exist in dimension ${m.name}${meanText(s)}`,
      ...s,
    };
  }
  if (m.kind !== 'dimension')
    return {
      kind: 'error',
      message: `\`${m.name}\` is ${kindText(m)}: a time grain (\`${grain}\`) applies only to time dimensions`,
    };
  if (m.type !== 'time')
    return {
      kind: 'error',
      message:
        `\`${m.name}\` is ${kindText(m)}: a time grain (\`${grain}\`) applies only to time dimensions ` +
        `(${FAILS_IN_WAREHOUSE})`,
    };
  return undefined;
}

/** The verdict on one use, from the model's index alone. */
export function judgeUse(index: ModelIndex, use: MemberUse): UseVerdict {
  if (use.role === 'sql-table')
    // A hidden cube is not in /v1/meta either: Cube's planner says whether the model has it.
    return index.cubes.has(use.member)
      ? { kind: 'table' }
      : { kind: 'unlisted', message: `\`${use.member}\` is not a public cube or view of the data model` };
  const r = resolveName(index, use.member);
  if (r === undefined) return unlisted(index, use.member);
  const m = r.member;
  const rule = FIELD_RULES[use.role];
  if (r.grain !== undefined) {
    // `orders.count.foo`, `orders.created_at.month` in `measures`: Cube takes `cube.member` alone there.
    if (rule !== undefined && !rule.suffix)
      return {
        kind: 'error',
        message:
          `\`${use.member}\`: a granularity suffix is allowed only in \`dimensions\` and \`order\`, ` +
          `not in \`${rule.field}\`` +
          (use.role === 'measure' || m.type !== 'time' ? '' : ` (name \`${m.name}\` and give the granularity apart)`),
      };
    const bad = grainVerdict(index, m, r.grain, use.member);
    if (bad !== undefined) return bad;
  }
  // A segment as a time dimension: planned, then refused by the warehouse (the real Cube's recording).
  if (use.role === 'timeDimension' && m.kind === 'segment')
    return {
      kind: 'error',
      message: `\`${m.name}\` is a segment, not a time dimension (${FAILS_IN_WAREHOUSE})`,
    };
  if (rule?.kinds !== undefined && !rule.kinds.includes(m.kind)) {
    const want = rule.kinds.map(article).join(' or ');
    return {
      kind: 'error',
      message: `\`${m.name}\` is ${kindText(m)}, not ${want}: Cube refuses it in \`${rule.field}\``,
    };
  }
  if (use.widget?.type === 'TIME_GRAIN' && r.grain === undefined && (m.kind !== 'dimension' || m.type !== 'time'))
    return {
      kind: 'error',
      message: `\`${m.name}\` is ${kindText(m)}: a TIME_GRAIN widget takes a time dimension (${FAILS_IN_WAREHOUSE})`,
    };
  if (use.granularity !== undefined) {
    const bad = grainVerdict(index, m, use.granularity.value, `${m.name}.${use.granularity.value}`);
    if (bad !== undefined) return { ...bad, atGranularity: true } as UseVerdict;
  }
  return { kind: 'ok', member: m };
}

/** The query fields whose members Cube joins (order keys and pivots name members the query already selects). */
const JOINED: ReadonlySet<MemberUse['role']> = new Set(['measure', 'dimension', 'timeDimension', 'segment', 'filter']);

/**
 * Whether the cubes of a query join, as far as `/v1/meta` can tell. `refused`: the first use whose cube
 * cannot be joined to the cubes before it (both carry a `connectedComponent` and they differ, or one carries
 * none while the model gives them: Cube leaves it out of a cube that joins nothing). `ask`: cubes of one
 * component, whose directed join path only Cube's planner knows. A view's member counts as the cube member it
 * exposes (`aliasMember`); a model whose answer has no components at all (an older server) is never judged.
 */
export function joins(
  index: ModelIndex,
  judged: readonly { use: MemberUse; verdict: UseVerdict }[],
): { refused?: { use: MemberUse; message: string }; ask?: { use: MemberUse; message: string } } {
  if (!index.hasComponents) return {};
  let first: { cube: string; component: number | undefined } | undefined;
  let ask: { use: MemberUse; message: string } | undefined;
  for (const { use, verdict } of judged) {
    if (verdict.kind !== 'ok' || !JOINED.has(use.role)) continue;
    const m = verdict.member;
    const name = index.cubes.get(m.cube)?.type === 'view' ? m.aliasMember?.split('.')[0] : m.cube;
    const cube = name === undefined ? undefined : index.cubes.get(name);
    if (name === undefined || cube === undefined || cube.type === 'view') continue;
    const component = cube.connectedComponent;
    if (first === undefined) first = { cube: name, component };
    else if (name === first.cube) continue;
    else if (component === undefined || component !== first.component)
      return {
        refused: {
          use,
          message:
            `\`${use.member}\`: the model has no join path between \`${first.cube}\` and \`${name}\` ` +
            `(Cube: Can't find join path to join '${first.cube}', '${name}')`,
        },
      };
    else ask ??= { use, message: `\`${use.member}\`: whether \`${first.cube}\` joins \`${name}\` is Cube's to say` };
  }
  return ask !== undefined ? { ask } : {};
}
