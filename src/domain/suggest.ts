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
