// readLiveState on the emulator: the three lists in parallel, list pages
// only, and exactly ceil(R/page) + ceil(W/page) + ceil(A/page) GETs.
import { afterEach, describe, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { readLiveState } from '../../src/api/live.js';
import { httpPort } from '../../src/api/port.js';
import { Report } from '../../src/domain/wire.js';
import { createEmulator, generateSeed, requests, writes, type Emulator } from '../../src/emulator/index.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function setup(seed: Parameters<typeof createEmulator>[0] = {}) {
  const emu: Emulator = await createEmulator({ port: 0, randomSeed: 3, ...seed });
  open.push(emu);
  const client = new ApiClient({ baseUrl: emu.url, token: emu.adminToken, connections: 8 });
  open.push(client);
  return { emu, client };
}

describe('readLiveState', () => {
  test('1201 reports, 130 workbooks, page 500: exactly 3 + 1 + 1 GETs, all list pages, read in parallel', async () => {
    const { emu, client } = await setup({ seed: generateSeed({ reports: 1201, workbooks: 130 }) });
    emu.clearLog();
    const live = await readLiveState(client, 1);
    expect(live.reports).toHaveLength(1201);
    expect(live.workbooks).toHaveLength(130);
    expect(new Set(live.reports.map((r) => r.id)).size).toBe(1201);
    const attrs = live.userAttributes.length;
    expect(emu.log.every((e) => e.method === 'GET' && e.status === 200)).toBe(true);
    expect(requests(emu.log, 'GET', '/api/v1/deployments/1/reports')).toHaveLength(3);
    expect(requests(emu.log, 'GET', '/api/v1/deployments/1/workbooks')).toHaveLength(1);
    expect(requests(emu.log, 'GET', '/api/v1/user-attributes')).toHaveLength(Math.max(1, Math.ceil(attrs / 500)));
    // Plus the root folder list, which shows whether any workbook can be in a folder.
    expect(requests(emu.log, 'GET', '/api/v1/deployments/1/folders')).toHaveLength(1);
    expect(emu.log).toHaveLength(3 + 1 + Math.max(1, Math.ceil(attrs / 500)) + 1);
    // Reports in one chain by createdAt, each page after the one before it.
    const reportPages = requests(emu.log, 'GET', '/api/v1/deployments/1/reports');
    expect(reportPages.map((e) => `${e.query['sortBy']} ${e.query['after'] === undefined ? '-' : 'after'}`)).toEqual([
      'createdAt -',
      'createdAt after',
      'createdAt after',
    ]);
    expect(emu.log.every((e) => e.query['first'] === '500')).toBe(true);
    // parallel: the workbook and attribute lists start before the report pages end
    const firstOf = (p: string) => emu.log.find((e) => e.path === p)!.seq;
    const lastReport = Math.max(...requests(emu.log, 'GET', '/api/v1/deployments/1/reports').map((e) => e.seq));
    expect(firstOf('/api/v1/deployments/1/workbooks')).toBeLessThan(lastReport);
    expect(firstOf('/api/v1/user-attributes')).toBeLessThan(lastReport);
  });

  test('2501 reports: 6 report pages in one chain, in createdAt order, every report once', async () => {
    const { emu, client } = await setup({ seed: generateSeed({ reports: 2501, workbooks: 3 }) });
    emu.clearLog();
    const live = await readLiveState(client, 1);
    expect(live.reports.map((r) => r.id)).toEqual([...live.reports.map((r) => r.id)].sort((a, b) => a - b));
    expect(new Set(live.reports.map((r) => r.id)).size).toBe(2501);
    const pages = requests(emu.log, 'GET', '/api/v1/deployments/1/reports');
    expect(pages).toHaveLength(6);
    expect(pages.every((e) => e.query['sortBy'] === 'createdAt' && e.query['sortDirection'] === 'ASC')).toBe(true);
  });

  test('reports are kept as the server sent them, which is the value zod gives (Report neither strips nor fills in)', async () => {
    const { client } = await setup({ seed: generateSeed({ reports: 600, workbooks: 3, withDashboards: true }) });
    const live = await readLiveState(client, 1);
    expect(live.reports).toHaveLength(600);
    // What zod would have given is the same value, so keeping the item as sent changes nothing but member order.
    for (const r of live.reports) expect(Report.parse(r)).toEqual(r);
  });

  test('an empty deployment costs one GET per list', async () => {
    const { emu, client } = await setup();
    emu.clearLog();
    const live = await readLiveState(client, 2);
    expect(live.reports).toEqual([]);
    expect(live.workbooks).toEqual([]);
    expect(emu.log.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      'GET /api/v1/deployments/2/folders',
      'GET /api/v1/deployments/2/reports',
      'GET /api/v1/deployments/2/workbooks',
      'GET /api/v1/user-attributes',
    ]);
  });

  test('an unknown deployment: ApiError 404 with the deployment hint', async () => {
    const { client } = await setup();
    await expect(readLiveState(client, 99)).rejects.toMatchObject({
      status: 404,
      hint: expect.stringContaining('Deployment 99 does not exist'),
    });
  });
});

