import { describe, expect, it } from 'vitest';
import { chart, d1, d2, draft, start } from './helpers.js';

describe('workbooks: create and upsert by slug', () => {
  it('POST /workbooks creates a workbook with every required field', async () => {
    const { call } = await start();
    const r = await call('POST', `${d1}/workbooks`, { name: 'Sales', meta: { owner: 'x' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      deploymentId: 1,
      name: 'Sales',
      meta: { owner: 'x' },
      calculatedFields: {},
      type: 'WORKBOOK',
      slug: null,
    });
    expect(typeof r.body.id).toBe('number');
    expect(r.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('normalises the slug (trim + lowercase) before matching', async () => {
    const { call } = await start();
    const a = await call('PUT', `${d1}/workbooks/by-slug/${encodeURIComponent('  Revenue-Overview ')}`, {
      name: 'Revenue',
    });
    expect(a.status).toBe(200);
    expect(a.body.slug).toBe('revenue-overview');
    const b = await call('PUT', `${d1}/workbooks/by-slug/REVENUE-overview`, { name: 'Revenue 2' });
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.name).toBe('Revenue 2');
    const list = await call('GET', `${d1}/workbooks`);
    expect(list.body.items.filter((w: { slug: string }) => w.slug === 'revenue-overview')).toHaveLength(1);
  });

  it('changes only the fields sent and merges meta by top-level key', async () => {
    const { call } = await start();
    await call('PUT', `${d1}/workbooks/by-slug/wb`, { name: 'One', meta: { a: 1, b: { x: 1 } } });
    const r = await call('PUT', `${d1}/workbooks/by-slug/wb`, { meta: { b: { y: 2 }, c: 3 } });
    expect(r.body.name).toBe('One');
    expect(r.body.meta).toEqual({ a: 1, b: { y: 2 }, c: 3 });
    const r2 = await call('PUT', `${d1}/workbooks/by-slug/wb`);
    expect(r2.status).toBe(200);
    expect(r2.body.meta).toEqual({ a: 1, b: { y: 2 }, c: 3 });
  });

  it('re-applying the same body is a no-op: updatedAt unchanged; a real change moves it forward', async () => {
    const { call } = await start();
    const body = {
      name: 'Same',
      meta: { dashboardDraft: draft([{ type: 'TEXT', position: { x: 0, y: 0, w: 2, h: 2 } }]) },
    };
    const a = await call('PUT', `${d1}/workbooks/by-slug/same`, body);
    const b = await call('PUT', `${d1}/workbooks/by-slug/same`, body);
    expect(b.body.updatedAt).toBe(a.body.updatedAt);
    expect(b.body.meta).toEqual(a.body.meta);
    const c = await call('PUT', `${d1}/workbooks/by-slug/same`, { name: 'Changed' });
    expect(c.body.updatedAt > b.body.updatedAt).toBe(true);
    // updatedAt strictly increases even for changes within one millisecond.
    const stamps: string[] = [];
    for (let i = 0; i < 5; i++)
      stamps.push((await call('PUT', `${d1}/workbooks/by-slug/same`, { name: `n${i}` })).body.updatedAt);
    expect(new Set(stamps).size).toBe(5);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('updatedAt follows even a seeded timestamp in the future', async () => {
    const seed = (await import('../../src/emulator/index.js')).defaultSeed();
    seed.workbooks = [{ id: 100, deploymentId: 1, slug: 'future', updatedAt: '2999-01-01T00:00:00.000Z' }];
    const { call } = await start({ seed });
    const r = await call('PUT', `${d1}/workbooks/by-slug/future`, { name: 'now' });
    expect(r.body.updatedAt > '2999-01-01T00:00:00.000Z').toBe(true);
  });

  it('validates meta.dashboardDraft: 400 naming the field path', async () => {
    const { call, emu } = await start();
    const bad = { meta: { dashboardDraft: { widgets: [{ type: 'CHART', position: { x: 0, y: 0, w: 1 } }] } } };
    const r = await call('PUT', `${d1}/workbooks/by-slug/bad`, bad);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('meta.dashboardDraft.widgets[0].position.h: required');
    const r2 = await call('POST', `${d1}/workbooks`, { meta: { dashboardDraft: { kind: 'NOPE' } } });
    expect(r2.status).toBe(400);
    expect(r2.body.message).toMatch(/^meta\.dashboardDraft\.kind: /);
    expect(emu.snapshot().workbooks).toHaveLength(0);
  });

  it('assigns ids to draft widgets sent without one, the same ids on re-apply', async () => {
    const { call } = await start();
    const body = {
      meta: {
        dashboardDraft: draft([
          { type: 'TEXT', position: { x: 0, y: 0, w: 2, h: 2 } },
          { id: 'mine', type: 'DIVIDER', position: { x: 0, y: 2, w: 2, h: 1 } },
        ]),
      },
    };
    const a = await call('PUT', `${d1}/workbooks/by-slug/ids`, body);
    const ids = a.body.dashboardDraft.widgets.map((w: { id: string }) => w.id);
    expect(ids[0]).toMatch(/^w-[0-9a-f]{10}$/);
    expect(ids[1]).toBe('mine');
    expect(a.body.meta.dashboardDraft).toEqual(a.body.dashboardDraft);
    const b = await call('PUT', `${d1}/workbooks/by-slug/ids`, body);
    expect(b.body.dashboardDraft.widgets.map((w: { id: string }) => w.id)).toEqual(ids);
    expect(b.body.updatedAt).toBe(a.body.updatedAt);
  });

  it('answers 404 for an unknown deployment on every deployment route', async () => {
    const { call } = await start();
    const routes: [string, string, unknown?][] = [
      ['PUT', '/api/v1/deployments/99/workbooks/by-slug/x', {}],
      ['POST', '/api/v1/deployments/99/workbooks', {}],
      ['GET', '/api/v1/deployments/99/workbooks'],
      ['GET', '/api/v1/deployments/99/workbooks/1'],
      ['DELETE', '/api/v1/deployments/99/workbooks/1'],
      ['POST', '/api/v1/deployments/99/workbooks/1/publish', { workbookId: 1 }],
      ['GET', '/api/v1/deployments/99/reports'],
      ['POST', '/api/v1/deployments/99/reports', {}],
      ['PUT', '/api/v1/deployments/99/reports/1', {}],
      ['PUT', '/api/v1/deployments/99/reports/by-public-id/abcdefghijkl', {}],
      ['GET', '/api/v1/deployments/99/reports/1'],
      ['DELETE', '/api/v1/deployments/99/reports/1'],
    ];
    for (const [m, p, b] of routes) {
      const r = await call(m, p, b);
      expect([m, p, r.status]).toEqual([m, p, 404]);
      expect(r.body.message).toBe('Deployment 99 not found');
    }
  });

  it('GET /workbooks lists every workbook in any folder, paged by cursor; GET/DELETE by id', async () => {
    const seed = (await import('../../src/emulator/index.js')).generateSeed({ reports: 0, workbooks: 7, folders: 4 });
    const { call } = await start({ seed });
    const ids: number[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await call('GET', `${d1}/workbooks?first=3${after ? `&after=${after}` : ''}`);
      expect(r.body.count).toBe(7);
      ids.push(...r.body.items.map((w: { id: number }) => w.id));
      pages++;
      if (!r.body.pageInfo.hasNextPage) break;
      after = r.body.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(ids).toEqual([100, 101, 102, 103, 104, 105, 106]);
    const inFolder = await call('GET', `${d1}/workbooks?folderId=11`);
    expect(inFolder.body.items.every((w: { folderId: number }) => w.folderId === 11)).toBe(true);
    const one = await call('GET', `${d1}/workbooks/101`);
    expect(one.body).toMatchObject({ id: 101, slug: 'workbook-2', folderPath: [{ id: 11, name: 'Folder 2' }] });
    expect((await call('DELETE', `${d1}/workbooks/101`)).body).toEqual({});
    expect((await call('GET', `${d1}/workbooks/101`)).status).toBe(404);
    expect((await call('GET', `${d2}/workbooks/102`)).status).toBe(404);
    expect((await call('GET', `${d1}/workbooks/abc`)).status).toBe(400);
  });
});

describe('publish', () => {
  it('publishes the saved draft: Dashboard record, snapshots of chart reports, versionNumber increments', async () => {
    const { call } = await start();
    const rep = await call('POST', `${d1}/reports`, { name: 'R', publicId: 'pubA00000001' });
    const wb = await call('PUT', `${d1}/workbooks/by-slug/dash`, {
      meta: { dashboardDraft: draft([chart('c1', rep.body.id)]) },
    });
    const id = wb.body.id;
    const p1 = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id });
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({
      deploymentId: 1,
      workbookId: id,
      status: 'published',
      allowEmbed: false,
      versionNumber: 1,
    });
    expect(p1.body.reportSnapshots).toEqual([expect.objectContaining({ reportId: rep.body.id, versionNumber: 1 })]);
    const after1 = await call('GET', `${d1}/workbooks/${id}`);
    expect(after1.body.dashboardPublished).toEqual(wb.body.dashboardDraft);
    expect(after1.body.publishedDashboard).toEqual(p1.body);
    // Same draft again: idempotent, nothing changes.
    const again = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id });
    expect(again.body.versionNumber).toBe(1);
    expect((await call('GET', `${d1}/workbooks/${id}`)).body.updatedAt).toBe(after1.body.updatedAt);
    // A new draft: a new version of the same dashboard.
    await call('PUT', `${d1}/workbooks/by-slug/dash`, {
      meta: { dashboardDraft: draft([chart('c1', rep.body.id), chart('c2', rep.body.id, 4)]) },
    });
    const p2 = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id });
    expect(p2.body).toMatchObject({ id: p1.body.id, publicId: p1.body.publicId, versionNumber: 2 });
    expect(p2.body.versionId).toBeGreaterThan(p1.body.versionId);
    expect(p2.body.reportSnapshots).toHaveLength(2);
    // An explicit config is published as given.
    const cfg = draft([{ id: 't', type: 'TEXT', position: { x: 0, y: 0, w: 1, h: 1 } }]);
    const p3 = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id, config: cfg, allowEmbed: true });
    expect(p3.body).toMatchObject({ versionNumber: 3, allowEmbed: true, config: cfg, reportSnapshots: [] });
  });

  it('400 without workbookId, with another workbookId, without a draft, or with a dangling report id', async () => {
    const { call } = await start();
    const wb = await call('PUT', `${d1}/workbooks/by-slug/nodraft`, { name: 'n' });
    const id = wb.body.id;
    const missing = await call('POST', `${d1}/workbooks/${id}/publish`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('workbookId: required');
    const other = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id + 1 });
    expect(other.status).toBe(400);
    const none = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id });
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/no dashboard draft/);
    await call('PUT', `${d1}/workbooks/by-slug/nodraft`, { meta: { dashboardDraft: draft([chart('c', 424242)]) } });
    const dangling = await call('POST', `${d1}/workbooks/${id}/publish`, { workbookId: id });
    expect(dangling.status).toBe(400);
    expect(dangling.body.message).toMatch(/report 424242 not found/);
    expect((await call('POST', `${d1}/workbooks/9999/publish`, { workbookId: 9999 })).status).toBe(404);
  });
});
