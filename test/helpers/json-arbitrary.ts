// Random JSON values for property tests: the leaves each test cares about
// (strings that look like YAML, list-body lookalikes, ...), nested in arrays
// and objects whose member names come from `key`.
import fc from 'fast-check';

/** Any JSON value built from `leaves`, arrays and objects (at most `max` elements or members each). */
export function jsonOf<T>(
  leaves: fc.Arbitrary<T>[],
  key: fc.Arbitrary<string>,
  max = 4,
): fc.Arbitrary<T | T[] | Record<string, T>> {
  type V = T | T[] | Record<string, T>;
  return fc.letrec<{ v: V }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      ...leaves,
      fc.array(tie('v'), { maxLength: max }) as fc.Arbitrary<V>,
      fc.dictionary(key, tie('v'), { maxKeys: max }) as fc.Arbitrary<V>,
    ),
  })).v;
}
