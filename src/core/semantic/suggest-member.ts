// "Did you mean" over a data model's members, bounded whatever the model
// holds: a `/v1/meta` answer is the server's to shape (27 MB of 30,000-char
// names, 400,000 members), and a plan must not hang on it. Only names that
// could be close are compared (their length within the edit limit, looked up
// by length; names longer than a member name can sensibly be are never
// candidates), each comparison stops once it is past the limit, at most
// MAX_COMPARED names are compared per question, and all questions of a check
// share a time budget: past it, no more suggestions (the check itself goes on).
import { editDistance } from '../../domain/suggest.js';

/** Longer names are neither suggested nor looked up: no one types a 200-character member name. */
const MAX_NAME = 200;
/** Names compared at most for one question. */
const MAX_COMPARED = 20_000;
/** Time all suggestions of one check may take, in ms. */
const SUGGEST_BUDGET_MS = 1_000;

interface Named {
  name: string;
  lower: string;
}

/** The edits a name may be away from a member to be suggested: ≤ 2, and less than half its length. */
function limitOf(word: string): number {
  return Math.min(2, Math.max(1, Math.floor(word.length / 2)));
}

export class Suggester {
  private readonly byLength = new Map<number, Named[]>();
  private readonly byCube = new Map<string, Map<number, Named[]>>();
  private readonly asked = new Map<string, string | undefined>();
  private deadline: number | undefined;

  constructor(
    byCube: ReadonlyMap<string, readonly string[]>,
    /** Per view, its members by the short name of the cube member they expose. */
    private readonly byAlias: ReadonlyMap<string, ReadonlyMap<string, string>>,
    private readonly now: () => number = () => performance.now(),
    private readonly budgetMs = SUGGEST_BUDGET_MS,
  ) {
    for (const [cube, names] of byCube) {
      const mine = new Map<number, Named[]>();
      for (const name of names) {
        if (name.length > MAX_NAME) continue;
        const n = { name, lower: name.toLowerCase() };
        push(this.byLength, n);
        push(mine, n);
      }
      this.byCube.set(cube, mine);
    }
  }

  /** The member closest to `name`: a view's member exposing it, then the same cube's, then any. */
  closest(name: string): string | undefined {
    if (this.asked.has(name)) return this.asked.get(name);
    const found = this.search(name);
    this.asked.set(name, found);
    return found;
  }

  /** The closest of a few words (granularities). */
  closestOf(word: string, known: readonly string[]): string | undefined {
    const bucket = new Map<number, Named[]>();
    for (const k of known) if (k.length <= MAX_NAME) push(bucket, { name: k, lower: k.toLowerCase() });
    return this.best(word, bucket);
  }

  private search(name: string): string | undefined {
    if (name.length > MAX_NAME) return undefined;
    const dot = name.indexOf('.');
    const cube = dot > 0 ? name.slice(0, dot) : undefined;
    if (cube !== undefined) {
      // `sales.status` → `sales.order_status`: the view's member that exposes `orders.status`.
      const viaAlias = this.byAlias.get(cube)?.get(name.slice(dot + 1));
      if (viaAlias !== undefined) return viaAlias;
      const same = this.byCube.get(cube);
      const near = same === undefined ? undefined : this.best(name, same);
      if (near !== undefined) return near;
    }
    return this.best(name, this.byLength);
  }

  private best(word: string, byLength: ReadonlyMap<number, readonly Named[]>): string | undefined {
    this.deadline ??= this.now() + this.budgetMs;
    const w = word.toLowerCase();
    const limit = limitOf(word);
    let best: string | undefined;
    let bestDist = limit + 1;
    let compared = 0;
    for (let len = Math.max(0, w.length - limit); len <= w.length + limit; len++) {
      for (const k of byLength.get(len) ?? []) {
        if (++compared > MAX_COMPARED) return best;
        if ((compared & 255) === 0 && this.now() > this.deadline) return best;
        const d = editDistance(w, k.lower, Math.min(limit, bestDist - 1));
        if (d < bestDist) {
          bestDist = d;
          best = k.name;
          if (d === 0) return best;
        }
      }
    }
    return best;
  }
}

function push(map: Map<number, Named[]>, n: Named): void {
  const list = map.get(n.name.length);
  if (list === undefined) map.set(n.name.length, [n]);
  else list.push(n);
}
