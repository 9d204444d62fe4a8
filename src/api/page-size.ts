// The page size of list requests (`first`). Its maximum is not stated by the
// API, so it is found out at run time: a server that refuses `first` (a 400
// or 422 whose message names it) gets a smaller one, the size it names when
// it names one, else the next step down; a server that answers a page shorter
// than asked while saying there is more has shown its cap. Either way the
// smaller size holds for that list for the rest of the run, and --verbose says
// so. Learnt per list (per path): one list's cap says nothing of another's (a
// server may cap folders at 1 and serve reports by 500), so a short or refused
// page of one list never shrinks another.
import { ApiError, type WscError } from '../errors.js';

/** The steps down when a refusal names no size. */
const PAGE_SIZE_STEPS = [500, 200, 100, 50, 20, 10, 1] as const;

/** Whether a failed list request was refused for its `first`. */
export function refusesFirst(e: unknown): e is ApiError {
  if (!(e instanceof ApiError) || (e.status !== 400 && e.status !== 422)) return false;
  return /\bfirst\b/i.test(e.serverMessage ?? '');
}

/** The largest number below `asked` that a refusal's message names (e.g. "must not be greater than 100"). */
function namedLimit(message: string, asked: number): number | undefined {
  let best: number | undefined;
  for (const m of message.matchAll(/\b\d{1,6}\b/g)) {
    const n = Number(m[0]);
    if (n >= 1 && n < asked && (best === undefined || n > best)) best = n;
  }
  return best;
}

export class PageSize {
  private size: number;
  constructor(
    initial: number,
    private readonly trace: (line: string) => void = () => undefined,
    /** The list, named in the trace (`GET /api/v1/…/folders`). */
    private readonly list = 'this list',
  ) {
    this.size = initial;
  }

  get current(): number {
    return this.size;
  }

  /**
   * A list request asking `first=asked` failed with `e`: the smaller `first`
   * to ask again with, remembered for the run; undefined when `e` is not a
   * refusal of `first` or nothing smaller is left.
   */
  refused(asked: number, e: unknown): number | undefined {
    if (!refusesFirst(e) || asked <= 1) return undefined;
    const next = namedLimit(e.serverMessage ?? '', asked) ?? PAGE_SIZE_STEPS.find((s) => s < asked) ?? 1;
    if (next < this.size) {
      this.size = next;
      const why = (e as WscError).message;
      this.trace(
        `page size: the server refused first=${asked} (${why}); ` +
          `asking for ${next} per page of ${this.list} for the rest of this run`,
      );
    }
    return Math.min(next, this.size);
  }

  /** A page of `got` items where `asked` were asked for and the server says there is more: its cap. */
  short(asked: number, got: number): void {
    if (got < 1 || got >= asked || got >= this.size) return;
    this.size = got;
    this.trace(
      `page size: the server answered ${got} items for first=${asked} and has more; ` +
        `asking for ${got} per page of ${this.list} for the rest of this run`,
    );
  }
}

/** The page sizes of one client: each list (path) learns its own, starting from the one configured. */
export class PageSizes {
  private readonly lists = new Map<string, PageSize>();
  constructor(
    /** What every list asks for first (`--page-size`, WSC_PAGE_SIZE, else the default). */
    readonly initial: number,
    private readonly trace: (line: string) => void = () => undefined,
  ) {}

  /** The page size of the list at `path` (its query aside: the levels of the folder tree are one list). */
  of(path: string): PageSize {
    let s = this.lists.get(path);
    if (s === undefined) {
      s = new PageSize(this.initial, this.trace, `GET ${path}`);
      this.lists.set(path, s);
    }
    return s;
  }
}
