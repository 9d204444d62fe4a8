import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { FaultSpecError, parseFaults, writes } from '../../src/emulator/index.js';
import { d1, start, type Client } from './helpers.js';

describe('parseFaults', () => {
  it.each([
    ['409=0.1', { rates: { '409': 0.1 } }],
    [
      '409=0.1,429=0.05,500=0.02,502=0.02,503=0.02,504=0.02,reset-before=0.05,reset-after=0.05,garbled-after=0.01,methods=POST+PUT,retry-after=1',
      {
        rates: {
          '409': 0.1,
          '429': 0.05,
          '500': 0.02,
          '502': 0.02,
          '503': 0.02,
          '504': 0.02,
          'reset-before': 0.05,
          'reset-after': 0.05,
          'garbled-after': 0.01,
        },
        methods: ['POST', 'PUT'],
        retryAfter: 1,
      },
    ],
    [' 429 = 1 , retry-after = date:30 ', { rates: { '429': 1 }, retryAfter: 'date:30' }],
    ['', { rates: {} }],
  ])('%s', (spec, expected) => {
    expect(parseFaults(spec)).toEqual(expected);
  });

  it('paths= takes a regular expression', () => {
    expect(parseFaults('500=1,paths=/reports$').paths?.test('/api/v1/deployments/1/reports')).toBe(true);
  });

  it.each([
    ['409', /expected KEY=VALUE/],
    ['418=0.1', /unknown key "418"/],
    ['500=2', /from 0 to 1/],
    ['500=abc', /from 0 to 1/],
    ['500=0.6,502=0.6', /add up to 1.2/],
    ['methods=FETCH', /unknown method/],
    ['retry-after=soon', /seconds/],
    ['paths=(', /regular expression/],
  ])('rejects %s', (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(FaultSpecError);
    expect(() => parseFaults(spec)).toThrow(message);
  });
});

async function expectReset(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toThrow(/other side closed|ECONNRESET|socket|terminated/i);
}

