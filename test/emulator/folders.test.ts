import { describe, expect, it } from 'vitest';
import { Folder, FoldersList } from '../../src/domain/wire.js';
import { defaultSeed, type SeedState } from '../../src/emulator/index.js';
import { start } from './helpers.js';

const F = '/api/v1/deployments/1/folders';

function seed(): SeedState {
  const s = defaultSeed();
  s.users.push({ id: 4, email: 'editor@example.com', role: 'ai-bi-user', tokens: ['editor-token'] });
  s.folders = [
    { id: 10, deploymentId: 1, name: 'Shared' },
    { id: 11, deploymentId: 1, name: 'Team', parentId: 10 },
    { id: 12, deploymentId: 1, name: 'Open' },
    { id: 13, deploymentId: 1, name: 'Hidden' },
    { id: 14, deploymentId: 2, name: 'Elsewhere' },
  ];
  s.grants = [
    { userId: 4, resourceType: 'folder', resourceId: 11, level: 'view' },
    { userId: 4, resourceType: 'folder', resourceId: 12, level: 'edit' },
  ];
  s.workbooks = [{ id: 100, deploymentId: 1, slug: 'in-team', name: 'In team', folderId: 11 }];
  s.reports = [{ id: 1000, deploymentId: 1, publicId: 'inTeamRep001', name: 'r', folderId: 11 }];
  return s;
}

