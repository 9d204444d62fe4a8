// How long a list may be. A server that pages forever with fresh items would
// otherwise grow a plan without end, or make export write files without end:
// every list stops at its own `count` (as its first page gave it) plus a
// margin for items created while it is read, and never goes past an absolute
// ceiling (`--max-list-items`, WSC_MAX_LIST_ITEMS) for lists that give no count.
// What is read as many lists (the folder tree, a list of workbooks per folder)
// is bounded as one, by the ceiling.
import { MAX_LIST_ITEMS } from '../defaults.js';
import { ApiError, type ApiCode } from '../errors.js';

/** Error code of a list that went past its bound. */
export const LIST_TOO_LONG: ApiCode = 'list_too_long';

/** Items a list may gain while it is read, beyond the count its first page gave. */
export function listMargin(count: number): number {
  return Math.max(1_000, Math.ceil(count / 10));
}

export interface ListOverrun {
  message: string;
  hint: string;
}

/** Counts one list's items and pages; `page` says when the list went past its bound. */
export class ListBound {
  private count: number | undefined;
  private items = 0;
  private pages = 0;

  constructor(private readonly ceiling: number = MAX_LIST_ITEMS) {}

  /** The most items this list may have, as far as it is known now. */
  get limit(): number {
    return this.count === undefined ? this.ceiling : Math.min(this.ceiling, this.count + listMargin(this.count));
  }

  page(count: unknown, items: number): ListOverrun | undefined {
    this.pages++;
    this.items += items;
    const given = typeof count === 'number' && Number.isSafeInteger(count) && count >= 0;
    if (this.count === undefined && given) this.count = count;
    if (this.items <= this.limit) return undefined;
    const said = this.count === undefined ? 'gave no count' : `said it had ${this.count}`;
    const pages = `${this.pages} page${this.pages === 1 ? '' : 's'}`;
    return {
      message:
        `the list went past ${this.limit} items (${this.items} in ${pages} read; its first page ${said}); ` +
        'the server seems to page forever, so it was not read further.',
      hint:
        this.count !== undefined && this.limit < this.ceiling
          ? 'The server listed far more items than its count: a server bug; report it with the output of --verbose.'
          : `If the list really is this long, raise --max-list-items or WSC_MAX_LIST_ITEMS (now ${this.ceiling}).`,
    };
  }
}

/** The error of a list (`what`: its request, or the lists read as one) past its bound. */
function listTooLong(path: string, what: string, overrun: ListOverrun): ApiError {
  const init = { method: 'GET', path, status: 200, code: LIST_TOO_LONG };
  return new ApiError(init, `${what}: ${overrun.message}`, { hint: overrun.hint });
}

/** Several lists read as one, bounded by the ceiling alone: `onPage` throws once they are past it. */
export function sharedBound(path: string, what: string, ceiling: number): (items: number) => void {
  const bound = new ListBound(ceiling);
  return (items) => {
    const overrun = bound.page(undefined, items);
    if (overrun) throw listTooLong(path, what, overrun);
  };
}
