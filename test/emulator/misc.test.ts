import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ID_RE, Workbook } from '../../src/domain/wire.js';
import { createEmulator, defaultSeed, generateSeed, LEGACY_PLACEHOLDER, requests } from '../../src/emulator/index.js';
import { d1, start } from './helpers.js';

describe('routes and bodies', () => {
  it('unknown routes and methods under /api answer 404 JSON', async () => {
    const { call } = await start();
    for (const [m, p] of [
      ['GET', '/api/v1/nothing'],
      ['PUT', `${d1}/folders`],
      ['PATCH', `${d1}/reports/1`],
      ['GET', `${d1}/workbooks/by-slug/x`],
      ['GET', '/'],
    ] as const) {
      const r = await call(m, p);
      expect([m, p, r.status]).toEqual([m, p, 404]);
      expect(r.body.message).toBe(`Cannot ${m} ${p}`);
    }
  });

  it('a body that is not JSON, or not an object, is 400; no body means {}', async () => {
    const { call } = await start();
    const bad = await call('POST', `${d1}/reports`, undefined, { raw: '{nope' });
    expect([bad.status, bad.body.message]).toEqual([400, 'The body is not valid JSON']);
    expect((await call('POST', `${d1}/reports`, undefined, { raw: '[1,2]' })).status).toBe(400);
    expect((await call('POST', `${d1}/reports`, undefined, { raw: '"x"' })).status).toBe(400);
    expect((await call('POST', `${d1}/reports`, { name: 42 })).body.message).toMatch(/^name: /);
    expect((await call('POST', `${d1}/workbooks`, { folderId: 'x' })).status).toBe(400);
    expect((await call('POST', `${d1}/reports`)).status).toBe(200);
    // Auth comes before body checks.
    expect((await call('POST', `${d1}/reports`, undefined, { raw: '{nope', token: null })).status).toBe(401);
  });

  it('user attributes: create (name, type required; duplicate name 409), update of displayName/description/defaultValue only', async () => {
    const { call } = await start();
    const a = await call('POST', '/api/v1/user-attributes', { name: 'region', type: 'string', defaultValue: 'EU' });
    expect(a.body).toMatchObject({ name: 'region', type: 'string', defaultValue: 'EU', displayName: null });
    expect((await call('POST', '/api/v1/user-attributes', { name: 'region', type: 'string' })).status).toBe(409);
    expect((await call('POST', '/api/v1/user-attributes', { type: 'string' })).body.message).toMatch(/^name: required/);
    expect((await call('POST', '/api/v1/user-attributes', { name: 'x', type: 'blob' })).status).toBe(400);
    const u = await call('PUT', `/api/v1/user-attributes/${a.body.id}`, { displayName: 'Region', name: 'ignored' });
    expect(u.body).toMatchObject({ id: a.body.id, name: 'region', displayName: 'Region', defaultValue: 'EU' });
    expect((await call('PUT', '/api/v1/user-attributes/999', { displayName: 'x' })).status).toBe(404);
    expect((await call('PUT', '/api/v1/user-attributes/abc', {})).status).toBe(400);
  });

  it('deleting a workbook detaches its reports', async () => {
    const { call } = await start();
    const wb = await call('POST', `${d1}/workbooks`, { name: 'w' });
    const r = await call('POST', `${d1}/reports`, { workbookId: wb.body.id });
    await call('DELETE', `${d1}/workbooks/${wb.body.id}`);
    const after = await call('GET', `${d1}/reports/${r.body.id}`);
    expect(after.body.workbookId).toBeNull();
    expect(after.body.updatedAt > r.body.updatedAt).toBe(true);
  });

  it('the request log records method, path, query, status, bodies and user; clearLog empties it', async () => {
    const { call, emu } = await start();
    await call('PUT', `${d1}/workbooks/by-slug/log`, { name: 'L' });
    await call('GET', `${d1}/reports?first=5`);
    const [put, get] = emu.log;
    expect(put).toMatchObject({
      seq: 1,
      method: 'PUT',
      path: `${d1}/workbooks/by-slug/log`,
      status: 200,
      requestBody: { name: 'L' },
      user: 'admin@example.com',
    });
    expect(Workbook.parse(put!.responseBody).slug).toBe('log');
    expect(get).toMatchObject({ method: 'GET', query: { first: '5' } });
    expect(requests(emu.log, 'GET', /\/reports$/)).toHaveLength(1);
    emu.clearLog();
    expect(emu.log).toHaveLength(0);
  });

  it('refuses a non-loopback host', async () => {
    await expect(createEmulator({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });

  it('answers only requests whose Host names this machine: a rebound name (DNS rebinding) gets 421, nothing done', async () => {
    const { emu } = await start();
    const send = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify({ name: 'Rebound', title: 'Rebound', jsonQuery: '{}' });
        const req = request(
          {
            host: '127.0.0.1',
            port: emu.port,
            method: 'POST',
            path: '/api/v1/deployments/1/reports',
            headers: { host, authorization: `Bearer ${emu.adminToken}`, 'content-type': 'application/json' },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (d: string) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const reports = () => emu.snapshot().reports?.length ?? 0;
    const before = reports();
    for (const host of [`evil.example:${emu.port}`, 'evil.example', `127.0.0.1.evil.example:${emu.port}`]) {
      const r = await send(host);
      expect(r.status).toBe(421);
      expect(JSON.parse(r.body)).toMatchObject({ statusCode: 421, code: 'misdirected' });
    }
    expect(reports()).toBe(before);
    for (const host of [`127.0.0.1:${emu.port}`, `localhost:${emu.port}`, `[::1]:${emu.port}`, 'localhost:1234'])
      expect((await send(host)).status).toBe(200);
    expect(reports()).toBe(before + 4);
  });
});

describe('seeds', () => {
  it('defaultSeed: deployments 1 and 2 in account 1, admin with dev-token', async () => {
    const s = defaultSeed();
    expect(s.deployments).toEqual([
      expect.objectContaining({ id: 1, accountId: 1 }),
      expect.objectContaining({ id: 2, accountId: 1 }),
    ]);
    expect(s.users[0]).toMatchObject({ role: 'admin', tokens: ['dev-token'] });
    const { call, emu } = await start();
    expect(emu.adminToken).toBe('dev-token');
    expect((await call('GET', '/api/v1/deployments/2/reports')).body).toMatchObject({ items: [], count: 0 });
  });

  it('generateSeed: deterministic, distinct publicIds, legacy placeholders, folders, dashboards', async () => {
    const opts = { reports: 50, workbooks: 5, legacyReports: 3, folders: 4, withDashboards: true, randomSeed: 3 };
    const s = generateSeed(opts);
    expect(generateSeed(opts)).toEqual(s);
    const stable = s.reports!.filter((r) => r.publicId !== LEGACY_PLACEHOLDER);
    expect(stable).toHaveLength(50);
    expect(new Set(stable.map((r) => r.publicId)).size).toBe(50);
    expect(stable.every((r) => PUBLIC_ID_RE.test(r.publicId!))).toBe(true);
    expect(s.folders!.some((f) => f.parentId != null)).toBe(true);
    const { call } = await start({ seed: s });
    const wb = await call('GET', `${d1}/workbooks/100`);
    expect(wb.body.dashboardDraft.widgets.length).toBeGreaterThan(0);
    expect(wb.body.publishedDashboard).toMatchObject({
      workbookId: 100,
      versionNumber: 1,
      config: wb.body.dashboardDraft,
    });
    expect(wb.body.dashboardPublished).toEqual(wb.body.dashboardDraft);
    const p = await call('POST', `${d1}/workbooks/101/publish`, { workbookId: 101 });
    expect(p.body.reportSnapshots.length).toBe(wb.body.dashboardDraft.widgets.length);
    // New dashboard ids follow the seeded ones.
    const seededIds = s.workbooks!.map((w) => (w.publishedDashboard as { id: number } | null)?.id ?? 0);
    expect(p.body.id).toBeGreaterThan(Math.max(...seededIds));
    expect((await call('GET', `${d1}/workbooks/101`)).body.publishedDashboard.id).toBe(p.body.id);
    const legacy = await call('PUT', `${d1}/reports/by-public-id/${LEGACY_PLACEHOLDER}`, {});
    expect(legacy.body.code).toBe('ambiguous_legacy_id');
  });

  it.each(readdirSync(join(import.meta.dirname, '../../fixtures/seeds')).filter((f) => f.endsWith('.json')))(
    'fixtures/seeds/%s loads; every user can list it',
    async (file) => {
      const path = join(import.meta.dirname, '../../fixtures/seeds', file);
      const { call, emu } = await start({ seed: path });
      for (const user of emu.snapshot().users) {
        for (const dep of user.deploymentIds ?? [1, 2]) {
          const token = user.tokens[0]!;
          expect((await call('GET', `/api/v1/deployments/${dep}/reports`, undefined, { token })).status).toBe(200);
          expect((await call('GET', `/api/v1/deployments/${dep}/workbooks`, undefined, { token })).status).toBe(200);
        }
      }
    },
  );

  it('rejects a malformed seed with a clear message', async () => {
    await expect(createEmulator({ seed: { deployments: [], users: [] } })).rejects.toThrow(/deployments/);
    await expect(createEmulator({ seed: '/nonexistent/seed.json' })).rejects.toThrow(/ENOENT/);
  });
});