describe('scripted faults', () => {
  it('reset-before drops the connection and applies nothing', async () => {
    const c = await start({ faults: { script: [{ method: 'POST', path: /\/reports$/, fault: 'reset-before' }] } });
    await expectReset(c.call('POST', `${d1}/reports`, { publicId: 'resetBefore1' }));
    expect(c.emu.snapshot().reports).toHaveLength(0);
    const entry = writes(c.emu.log)[0]!;
    expect(entry).toMatchObject({
      method: 'POST',
      status: 0,
      fault: 'reset-before',
      requestBody: { publicId: 'resetBefore1' },
    });
    // The script is consumed: the retry goes through.
    expect((await c.call('POST', `${d1}/reports`, { publicId: 'resetBefore1' })).status).toBe(200);
  });

  it('reset-after commits the write, then drops the connection without an answer', async () => {
    const c = await start({ faults: { script: [{ method: 'POST', path: /\/reports$/, fault: 'reset-after' }] } });
    await expectReset(c.call('POST', `${d1}/reports`, { publicId: 'resetAfter01' }));
    expect(c.emu.snapshot().reports!.map((r) => r.publicId)).toEqual(['resetAfter01']);
    expect(c.emu.log[0]).toMatchObject({ status: 0, fault: 'reset-after' });
    // A blind retry now meets the committed report: 409 (no code).
    const retry = await c.call('POST', `${d1}/reports`, { publicId: 'resetAfter01' });
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBeUndefined();
  });

  it('garbled-after commits the write, then answers its status with the first half of the body', async () => {
    const c = await start({ faults: { script: [{ method: 'POST', path: /\/reports$/, fault: 'garbled-after' }] } });
    const res = await request(`${c.emu.url}${d1}/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.emu.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publicId: 'garbled00001' }),
    });
    const r = { status: res.statusCode, text: await res.body.text() };
    expect(r.status).toBe(200);
    expect(() => JSON.parse(r.text)).toThrow();
    expect(c.emu.snapshot().reports!.map((x) => x.publicId)).toEqual(['garbled00001']);
    // The log keeps what the server meant to answer, whole.
    expect(c.emu.log[0]).toMatchObject({
      status: 200,
      fault: 'garbled-after',
      responseBody: { publicId: 'garbled00001' },
    });
    const whole = JSON.stringify(c.emu.log[0]!.responseBody);
    expect(whole.startsWith(r.text)).toBe(true);
    expect(r.text.length).toBe(Math.floor(Buffer.byteLength(whole) / 2));
  });

  it('429 and 503 carry Retry-After (seconds or HTTP date); 500/502/504 do not', async () => {
    const c = await start({
      faults: {
        script: [
          { method: 'GET', fault: '429', retryAfter: 2 },
          { method: 'GET', fault: '429', retryAfter: 'date:30' },
          { method: 'GET', fault: '503' },
          { method: 'GET', fault: '500' },
          { method: 'GET', fault: '502' },
          { method: 'GET', fault: '504' },
        ],
      },
    });
    const a = await c.call('GET', `${d1}/reports`);
    expect(a.status).toBe(429);
    expect(a.headers['retry-after']).toBe('2');
    expect(a.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    const b = await c.call('GET', `${d1}/reports`);
    const when = Date.parse(String(b.headers['retry-after']));
    expect(when).toBeGreaterThan(Date.now() + 20_000);
    const s503 = await c.call('GET', `${d1}/reports`);
    expect([s503.status, s503.headers['retry-after']]).toEqual([503, '1']);
    for (const code of [500, 502, 504]) {
      const r = await c.call('GET', `${d1}/reports`);
      expect([r.status, r.headers['retry-after']]).toEqual([code, undefined]);
    }
    expect((await c.call('GET', `${d1}/reports`)).status).toBe(200);
    expect(c.emu.log.map((e) => e.fault)).toEqual(['429', '429', '503', '500', '502', '504', undefined]);
  });

  it('an injected 409 is upsert_branch_changed and applies nothing; times repeats an entry', async () => {
    const c = await start({ faults: { script: [{ method: 'PUT', fault: '409', times: 2 }] } });
    for (let i = 0; i < 2; i++) {
      const r = await c.call('PUT', `${d1}/workbooks/by-slug/f`, { name: 'x' });
      expect([r.status, r.body.code]).toEqual([409, 'upsert_branch_changed']);
    }
    expect(c.emu.snapshot().workbooks).toHaveLength(0);
    expect((await c.call('PUT', `${d1}/workbooks/by-slug/f`, { name: 'x' })).status).toBe(200);
  });
});

async function statuses(c: Client, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    try {
      out.push((await c.call('PUT', `${d1}/workbooks/by-slug/s${i % 5}`, { name: `n${i}` })).status);
    } catch {
      out.push(0);
    }
  }
  return out;
}

describe('random faults', () => {
  it('are deterministic for a randomSeed and hit about the given rates', async () => {
    const spec = '409=0.2,429=0.1,500=0.1,reset-before=0.1,reset-after=0.1';
    const a = await statuses(await start({ faults: spec, randomSeed: 99 }), 60);
    const b = await statuses(await start({ faults: spec, randomSeed: 99 }), 60);
    expect(a).toEqual(b);
    for (const s of [409, 429, 500, 0, 200]) expect(a).toContain(s);
  });

  it('methods= limits them; a 409 never hits a read', async () => {
    const c = await start({ faults: '500=1,methods=POST', randomSeed: 1 });
    expect((await c.call('GET', `${d1}/reports`)).status).toBe(200);
    expect((await c.call('POST', `${d1}/reports`, {})).status).toBe(500);
    c.emu.setFaults('409=1');
    expect((await c.call('GET', `${d1}/reports`)).status).toBe(200);
    expect((await c.call('DELETE', `${d1}/reports/1`)).status).toBe(409);
    c.emu.setFaults(undefined);
    expect((await c.call('POST', `${d1}/reports`, {})).status).toBe(200);
  });
});

describe('latency', () => {
  it('fixed and jittered latency delay the answer', async () => {
    const c = await start({ latencyMs: 40 });
    const t0 = Date.now();
    await c.call('GET', `${d1}/reports`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(38);
    expect(c.emu.log[0]!.durationMs).toBeGreaterThanOrEqual(38);
    c.emu.setLatency({ min: 20, max: 30 });
    await c.call('PUT', `${d1}/workbooks/by-slug/lat`, {});
    // An upsert spends its latency once, between decision and application.
    expect(c.emu.log[1]!.durationMs).toBeGreaterThanOrEqual(18);
    c.emu.setLatency(undefined);
    expect(() => c.emu.setLatency({ min: 5, max: 1 })).toThrow(/latency/);
  });
});