describe('httpPort on the emulator', () => {
  test('upsert, create, update, find by publicId, publish, user attributes: one request each, the right methods and bodies', async () => {
    const { emu, client } = await setup();
    const port = httpPort(client, 1);
    emu.clearLog();
    const wb = await port.upsertWorkbookBySlug('Sales ', { name: 'Sales' });
    expect(wb.slug).toBe('sales');
    const r = await port.createReport({
      publicId: 'abcDEF123456',
      name: 'Rev',
      workbookId: wb.id,
      source: 'PLAYGROUND',
    });
    const u = await port.updateReport(r.id, { title: 'Revenue' });
    expect(u.title).toBe('Revenue');
    expect((await port.findReportsByPublicId('abcDEF123456')).map((x) => x.id)).toEqual([r.id]);
    expect(await port.findReportsByPublicId('nope00000000')).toEqual([]);
    await port.upsertWorkbookBySlug('sales', { meta: { dashboardDraft: { widgets: [] } } });
    await port.publishWorkbook(wb.id, { workbookId: wb.id });
    const ua = await port.createUserAttribute({ name: 'region', type: 'string' });
    const ua2 = await port.updateUserAttribute(ua.id, { displayName: 'Region' });
    expect(ua2.displayName).toBe('Region');
    expect(writes(emu.log).map((e) => `${e.method} ${e.path}`)).toEqual([
      'PUT /api/v1/deployments/1/workbooks/by-slug/Sales%20',
      'POST /api/v1/deployments/1/reports',
      `PUT /api/v1/deployments/1/reports/${r.id}`,
      'PUT /api/v1/deployments/1/workbooks/by-slug/sales',
      `POST /api/v1/deployments/1/workbooks/${wb.id}/publish`,
      'POST /api/v1/user-attributes',
      `PUT /api/v1/user-attributes/${ua.id}`,
    ]);
    const publish = requests(emu.log, 'POST', /\/publish$/)[0]!;
    expect(publish.requestBody).toEqual({ workbookId: wb.id });
  });

  test('a report create whose answer is reset after the commit is retried (safe POST) and meets the 409 the executor resolves', async () => {
    const { emu, client } = await setup();
    const port = httpPort(client, 1);
    emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: 'reset-after' }] });
    const err = await port.createReport({ publicId: 'abcDEF123456', name: 'Rev' }).catch((e: unknown) => e);
    const posts = requests(emu.log, 'POST', '/api/v1/deployments/1/reports');
    expect(posts).toHaveLength(2);
    expect(err).toMatchObject({ status: 409 });
    expect(await port.findReportsByPublicId('abcDEF123456')).toHaveLength(1);
  });

  test('a user-attribute create with an unknown outcome is not repeated', async () => {
    const { emu, client } = await setup();
    const port = httpPort(client, 1);
    emu.setFaults({ script: [{ method: 'POST', path: '/api/v1/user-attributes', fault: 'reset-after' }] });
    await expect(port.createUserAttribute({ name: 'team', type: 'string' })).rejects.toMatchObject({ code: 'network' });
    expect(requests(emu.log, 'POST', '/api/v1/user-attributes')).toHaveLength(1);
  });
});
