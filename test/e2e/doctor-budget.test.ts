// `wsc doctor` ends within a minute whatever the host does, and prints each
// line as soon as it is decided: a host that accepts and never answers, a 429
// whose Retry-After is 10^9 seconds (readable or not), a host that answers
// some requests and hangs on the rest. Each request has a few seconds and one
// retry; a Retry-After longer than doctor waits is reported, not waited.
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, runCli, writeFiles } from './helpers/index.js';
import { json, serve } from '../api/server.js';

afterAll(cleanupTemp);

const TOKEN = 'doctor-budget-token';
const empty = { items: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } };
const doctor = (url: string, onSpawn?: (c: ChildProcess) => void) =>
  runCli(['doctor', '--dir', writeFiles({}), '--base-url', url, '--deployment', '1'], {
    env: { WSC_TOKEN: TOKEN },
    timeoutMs: 90_000,
    ...(onSpawn ? { onSpawn } : {}),
  });
const timed = async <T>(f: () => Promise<T>) => {
  const t0 = Date.now();
  const r = await f();
  return { ...r, ms: Date.now() - t0 };
};

describe('wsc doctor within its budget', () => {
  test('a host that accepts and never answers: ✗ host after one retry, the rest not checked, well within 60 s', async () => {
    const s = await serve(() => new Promise(() => undefined));
    const r = await timed(() => doctor(s.url));
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(60_000);
    expect(r.stdout).toMatch(
      /✗ host: .* does not answer as the Workspace Content API: .*(no answer|timed out|did not answer)/i,
    );
    expect(r.stdout).toMatch(/– token: not checked: host failed/);
    expect(r.stdout).not.toMatch(/^✓/m);
    // The probe and its one retry; nothing else was asked of a host that never answered.
    expect(s.seen).toHaveLength(2);
  }, 90_000);

  test('429 with Retry-After: 1000000000: reported, not waited; no second attempt', async () => {
    const s = await serve((_q, res) =>
      json(res, 429, { statusCode: 429, message: 'slow down' }, { 'retry-after': '1000000000' }),
    );
    const r = await timed(() => doctor(s.url));
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.stdout).toMatch(
      /✗ host: .*429.* — the server asked to wait 32 years \(Retry-After: 1000000000\), longer than the 5 s wsc waits here/,
    );
    expect(r.stdout).not.toMatch(/^✓/m);
    expect(s.seen).toHaveLength(1);
  }, 90_000);

  test('429 with an unreadable Retry-After (1e9): one short retry, then ✗ host', async () => {
    const s = await serve((_q, res) =>
      json(res, 429, { statusCode: 429, message: 'slow down' }, { 'retry-after': '1e9' }),
    );
    const r = await timed(() => doctor(s.url));
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.stdout).toMatch(/✗ host: .*429/);
    expect(s.seen).toHaveLength(2);
  }, 90_000);

  test('a host that answers the probe and hangs on the rest: each line printed as decided, done within 60 s', async () => {
    const s = await serve((q, res) => {
      const path = new URL(q.url, 'http://x').pathname;
      const probe = path === '/api/v1/deployments/1/workbooks' && q.url.includes('first=1');
      if (probe || path === '/api/v1/user-attributes') return json(res, 200, empty);
      return new Promise(() => undefined);
    });
    const arrivals: { at: number; text: string }[] = [];
    const t0 = Date.now();
    const r = await doctor(s.url, (child) => {
      child.stdout!.on('data', (d: Buffer | string) => arrivals.push({ at: Date.now() - t0, text: String(d) }));
    });
    const ended = Date.now() - t0;
    expect(r.code).toBe(1);
    expect(ended).toBeLessThan(60_000);
    const when = (re: RegExp) => arrivals.find((a) => re.test(a.text))?.at;
    const host = when(/✓ host: /);
    const pageSize = when(/✗ page size: /);
    expect(host).toBeDefined();
    expect(pageSize).toBeDefined();
    // The host's line came out while the next checks were still waiting on the server.
    expect(pageSize! - host!).toBeGreaterThan(4_000);
    expect(ended - host!).toBeGreaterThan(8_000);
    expect(r.stdout).toMatch(/✓ user attributes: readable/);
    expect(r.stdout).toMatch(/✗ API description: .*cannot be read/);
    expect(r.stdout).toMatch(/– routes: publish: not checked: API description failed/);
  }, 90_000);
});
