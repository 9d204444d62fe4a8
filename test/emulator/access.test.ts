import { describe, expect, it } from 'vitest';
import { defaultSeed, type SeedState } from '../../src/emulator/index.js';
import { d1, d2, start } from './helpers.js';

function accessSeed(): SeedState {
  const s = defaultSeed();
  s.users.push(
    { id: 4, email: 'editor@example.com', role: 'ai-bi-user', tokens: ['editor-token'] },
    { id: 5, email: 'scoped@example.com', role: 'admin', tokens: ['scoped-token'], deploymentIds: [2] },
  );
  s.folders = [
    { id: 10, deploymentId: 1, name: 'Shared' },
    { id: 11, deploymentId: 1, name: 'Team', parentId: 10 },
    { id: 12, deploymentId: 1, name: 'Open' },
  ];
  s.workbooks = [
    { id: 100, deploymentId: 1, slug: 'admin-only', name: 'Admin only' },
    { id: 101, deploymentId: 1, slug: 'granted-edit', name: 'Edit' },
    { id: 102, deploymentId: 1, slug: 'granted-manage', name: 'Manage' },
    { id: 103, deploymentId: 1, slug: 'in-team', name: 'In team', folderId: 11 },
  ];
  s.reports = [
    { id: 1000, deploymentId: 1, publicId: 'adminRep0001', name: 'admin' },
    { id: 1001, deploymentId: 1, publicId: 'viewRep00001', name: 'viewable' },
    { id: 1002, deploymentId: 1, publicId: 'editRep00001', name: 'editable' },
    { id: 1003, deploymentId: 1, publicId: 'wbRep0000001', name: 'in workbook', workbookId: 101 },
  ];
  s.grants = [
    { userId: 4, resourceType: 'workbook', resourceId: 101, level: 'edit' },
    { userId: 4, resourceType: 'workbook', resourceId: 102, level: 'manage' },
    { userId: 4, resourceType: 'folder', resourceId: 10, level: 'view' },
    { userId: 4, resourceType: 'folder', resourceId: 12, level: 'edit' },
    { userId: 4, resourceType: 'report', resourceId: 1002, level: 'edit' },
    { userId: 3, resourceType: 'report', resourceId: 1001, level: 'view' },
  ];
  return s;
}
const ids = (items: { id: number }[]) => items.map((x) => x.id);

describe('authentication', () => {
  it('401 without a token or with an unknown one; Bearer, Api-Key and a raw token all work', async () => {
    const { call } = await start();
    const none = await call('GET', `${d1}/reports`, undefined, { token: null });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect((await call('GET', `${d1}/reports`, undefined, { token: 'wrong' })).status).toBe(401);
    for (const auth of ['Bearer dev-token', 'Api-Key dev-token', 'dev-token', 'bearer dev-token']) {
      expect([auth, (await call('GET', `${d1}/reports`, undefined, { auth })).status]).toEqual([auth, 200]);
    }
    expect((await call('GET', '/api/v1/user-attributes', undefined, { token: null })).status).toBe(401);
  });

  it('a token scoped to some deployments gets 403 on the others', async () => {
    const { call } = await start({ seed: accessSeed() });
    expect((await call('GET', `${d1}/reports`, undefined, { token: 'scoped-token' })).status).toBe(403);
    expect((await call('GET', `${d2}/reports`, undefined, { token: 'scoped-token' })).status).toBe(200);
  });
});

