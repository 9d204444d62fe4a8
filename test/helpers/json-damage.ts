// Random damage to a JSON value, for fuzz tests of what wsc reads as JSON
// (API answers in test/api/live.fuzz.test.ts, saved plans in
// test/core/saved-plan.fuzz.test.ts): one member anywhere set to a random
// value, or deleted.
import fc from 'fast-check';

export type JsonDamage = { kind: 'set'; at: number; value: unknown } | { kind: 'delete'; at: number };

export const jsonDamage: fc.Arbitrary<JsonDamage> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
  },
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
);

/** Every member path of a JSON value (objects' members and arrays' elements), parents before children. */
function memberPaths(
  v: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...path, i]), memberPaths(x, [...path, i], out)));
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push([...path, k]);
      memberPaths(x, [...path, k], out);
    }
  }
  return out;
}

/** Applies `d` to `v` in place (`at` wraps around the member count); false when `v` has no member. */
export function damageJson(v: unknown, d: JsonDamage): boolean {
  const paths = memberPaths(v);
  if (paths.length === 0) return false;
  const path = paths[d.at % paths.length]!;
  let parent = v as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (d.kind === 'set') parent[key] = d.value;
  else if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key];
  return true;
}
