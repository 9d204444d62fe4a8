import { describe, expect, it } from 'vitest';
import { defaultSeed, generateSeed, type SeedState } from '../../src/emulator/index.js';
import { d1, start, type Client } from './helpers.js';

/** Walks every page of GET /reports with these params; returns ids in order. */
async function walk(c: Client, params: string, between?: (page: number) => Promise<void>): Promise<number[]> {
  const ids: number[] = [];
  let after: string | undefined;
  for (let page = 0; ; page++) {
    const r = await c.call('GET', `${d1}/reports?${params}${after ? `&after=${after}` : ''}`);
    expect(r.status).toBe(200);
    ids.push(...r.body.items.map((x: { id: number }) => x.id));
    if (!r.body.pageInfo.hasNextPage) break;
    after = r.body.pageInfo.endCursor;
    if (between) await between(page);
  }
  return ids;
}

function namedSeed(names: string[]): SeedState {
  const s = defaultSeed();
  s.reports = names.map((name, i) => ({
    id: 1000 + i,
    deploymentId: 1,
    name,
    // Pairs share a createdAt so ties are broken by id.
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(i / 2))).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 2, 0, names.length - i)).toISOString(),
  }));
  return s;
}

describe('GET /reports paging', () => {
  it('first must be an integer >= 1; a larger one is clamped to maxPageSize', async () => {
    const c = await start({ seed: generateSeed({ reports: 30, workbooks: 0 }), maxPageSize: 10 });
    for (const bad of ['0', '-1', 'x', '1.5', '']) {
      const r = await c.call('GET', `${d1}/reports?first=${bad}`);
      expect([bad, r.status]).toEqual([bad, 400]);
    }
    const big = await c.call('GET', `${d1}/reports?first=1000`);
    expect(big.body.items).toHaveLength(10);
    expect(big.body.count).toBe(30);
    expect(big.body.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('defaults: createdAt ASC, ties by id; page size 100 without first', async () => {
    const c = await start({ seed: generateSeed({ reports: 150, workbooks: 0 }) });
    const r = await c.call('GET', `${d1}/reports`);
    expect(r.body.items).toHaveLength(100);
    expect(r.body.items[0].id).toBe(1000);
    const t = await start({ seed: namedSeed(['b', 'a', 'd', 'c']) });
    expect(await walk(t, 'first=1')).toEqual([1000, 1001, 1002, 1003]);
  });

  it('sortBy name|createdAt|updatedAt and sortDirection ASC|DESC, stable over every page', async () => {
    const c = await start({ seed: namedSeed(['b', 'a', 'd', 'c', 'a', 'b']) });
    expect(await walk(c, 'first=2&sortBy=name')).toEqual([1001, 1004, 1000, 1005, 1003, 1002]);
    expect(await walk(c, 'first=2&sortBy=name&sortDirection=DESC')).toEqual([1002, 1003, 1005, 1000, 1004, 1001]);
    expect(await walk(c, 'first=4&sortBy=createdAt&sortDirection=DESC')).toEqual([1005, 1004, 1003, 1002, 1001, 1000]);
    expect(await walk(c, 'first=5&sortBy=updatedAt')).toEqual([1005, 1004, 1003, 1002, 1001, 1000]);
    expect((await c.call('GET', `${d1}/reports?sortBy=size`)).status).toBe(400);
    expect((await c.call('GET', `${d1}/reports?sortDirection=UP`)).status).toBe(400);
  });

  it('lastViewedAt: sorting works without a cursor; after together with it is 400', async () => {
    const c = await start({ seed: namedSeed(['a', 'b', 'c']) });
    await c.call('GET', `${d1}/reports/1002`);
    await c.call('GET', `${d1}/reports/1000`);
    const r = await c.call('GET', `${d1}/reports?sortBy=lastViewedAt&sortDirection=DESC`);
    expect(r.body.items.map((x: { id: number }) => x.id)).toEqual([1000, 1002, 1001]);
    expect(r.body.pageInfo.endCursor).toBeNull();
    const cur = (await c.call('GET', `${d1}/reports?first=1`)).body.pageInfo.endCursor;
    const bad = await c.call('GET', `${d1}/reports?sortBy=lastViewedAt&after=${cur}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/lastViewedAt/);
  });

  it('cursors are opaque and checked: garbage or a cursor of another sort is 400', async () => {
    const c = await start({ seed: namedSeed(['a', 'b', 'c']) });
    const page = await c.call('GET', `${d1}/reports?first=1`);
    const cur: string = page.body.pageInfo.endCursor;
    expect(cur).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cur).not.toMatch(/^\d+$/);
    for (const bad of ['nope!', 'bm9wZQ', Buffer.from('{"s":"createdAt"}').toString('base64url')]) {
      expect((await c.call('GET', `${d1}/reports?after=${encodeURIComponent(bad)}`)).status).toBe(400);
    }
    expect((await c.call('GET', `${d1}/reports?sortBy=name&after=${cur}`)).status).toBe(400);
    const p2 = await c.call('GET', `${d1}/reports?first=1&after=${cur}`);
    expect(p2.body.pageInfo.hasPreviousPage).toBe(true);
  });

  it('legacy limit/page works; mixing it with first/after is 400', async () => {
    const c = await start({ seed: generateSeed({ reports: 25, workbooks: 0 }) });
    const p3 = await c.call('GET', `${d1}/reports?limit=10&page=3`);
    expect(p3.body.items.map((x: { id: number }) => x.id)).toEqual([1020, 1021, 1022, 1023, 1024]);
    expect(p3.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect((await c.call('GET', `${d1}/reports?limit=10&first=5`)).status).toBe(400);
    const cur = (await c.call('GET', `${d1}/reports?first=1`)).body.pageInfo.endCursor;
    expect((await c.call('GET', `${d1}/reports?page=2&after=${cur}`)).status).toBe(400);
  });

  it('keyset cursors stay correct while reports are inserted and deleted between pages', async () => {
    const c = await start({ seed: generateSeed({ reports: 40, workbooks: 0 }) });
    const created: number[] = [];
    const ids = await walk(c, 'first=7', async (page) => {
      // Delete one already seen and one not yet seen; insert new ones (they sort last).
      const del = [1000 + page, 1039 - page];
      for (const id of del) await c.call('DELETE', `${d1}/reports/${id}`);
      created.push((await c.call('POST', `${d1}/reports`, { name: `new ${page}` })).body.id);
    });
    const deletedUnseen = new Set([1039, 1038, 1037, 1036, 1035]);
    const expected = [
      ...Array.from({ length: 40 }, (_, i) => 1000 + i).filter((id) => !deletedUnseen.has(id)),
      ...created,
    ];
    // Every surviving original appears exactly once, in order, then the new ones.
    expect(ids.filter((id) => id < 2000 && id < 1040)).toEqual(expected.filter((id) => id < 1040));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(-created.length)).toEqual(created);
  });

  it('a deleted cursor item does not break the next page (and sorting by name too)', async () => {
    const c = await start({ seed: namedSeed(['e', 'd', 'c', 'b', 'a']) });
    const p1 = await c.call('GET', `${d1}/reports?first=2&sortBy=name`);
    expect(p1.body.items.map((x: { name: string }) => x.name)).toEqual(['a', 'b']);
    await c.call('DELETE', `${d1}/reports/${p1.body.items[1].id}`);
    await c.call('PUT', `${d1}/reports/1004`, { name: 'zz' });
    const p2 = await c.call('GET', `${d1}/reports?first=10&sortBy=name&after=${p1.body.pageInfo.endCursor}`);
    // 'a' renamed to 'zz' now sorts after the cursor, so keyset paging shows it again, last.
    expect(p2.body.items.map((x: { name: string }) => x.name)).toEqual(['c', 'd', 'e', 'zz']);
  });

  it('10k reports: every page found, count right, ids all distinct', async () => {
    const c = await start({ seed: generateSeed({ reports: 10_000, workbooks: 10 }), logResponses: false });
    const ids = await walk(c, 'first=500&sortBy=updatedAt&sortDirection=DESC');
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids[0]).toBe(10_999);
  });
});

describe('other lists', () => {
  it('user attributes: newest first, paged, with count', async () => {
    const c = await start();
    for (const n of ['a', 'b', 'c', 'd', 'e'])
      expect((await c.call('POST', '/api/v1/user-attributes', { name: n, type: 'string' })).status).toBe(200);
    const p1 = await c.call('GET', '/api/v1/user-attributes?first=2');
    expect(p1.body.items.map((x: { name: string }) => x.name)).toEqual(['e', 'd']);
    expect(p1.body.count).toBe(5);
    const p2 = await c.call('GET', `/api/v1/user-attributes?first=10&after=${p1.body.pageInfo.endCursor}`);
    expect(p2.body.items.map((x: { name: string }) => x.name)).toEqual(['c', 'b', 'a']);
    expect(p2.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('list pages never serve a cached item text after a write (item texts are cached per store revision and caller)', async () => {
    const c = await start({ seed: generateSeed({ reports: 3, workbooks: 2 }) });
    const names = async () =>
      (await c.call('GET', `${d1}/reports?first=10`)).body.items.map((r: { name: string }) => r.name);
    const before = await names();
    const id = (await c.call('GET', `${d1}/reports?first=1`)).body.items[0].id;
    expect((await c.call('PUT', `${d1}/reports/${id}`, { name: 'renamed' })).status).toBe(200);
    expect(await names()).toEqual(['renamed', ...before.slice(1)]);
    const wb = (await c.call('GET', `${d1}/workbooks?first=10`)).body.items[0];
    expect((await c.call('PUT', `${d1}/workbooks/by-slug/${wb.slug}`, { name: 'wb renamed' })).status).toBe(200);
    expect((await c.call('GET', `${d1}/workbooks?first=10`)).body.items[0].name).toBe('wb renamed');
  });
});