describe('roles and grants', () => {
  it('creating needs the AI BI User role or higher', async () => {
    const { call } = await start({ seed: accessSeed() });
    const v = { token: 'viewer-token' };
    expect((await call('POST', `${d1}/workbooks`, { name: 'x' }, v)).status).toBe(403);
    expect((await call('PUT', `${d1}/workbooks/by-slug/new-one`, { name: 'x' }, v)).status).toBe(403);
    expect((await call('POST', `${d1}/reports`, { name: 'x' }, v)).status).toBe(403);
    expect((await call('PUT', `${d1}/reports/by-public-id/newRep000001`, {}, v)).status).toBe(403);
    const c = { token: 'creator-token' };
    const wb = await call('PUT', `${d1}/workbooks/by-slug/mine`, { name: 'mine' }, c);
    expect(wb.status).toBe(200);
    expect(wb.body).toMatchObject({ userId: 2, canEdit: true, canManage: true });
    expect((await call('POST', `${d1}/reports`, { name: 'mine' }, c)).body.userId).toBe(2);
  });

  it('lists hold only what the caller can view; canEdit/canManage reflect the caller', async () => {
    const { call } = await start({ seed: accessSeed() });
    const viewer = await call('GET', `${d1}/reports`, undefined, { token: 'viewer-token' });
    expect(ids(viewer.body.items)).toEqual([1001]);
    expect(viewer.body.count).toBe(1);
    expect(viewer.body.items[0]).toMatchObject({ canEdit: false, canManage: false });
    expect((await call('GET', `${d1}/reports/1000`, undefined, { token: 'viewer-token' })).status).toBe(403);

    const ed = { token: 'editor-token' };
    const reps = await call('GET', `${d1}/reports`, undefined, ed);
    // 1003 is visible through its workbook (edit grant on 101).
    expect(ids(reps.body.items)).toEqual([1002, 1003]);
    const wbs = await call('GET', `${d1}/workbooks`, undefined, ed);
    expect(ids(wbs.body.items)).toEqual([101, 102, 103]);
    const caps = Object.fromEntries(
      wbs.body.items.map((w: { id: number; canEdit: boolean; canManage: boolean }) => [w.id, [w.canEdit, w.canManage]]),
    );
    expect(caps).toEqual({ 101: [true, false], 102: [true, true], 103: [false, false] });
    const admin = await call('GET', `${d1}/workbooks`);
    expect(admin.body.count).toBe(4);
  });

  it('updating needs edit; deleting needs manage', async () => {
    const { call } = await start({ seed: accessSeed() });
    const ed = { token: 'editor-token' };
    expect((await call('PUT', `${d1}/reports/1002`, { title: 'ok' }, ed)).status).toBe(200);
    expect((await call('PUT', `${d1}/reports/1000`, { title: 'no' }, ed)).status).toBe(403);
    expect((await call('PUT', `${d1}/reports/by-public-id/adminRep0001`, { title: 'no' }, ed)).status).toBe(403);
    expect((await call('DELETE', `${d1}/reports/1002`, undefined, ed)).status).toBe(403);
    expect((await call('PUT', `${d1}/workbooks/by-slug/granted-edit`, { name: 'Edited' }, ed)).status).toBe(200);
    expect((await call('PUT', `${d1}/workbooks/by-slug/admin-only`, { name: 'no' }, ed)).status).toBe(403);
    expect((await call('PUT', `${d1}/workbooks/by-slug/in-team`, { name: 'no' }, ed)).status).toBe(403);
    expect((await call('DELETE', `${d1}/workbooks/101`, undefined, ed)).status).toBe(403);
    expect((await call('DELETE', `${d1}/workbooks/102`, undefined, ed)).status).toBe(200);
  });

  it('an upsert with folderId needs manage on the workbook and edit on the destination folder', async () => {
    const { call, emu } = await start({ seed: accessSeed() });
    const ed = { token: 'editor-token' };
    // edit only on the workbook: 403 even for its current folder.
    const r1 = await call('PUT', `${d1}/workbooks/by-slug/granted-edit`, { folderId: null }, ed);
    expect(r1.status).toBe(403);
    expect(r1.body.message).toMatch(/manage/);
    // manage on the workbook, only view on the folder: 403.
    expect((await call('PUT', `${d1}/workbooks/by-slug/granted-manage`, { folderId: 10 }, ed)).status).toBe(403);
    // manage + edit on the folder: allowed.
    const ok = await call('PUT', `${d1}/workbooks/by-slug/granted-manage`, { folderId: 12 }, ed);
    expect(ok.status).toBe(200);
    expect(ok.body.folderPath).toEqual([{ id: 12, name: 'Open' }]);
    // Creating into a folder needs edit on it too.
    expect((await call('PUT', `${d1}/workbooks/by-slug/fresh`, { folderId: 10 }, ed)).status).toBe(403);
    expect((await call('PUT', `${d1}/workbooks/by-slug/fresh`, { folderId: 12 }, ed)).status).toBe(200);
    expect(emu.snapshot().workbooks!.find((w) => w.id === 101)!.name).toBe('Edit');
  });

  it('user attributes: anyone lists; only admins create and update', async () => {
    const { call } = await start({ seed: accessSeed() });
    const c = await call('POST', '/api/v1/user-attributes', { name: 'region', type: 'string', displayName: 'Region' });
    expect(c.status).toBe(200);
    expect((await call('GET', '/api/v1/user-attributes', undefined, { token: 'viewer-token' })).body.count).toBe(1);
    expect(
      (await call('POST', '/api/v1/user-attributes', { name: 'x', type: 'string' }, { token: 'creator-token' })).status,
    ).toBe(403);
    expect(
      (await call('PUT', `/api/v1/user-attributes/${c.body.id}`, { displayName: 'R' }, { token: 'creator-token' }))
        .status,
    ).toBe(403);
  });
});
