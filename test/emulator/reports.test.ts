import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_PUBLIC_ID_RE, PUBLIC_ID_RE } from '../../src/domain/wire.js';
import { defaultSeed, LEGACY_PLACEHOLDER, type SeedState } from '../../src/emulator/index.js';
import { d1, d2, start } from './helpers.js';

function legacySeed(): SeedState {
  const s = defaultSeed();
  s.reports = [
    { id: 500, deploymentId: 1, publicId: LEGACY_PLACEHOLDER, name: 'Old A' },
    { id: 501, deploymentId: 1, publicId: LEGACY_PLACEHOLDER, name: 'Old B' },
    { id: 502, deploymentId: 1, publicId: 'stableId0001', name: 'Stable' },
  ];
  return s;
}

describe('reports: create and update', () => {
  it('POST /reports generates a publicId when omitted (12 chars, never placeholder-shaped)', async () => {
    const { call } = await start();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await call('POST', `${d1}/reports`, { name: `r${i}`, source: 'PLAYGROUND' });
      expect(r.status).toBe(200);
      expect(r.body.publicId).toMatch(PUBLIC_ID_RE);
      expect(r.body.publicId).not.toMatch(PLACEHOLDER_PUBLIC_ID_RE);
      expect(r.body).toMatchObject({ type: 'REPORT', source: 'PLAYGROUND', version: 1, userId: 1, deploymentId: 1 });
      ids.add(r.body.publicId);
    }
    expect(ids.size).toBe(20);
  });

  it('keeps a caller-chosen publicId; 400 for the placeholder shape or a bad format', async () => {
    const { call } = await start();
    expect((await call('POST', `${d1}/reports`, { publicId: 'revqZ1x8Kp0a' })).body.publicId).toBe('revqZ1x8Kp0a');
    const ph = await call('POST', `${d1}/reports`, { publicId: '000000abcdef' });
    expect(ph.status).toBe(400);
    expect(ph.body.message).toMatch(/placeholder/);
    const short = await call('POST', `${d1}/reports`, { publicId: 'abc' });
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/^publicId: /);
    const put = await call('PUT', `${d1}/reports/${(await call('POST', `${d1}/reports`, {})).body.id}`, {
      publicId: '000000zzzzzz',
    });
    expect(put.status).toBe(400);
  });

  it('publicIds are unique across the account: 409 without code, also from another deployment', async () => {
    const { call } = await start();
    await call('POST', `${d1}/reports`, { publicId: 'sharedId0001' });
    const same = await call('POST', `${d1}/reports`, { publicId: 'sharedId0001' });
    expect(same.status).toBe(409);
    expect(same.body.code).toBeUndefined();
    const other = await call('POST', `${d2}/reports`, { publicId: 'sharedId0001' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBeUndefined();
    const up = await call('PUT', `${d2}/reports/by-public-id/sharedId0001`, { name: 'x' });
    expect(up.status).toBe(409);
    expect(up.body.code).toBeUndefined();
    expect(up.body.message).toMatch(/another deployment/);
  });

  it('publicId is write-once: changing it is 400, re-sending the same one is fine', async () => {
    const { call } = await start();
    const r = await call('POST', `${d1}/reports`, { publicId: 'onceOnly0001', name: 'a' });
    const change = await call('PUT', `${d1}/reports/${r.body.id}`, { publicId: 'onceOnly0002' });
    expect(change.status).toBe(400);
    expect(change.body.message).toMatch(/cannot be changed/);
    const same = await call('PUT', `${d1}/reports/${r.body.id}`, { publicId: 'onceOnly0001' });
    expect(same.status).toBe(200);
    expect(same.body.updatedAt).toBe(r.body.updatedAt);
  });

  it('a legacy report adopts a publicId by PUT /reports/{id}; a used one is 409', async () => {
    const { call } = await start({ seed: legacySeed() });
    const taken = await call('PUT', `${d1}/reports/500`, { publicId: 'stableId0001' });
    expect(taken.status).toBe(409);
    const r = await call('PUT', `${d1}/reports/500`, { publicId: 'adopted00001' });
    expect(r.status).toBe(200);
    expect(r.body.publicId).toBe('adopted00001');
    expect(r.body.version).toBe(2);
    const byId = await call('PUT', `${d1}/reports/by-public-id/adopted00001`, { title: 'T' });
    expect(byId.body.id).toBe(500);
    // Once adopted it is write-once like any other.
    expect((await call('PUT', `${d1}/reports/500`, { publicId: 'adopted00002' })).status).toBe(400);
  });

  it('legacy reports share one placeholder; an upsert by it is 409 ambiguous_legacy_id', async () => {
    const { call } = await start({ seed: legacySeed() });
    const list = await call('GET', `${d1}/reports`);
    expect(list.body.items.filter((r: { publicId: string }) => r.publicId === LEGACY_PLACEHOLDER)).toHaveLength(2);
    const r = await call('PUT', `${d1}/reports/by-public-id/${LEGACY_PLACEHOLDER}`, { name: 'x' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('ambiguous_legacy_id');
    // A placeholder-shaped id that no report shows is simply invalid.
    expect((await call('PUT', `${d1}/reports/by-public-id/000000nobody`, {})).status).toBe(400);
  });

  it('PUT /reports/{id} changes only the sent fields; the same body again is a no-op', async () => {
    const { call } = await start();
    const c = await call('POST', `${d1}/reports`, {
      name: 'n',
      title: 't',
      jsonQuery: '{"measures":["a"]}',
      meta: { chart: 'bar' },
      pivotItems: { columns: [], rows: ['r'], measures: ['a'], filters: [] },
    });
    const u = await call('PUT', `${d1}/reports/${c.body.id}`, { title: 't2', meta: { chart: 'line' } });
    expect(u.body).toMatchObject({
      name: 'n',
      title: 't2',
      jsonQuery: '{"measures":["a"]}',
      meta: { chart: 'line' },
      version: 2,
    });
    expect(u.body.pivotItems).toEqual(c.body.pivotItems);
    expect(u.body.updatedAt > c.body.updatedAt).toBe(true);
    const again = await call('PUT', `${d1}/reports/${c.body.id}`, { title: 't2', meta: { chart: 'line' } });
    expect(again.body.updatedAt).toBe(u.body.updatedAt);
    expect(again.body.version).toBe(2);
    // source is create-only: ignored on update.
    const src = await call('PUT', `${d1}/reports/${c.body.id}`, { source: 'EXCEL' });
    expect(src.status).toBe(200);
    expect(src.body.source).toBeNull();
    expect(src.body.updatedAt).toBe(u.body.updatedAt);
  });

  it('expectedVersion: 409 when stale', async () => {
    const { call } = await start();
    const c = await call('POST', `${d1}/reports`, { name: 'v' });
    expect((await call('PUT', `${d1}/reports/${c.body.id}`, { name: 'v2', expectedVersion: 1 })).status).toBe(200);
    const stale = await call('PUT', `${d1}/reports/${c.body.id}`, { name: 'v3', expectedVersion: 1 });
    expect(stale.status).toBe(409);
  });

  it('GET and DELETE /reports/{id}; 404 for unknown or another deployment', async () => {
    const { call } = await start();
    const c = await call('POST', `${d1}/reports`, { name: 'g' });
    expect((await call('GET', `${d1}/reports/${c.body.id}`)).body.name).toBe('g');
    expect((await call('GET', `${d2}/reports/${c.body.id}`)).status).toBe(404);
    expect((await call('PUT', `${d1}/reports/777777`, {})).status).toBe(404);
    expect((await call('DELETE', `${d1}/reports/${c.body.id}`)).body).toEqual({});
    expect((await call('GET', `${d1}/reports/${c.body.id}`)).status).toBe(404);
    // The deleted report's publicId is free again.
    expect((await call('POST', `${d1}/reports`, { publicId: c.body.publicId })).status).toBe(200);
  });

  it('a report in a workbook or folder: 404 for a workbook of another deployment, folderPath lists ancestors', async () => {
    const seed = defaultSeed();
    seed.folders = [
      { id: 10, deploymentId: 1, name: 'Finance' },
      { id: 11, deploymentId: 1, name: 'Q1', parentId: 10 },
    ];
    const { call } = await start({ seed });
    const wb = await call('POST', `${d2}/workbooks`, { name: 'elsewhere' });
    expect((await call('POST', `${d1}/reports`, { workbookId: wb.body.id })).status).toBe(404);
    expect((await call('POST', `${d1}/reports`, { folderId: 999 })).status).toBe(404);
    const r = await call('POST', `${d1}/reports`, { folderId: 11 });
    expect(r.body.folderPath).toEqual([
      { id: 10, name: 'Finance' },
      { id: 11, name: 'Q1' },
    ]);
  });
});

describe('PUT /reports/by-public-id/{publicId}', () => {
  it('creates with that publicId, then updates only the sent fields; source ignored on update', async () => {
    const { call } = await start();
    const a = await call('PUT', `${d1}/reports/by-public-id/upsertId0001`, {
      name: 'A',
      source: 'D3',
      sqlQuery: 'select 1',
    });
    expect(a.body).toMatchObject({ publicId: 'upsertId0001', name: 'A', source: 'D3', sqlQuery: 'select 1' });
    const b = await call('PUT', `${d1}/reports/by-public-id/upsertId0001`, { title: 'T', source: 'EXCEL' });
    expect(b.body).toMatchObject({ id: a.body.id, name: 'A', title: 'T', source: 'D3', sqlQuery: 'select 1' });
    const c = await call('PUT', `${d1}/reports/by-public-id/upsertId0001`, { title: 'T' });
    expect(c.body.updatedAt).toBe(b.body.updatedAt);
    expect((await call('PUT', `${d1}/reports/by-public-id/upsertId0001`, { publicId: 'otherId00001' })).status).toBe(
      400,
    );
    expect((await call('PUT', `${d1}/reports/by-public-id/short`, {})).status).toBe(400);
  });
});