describe('GET /folders', () => {
  it('lists one level by parentId, in the description shape, paged with an opaque cursor', async () => {
    const c = await start({ seed: seed() });
    const root = await c.call('GET', `${F}?first=2`);
    expect(root.status).toBe(200);
    FoldersList.parse(root.body);
    expect(root.body.items.map((f: Folder) => f.name)).toEqual(['Shared', 'Open']);
    expect(root.body.data).toEqual(root.body.items);
    expect(root.body.count).toBe(3);
    expect(root.body.pageInfo.hasNextPage).toBe(true);
    const next = await c.call('GET', `${F}?first=2&after=${root.body.pageInfo.endCursor}`);
    expect(next.body.items.map((f: Folder) => f.name)).toEqual(['Hidden']);
    expect(next.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const child = await c.call('GET', `${F}?parentId=10`);
    expect(child.body.items).toEqual([
      expect.objectContaining({
        id: 11,
        name: 'Team',
        parentId: 10,
        type: 'FOLDER',
        deploymentId: 1,
        position: 0,
        folderPath: [
          { id: 10, name: 'Shared' },
          { id: 11, name: 'Team' },
        ],
      }),
    ]);
    expect((await c.call('GET', `${F}?parentId=14`)).status).toBe(404);
    expect((await c.call('GET', `${F}?after=nope`)).status).toBe(400);
  });

  it('shows a non-admin only the folders it may see, and the ancestors of what it sees as navigation', async () => {
    const c = await start({ seed: seed() });
    const root = await c.call('GET', F, undefined, { token: 'editor-token' });
    expect(root.body.items.map((f: Folder) => f.name)).toEqual(['Shared', 'Open']);
    const viewer = await c.call('GET', F, undefined, { token: 'viewer-token' });
    expect(viewer.body.items).toEqual([]);
  });
});

describe('POST /folders', () => {
  it('creates at the root or under a parent; names may repeat under one parent', async () => {
    const c = await start({ seed: seed() });
    const a = await c.call('POST', F, { name: 'Finance' });
    expect(a.status).toBe(200);
    Folder.parse(a.body);
    expect(a.body).toMatchObject({
      name: 'Finance',
      parentId: null,
      type: 'FOLDER',
      folderPath: [{ id: a.body.id, name: 'Finance' }],
    });
    const b = await c.call('POST', F, { name: 'Finance' });
    expect(b.body.id).toBeGreaterThan(a.body.id);
    const child = await c.call('POST', F, { name: 'Q1 / Q2 ', parentId: a.body.id });
    expect(child.body).toMatchObject({ parentId: a.body.id, name: 'Q1 / Q2 ' });
  });

  it('needs edit access to the parent and the AI BI User role; validates the body', async () => {
    const c = await start({ seed: seed() });
    expect((await c.call('POST', F, { name: 'x', parentId: 12 }, { token: 'editor-token' })).status).toBe(200);
    const refused = await c.call('POST', F, { name: 'x', parentId: 11 }, { token: 'editor-token' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/edit access to folder 11/);
    expect((await c.call('POST', F, { name: 'x' }, { token: 'viewer-token' })).status).toBe(403);
    expect((await c.call('POST', F, { name: 'x', parentId: 14 })).status).toBe(404);
    expect((await c.call('POST', F, {})).status).toBe(400);
    expect((await c.call('POST', F, { name: 'x'.repeat(256) })).status).toBe(400);
  });

  it('refuses nesting past the maximum depth', async () => {
    const c = await start({ seed: seed() });
    let parent: number | null = null;
    for (let i = 0; i < 10; i++) parent = (await c.call('POST', F, { name: `L${i}`, parentId: parent })).body.id;
    expect((await c.call('POST', F, { name: 'too deep', parentId: parent })).status).toBe(400);
  });

  it('takes injected faults like every other route (a reset after the create commits)', async () => {
    const c = await start({ seed: seed(), faults: { script: [{ method: 'POST', path: F, fault: 'reset-after' }] } });
    await expect(c.call('POST', F, { name: 'Lost answer' })).rejects.toThrow();
    const root = await c.call('GET', F);
    expect(root.body.items.map((f: Folder) => f.name)).toContain('Lost answer');
  });
});

describe('GET /folders/{id}/ancestors and DELETE /folders/{id}', () => {
  it('ancestors: Folder[] from the root down to the folder itself', async () => {
    const c = await start({ seed: seed() });
    const r = await c.call('GET', `${F}/11/ancestors`);
    expect(r.status).toBe(200);
    expect(r.body.map((f: Folder) => [f.id, f.name])).toEqual([
      [10, 'Shared'],
      [11, 'Team'],
    ]);
    for (const f of r.body) Folder.parse(f);
    expect((await c.call('GET', `${F}/14/ancestors`)).status).toBe(404);
  });

  it('delete: 400 while it holds folders; its workbooks and reports move to the root', async () => {
    const c = await start({ seed: seed() });
    expect((await c.call('DELETE', `${F}/10`)).status).toBe(400);
    expect((await c.call('DELETE', `${F}/11`, undefined, { token: 'editor-token' })).status).toBe(403);
    expect((await c.call('DELETE', `${F}/11`)).status).toBe(200);
    const snap = c.emu.snapshot();
    expect(snap.folders!.map((f) => f.id)).not.toContain(11);
    expect(snap.workbooks![0]!.folderId).toBeNull();
    expect(snap.reports![0]!.folderId).toBeNull();
  });
});

describe('folderPath and the workbook listing', () => {
  it('workbooks and reports carry folderPath from the root down to their folder', async () => {
    const c = await start({ seed: seed() });
    const wb = await c.call('GET', '/api/v1/deployments/1/workbooks/100');
    expect(wb.body.folderPath).toEqual([
      { id: 10, name: 'Shared' },
      { id: 11, name: 'Team' },
    ]);
    const rep = await c.call('GET', '/api/v1/deployments/1/reports/1000');
    expect(rep.body.folderPath).toEqual([
      { id: 10, name: 'Shared' },
      { id: 11, name: 'Team' },
    ]);
  });

  it.each([
    ['all', [100, 101]],
    ['root-only', [101]],
  ] as const)(
    'workbookListing %s: GET /workbooks without folderId lists %j; with folderId, that folder',
    async (workbookListing, ids) => {
      const s = seed();
      s.workbooks!.push({ id: 101, deploymentId: 1, slug: 'at-root', name: 'Root' });
      const c = await start({ seed: s, workbookListing });
      expect(
        (await c.call('GET', '/api/v1/deployments/1/workbooks')).body.items.map((w: { id: number }) => w.id),
      ).toEqual(ids);
      expect(
        (await c.call('GET', '/api/v1/deployments/1/workbooks?folderId=11')).body.items.map(
          (w: { id: number }) => w.id,
        ),
      ).toEqual([100]);
    },
  );
});
