// A list that ends with fewer items than the `count` it stated is reported
// as a short read (the planner then plans no delete); one that holds its
// count is not.
import { describe, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { readLiveState } from '../../src/api/live.js';
import { json, page, report, serve } from './server.js';

async function readWith(reportCount: number, workbookCount: number) {
  const server = await serve((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname.endsWith('/reports'))
      return json(res, 200, { ...page([report(1), report(2)], { hasNextPage: false }), count: reportCount });
    if (url.pathname.endsWith('/workbooks'))
      return json(res, 200, { ...page([], { hasNextPage: false }), count: workbookCount });
    return json(res, 200, page([], { hasNextPage: false }));
  });
  const client = new ApiClient({ baseUrl: server.url, token: 'tok-1234', connections: 2 });
  try {
    return await readLiveState(client, 1);
  } finally {
    await client.close();
  }
}

describe('short reads', () => {
  test('fewer items than the count: named with both figures', async () => {
    const live = await readWith(3, 1);
    expect(live.reports).toHaveLength(2);
    expect(live.shortReads).toEqual(['reports: 2 of 3', 'workbooks: 0 of 1']);
  });

  test('as many as the count (or more): not short', async () => {
    expect((await readWith(2, 0)).shortReads).toBeUndefined();
    expect((await readWith(1, 0)).shortReads).toBeUndefined();
  });
});
