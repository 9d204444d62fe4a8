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

/** Three rows of the distance table, reused across calls (grown when a longer word comes). */
let rows = [new Uint16Array(64), new Uint16Array(64), new Uint16Array(64)];

/**
 * Edit distance where swapping two neighbouring characters counts as one edit
 * (optimal string alignment), or `max + 1` as soon as it must exceed `max`.
 * Only the band of cells within `max` of the diagonal is computed: a cell
 * outside it is more than `max` (it counts as `max + 1`).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length + 1 > rows[0]!.length) rows = rows.map(() => new Uint16Array(b.length + 1));
  const out = max + 1;
  let prev2 = rows[0]!;
  let prev = rows[1]!;
  let cur = rows[2]!;
  for (let j = 0; j <= b.length; j++) prev[j] = j > max ? out : j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    cur[from - 1] = from === 1 && i <= max ? i : out;
    let rowMin = cur[from - 1]!;
    const ai = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = prev[j - 1]! + (ai === bj ? 0 : 1);
      if (prev[j]! + 1 < d) d = prev[j]! + 1;
      if (cur[j - 1]! + 1 < d) d = cur[j - 1]! + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && prev2[j - 2]! + 1 < d)
        d = prev2[j - 2]! + 1;
      if (d > out) d = out;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (to < b.length) cur[to + 1] = out;
    // Every later row is at least this row's least value: stop once it is past `max`.
    if (rowMin > max) return out;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[b.length]!, out);
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
  return new KnownNames(known).nearMisses(word);
}

/** Names to find near misses among, lower-cased once for many questions. */
export class KnownNames {
  private readonly names: string[];
  private readonly lower: string[];
  private readonly sigs: Int32Array;
  private readonly asked = new Map<string, string[]>();

  constructor(names: Iterable<string>) {
    this.names = [...names];
    this.lower = this.names.map((n) => n.toLowerCase());
    this.sigs = Int32Array.from(this.lower, signature);
  }

  nearMisses(word: string): string[] {
    const done = this.asked.get(word);
    if (done !== undefined) return done;
    const found = this.search(word);
    this.asked.set(word, found);
    return found;
  }

  private search(word: string): string[] {
    if (word.length > 200) return [];
    const w = word.toLowerCase();
    const max = nearMissLimit(word);
    let best = max + 1;
    let found: string[] = [];
    const sig = signature(w);
    for (let i = 0; i < this.names.length; i++) {
      const k = this.lower[i]!;
      if (this.names[i] === word || Math.abs(k.length - w.length) > max) continue;
      // Each edit brings at most one character the other name lacks: more missing, and it is too far.
      if (bitCount(sig & ~this.sigs[i]!) > max) continue;
      const d = editDistance(w, k, Math.min(best, max));
      if (d < best) {
        best = d;
        found = [this.names[i]!];
      } else if (d === best && d <= max && found.length < 3) found.push(this.names[i]!);
    }
    return best <= max ? found : [];
  }
}

/** The characters of a word as a set of 32 bits (several characters share a bit). */
function signature(word: string): number {
  let sig = 0;
  for (let i = 0; i < word.length; i++) sig |= 1 << (word.charCodeAt(i) % 32);
  return sig;
}

function bitCount(n: number): number {
  let c = 0;
  for (let v = n >>> 0; v !== 0; v &= v - 1) c++;
  return c;
}

/** `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``. */
export function oneOf(names: readonly string[]): string {
  const q = names.map((n) => `\`${n}\``);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

/** Items a hint or message lists at most; the rest are counted. */
const LISTED_AT_MOST = 10;

/**
 * `a, b, c`, or the first ten and `and 9,990 more`: a hint that names what
 * exists stays a line however many there are (10,000 environments).
 */
export function listSome(items: readonly string[], max = LISTED_AT_MOST): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${(items.length - max).toLocaleString('en-US')} more`;
}
