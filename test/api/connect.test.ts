// connect(): an embedded environment runs the emulator in-process and keeps
// its state in the file; a remote one needs a token.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { connect } from '../../src/api/connect.js';
import { readLiveState } from '../../src/api/live.js';
import type { ResolvedEnvironment } from '../../src/config/types.js';
import { ConfigError } from '../../src/errors.js';
import { json, serve } from './server.js';

const dir = mkdtempSync(join(tmpdir(), 'wsc-connect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (over: Partial<ResolvedEnvironment>): ResolvedEnvironment => ({
  name: 'test',
  embedded: false,
  deploymentId: 1,
  authScheme: 'bearer',
  publicIds: 'as-is',
  vars: {},
  mayHoldUnknownRefs: true,
  ...over,
});

describe('connect', () => {
  test('embedded: an in-process emulator on loopback; its state survives close()', async () => {
    const stateFile = join(dir, 'local.json');
    const conn = await connect(env({ embedded: true, stateFile }), { concurrency: 2, maxRetries: 0 });
    expect(conn.embedded).toBe(true);
    expect(conn.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await conn.port.upsertWorkbookBySlug('kept', { name: 'Kept' });
    await conn.close();
    await conn.close(); // twice is harmless
    expect(readFileSync(stateFile, 'utf8')).toContain('"kept"');

    const again = await connect(env({ embedded: true, stateFile }), { concurrency: 2, maxRetries: 0 });
    try {
      expect((await readLiveState(again.client, 1)).workbooks.map((w) => w.slug)).toContain('kept');
    } finally {
      await again.close();
    }
  });

  test('remote: the token goes in the header of the chosen scheme; options reach the client', async () => {
    const s = await serve((_q, res) =>
      json(res, 200, { items: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } }),
    );
    const lines: string[] = [];
    const conn = await connect(env({ baseUrl: s.url, token: 'tok-123456', authScheme: 'api-key', deploymentId: 7 }), {
      concurrency: 4,
      maxRetries: 2,
      pageSize: 50,
      requestTimeoutMs: 1000,
      trace: (l) => lines.push(l),
    });
    try {
      await readLiveState(conn.client, conn.deploymentId);
    } finally {
      await conn.close();
    }
    expect(s.seen.map((q) => q.url).sort()).toEqual([
      '/api/v1/deployments/7/folders?first=50',
      '/api/v1/deployments/7/reports?sortBy=createdAt&sortDirection=ASC&first=50',
      '/api/v1/deployments/7/workbooks?first=50',
      '/api/v1/user-attributes?first=50',
    ]);
    expect(s.seen.every((q) => q.headers.authorization === 'Api-Key tok-123456')).toBe(true);
    expect(lines.some((l) => l.includes('Api-Key ***'))).toBe(true);
    expect(lines.join('\n')).not.toContain('tok-123456');
    expect(conn.client.policy.maxRetries).toBe(2);
  });

  test('remote without a token: ConfigError, exit 3, with a hint', async () => {
    const e = await connect(env({ baseUrl: 'https://acme.example.com' }), { concurrency: 1, maxRetries: 0 }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ConfigError);
    expect(e).toMatchObject({ code: 'token_missing', exitCode: 3, hint: expect.stringContaining('WSC_TOKEN') });
  });
});
