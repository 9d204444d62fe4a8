// Page size detection: a server that refuses `first` or answers shorter pages
// than asked gets smaller pages for the rest of the run, and nothing is lost.
import { afterEach, describe, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { readLiveState } from '../../src/api/live.js';
import { PageSize, PageSizes, refusesFirst } from '../../src/api/page-size.js';
import { ApiError } from '../../src/errors.js';
import { createEmulator, generateSeed, requests, type EmulatorOptions } from '../../src/emulator/index.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const refusal = (status: number, serverMessage: string) =>
  new ApiError({ method: 'GET', path: '/x', status, serverMessage }, `GET /x -> ${status}: ${serverMessage}`);

describe('PageSize', () => {
  test('a refusal naming `first` with a limit: that limit, remembered', () => {
    const lines: string[] = [];
    const s = new PageSize(500, (l) => lines.push(l));
    expect(s.refused(500, refusal(400, 'first must not be greater than 100'))).toBe(100);
    expect(s.current).toBe(100);
    expect(lines).toEqual([expect.stringContaining('page size: the server refused first=500')]);
    expect(lines[0]).toContain('asking for 100 per page of this list for the rest of this run');
  });

  test('a refusal naming `first` without a limit: the next step down; 422 too', () => {
    const s = new PageSize(500);
    expect(s.refused(500, refusal(422, 'first is invalid'))).toBe(200);
    expect(s.refused(200, refusal(422, 'first is invalid'))).toBe(100);
    expect(s.current).toBe(100);
  });

  test('other failures are not refusals of `first`', () => {
    const s = new PageSize(500);
    expect(s.refused(500, refusal(400, 'name is too long'))).toBeUndefined();
    expect(s.refused(500, refusal(403, 'first: forbidden'))).toBeUndefined();
    expect(s.refused(500, new Error('first'))).toBeUndefined();
    expect(refusesFirst(refusal(400, 'property first should not exist'))).toBe(true);
    expect(s.current).toBe(500);
  });

  test('a short page that says there is more shows the cap; a short last page does not count', () => {
    const s = new PageSize(500);
    s.short(500, 500);
    expect(s.current).toBe(500);
    s.short(500, 0);
    expect(s.current).toBe(500);
    s.short(500, 250);
    expect(s.current).toBe(250);
  });
});

describe('PageSizes', () => {
  test('each list learns its own size; a short page of one list leaves the others at the initial size', () => {
    const lines: string[] = [];
    const sizes = new PageSizes(500, (l) => lines.push(l));
    sizes.of('/f').short(500, 1);
    expect(sizes.of('/f').current).toBe(1);
    expect(sizes.of('/r').current).toBe(500);
    expect(sizes.of('/f')).toBe(sizes.of('/f'));
    expect(lines).toEqual([expect.stringContaining('asking for 1 per page of GET /f for the rest of this run')]);
  });
});

async function setup(opts: EmulatorOptions, clientOpts: { pageSize?: number } = {}) {
  const emu = await createEmulator({
    port: 0,
    randomSeed: 3,
    seed: generateSeed({ reports: 230, workbooks: 7 }),
    ...opts,
  });
  open.push(emu);
  const trace: string[] = [];
  const client = new ApiClient({ baseUrl: emu.url, token: emu.adminToken, trace: (l) => trace.push(l), ...clientOpts });
  open.push(client);
  return { emu, client, trace };
}

describe('the client against a server with a smaller page limit', () => {
  test('refused (400 naming first): every item read, smaller pages for the rest of the run, said in the trace', async () => {
    const { emu, client, trace } = await setup({ maxPageSize: 50, overMaxPageSize: 'refuse' });
    const live = await readLiveState(client, 1);
    expect(live.reports).toHaveLength(230);
    expect(new Set(live.reports.map((r) => r.id)).size).toBe(230);
    expect(live.workbooks).toHaveLength(7);
    expect(client.pageSizes.of('/api/v1/deployments/1/reports').current).toBe(50);
    expect(
      trace.some((l) =>
        /page size: the server refused first=500 .*first must not be greater than 50.*asking for 50/.test(l),
      ),
    ).toBe(true);
    // Once known, no more refusals: the second read asks for 50 at once.
    emu.clearLog();
    await readLiveState(client, 1);
    expect(emu.log.every((e) => e.status === 200 && Number(e.query['first']) <= 50)).toBe(true);
    expect(requests(emu.log, 'GET', '/api/v1/deployments/1/reports')).toHaveLength(Math.ceil(230 / 50));
  });

  test('clamped (a shorter page with hasNextPage): every item read, the cap remembered', async () => {
    const { client, trace } = await setup({ maxPageSize: 40 });
    const live = await readLiveState(client, 1);
    expect(live.reports).toHaveLength(230);
    expect(new Set(live.reports.map((r) => r.id)).size).toBe(230);
    expect(client.pageSizes.of('/api/v1/deployments/1/reports').current).toBe(40);
    expect(trace.some((l) => l.includes('page size: the server answered 40 items for first=500 and has more'))).toBe(
      true,
    );
  });

  test('a page size given by the caller is asked for', async () => {
    const { emu, client } = await setup({}, { pageSize: 30 });
    emu.clearLog();
    const live = await readLiveState(client, 1);
    expect(live.reports).toHaveLength(230);
    expect(emu.log.every((e) => Number(e.query['first']) <= 30)).toBe(true);
  });
});
