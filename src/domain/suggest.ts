// "Did you mean …?" for unknown keys, kinds, enum values and environment
// names: the closest known word within a small edit distance.

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The known word closest to `word` (case-insensitive), if it is close enough:
 * distance ≤ 2, and less than half the word's length so that short keys do
 * not suggest unrelated ones (`id` → `h`).
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  if (word.length > 64) return undefined;
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDist = Infinity;
  for (const k of known) {
    const d = levenshtein(w, k.toLowerCase());
    if (d < bestDist) {
      best = k;
      bestDist = d;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.min(2, Math.max(1, Math.floor(word.length / 2)));
  return bestDist <= limit ? best : undefined;
}

/**
 * Edit distance where swapping two neighbouring characters counts as one edit
 * (optimal string alignment), or `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // Every later row is at least this row's least value: stop once it is past `max`.
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return Math.min(prev[b.length]!, max + 1);
}

/** The edits a name of this length may be away from a known one to count as a near miss. */
export function nearMissLimit(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
}

/**
 * Known names that `word` may be a slip of, best first (at most 3, ties in
 * the order given): the same but for case, or a few edits away (a swap of
 * two neighbours is one). For identities that are not found: an id that is
 * found is never a near miss.
 */
export function nearMisses(word: string, known: Iterable<string>): string[] {
  if (word.length > 200) return [];
  const w = word.toLowerCase();
  const max = nearMissLimit(word);
  let best = max + 1;
  let found: string[] = [];
  for (const k of known) {
    if (k === word) continue;
    const d = editDistance(w, k.toLowerCase(), best);
    if (d < best) {
      best = d;
      found = [k];
    } else if (d === best && d <= max && found.length < 3) found.push(k);
  }
  return best <= max ? found : [];
}

/** `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``. */
export function oneOf(names: readonly string[]): string {
  const q = names.map((n) => `\`${n}\``);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}
