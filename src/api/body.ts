// Reading an answer's body as text, bounded twice: one answer by the client's
// size cap, and the pages of every list one command reads by a budget of bytes
// in all (`--max-list-bytes`), counted as the bytes arrive, so that pages
// without end, each under the cap, cannot hold memory without end.
import type { Dispatcher } from 'undici';

/** One answer over the size cap. */
export class TooLarge extends Error {}
/** The list answers of the command over their budget. */
export class ListsTooLarge extends Error {}

/** Bytes of list answers read so far by one client, and at most. */
export interface ListBudget {
  used: number;
  readonly max: number;
}

export async function readBody(
  res: Dispatcher.ResponseData,
  maxBody: number,
  budget: ListBudget | undefined,
): Promise<string> {
  const header = res.headers['content-length'];
  const declared = Number(Array.isArray(header) ? header[0] : header);
  if (Number.isFinite(declared) && declared > maxBody) {
    res.body.destroy();
    throw new TooLarge();
  }
  if (budget && Number.isFinite(declared) && budget.used + declared > budget.max) {
    res.body.destroy();
    throw new ListsTooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > maxBody) {
      res.body.destroy();
      throw new TooLarge();
    }
    if (budget) {
      budget.used += b.length;
      if (budget.used > budget.max) {
        res.body.destroy();
        throw new ListsTooLarge();
      }
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
