// A sorted array kept in order under inserts and removals, so keyset
// pagination finds a cursor's position by binary search: O(log n) to seek,
// O(page) to read, whatever the size. Inserts and removals cost a memmove.
// An element's key must not change while it is in the index: remove it,
// change it, insert it again.
export const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

export class SortedIndex<T> {
  readonly items: T[] = [];
  constructor(private readonly cmp: (a: T, b: T) => number) {}

  get length(): number {
    return this.items.length;
  }

  /** Position of the first element e with cmpTo(e) > 0 (elements "after" a probe). */
  upperBound(cmpTo: (e: T) => number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmpTo(this.items[mid] as T) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of the first element e with cmpTo(e) >= 0. */
  lowerBound(cmpTo: (e: T) => number): number {
    return this.upperBound((e) => (cmpTo(e) < 0 ? 0 : 1));
  }

  insert(item: T): void {
    const n = this.items.length;
    // Fast path: new items usually sort last (increasing ids and timestamps).
    if (n === 0 || this.cmp(this.items[n - 1] as T, item) < 0) {
      this.items.push(item);
      return;
    }
    const at = this.upperBound((e) => this.cmp(e, item));
    this.items.splice(at, 0, item);
  }

  remove(item: T): boolean {
    const at = this.lowerBound((e) => this.cmp(e, item));
    if (at < this.items.length && this.items[at] === item) {
      this.items.splice(at, 1);
      return true;
    }
    // Fallback (should not happen): a linear search keeps the index correct.
    const i = this.items.indexOf(item);
    if (i >= 0) this.items.splice(i, 1);
    return i >= 0;
  }

  static from<T>(items: T[], cmp: (a: T, b: T) => number): SortedIndex<T> {
    const idx = new SortedIndex(cmp);
    for (const it of [...items].sort(cmp)) idx.items.push(it);
    return idx;
  }
}
