// Keys a bundle file may not hold anywhere: the loader refuses them and
// export leaves out the values that carry them, so both must use one list.

/** Keys that could alter an object's prototype in code that merges data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
