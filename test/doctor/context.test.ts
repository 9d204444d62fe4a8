// What doctor's checks share (doctor/context.ts): the first list request, the
// tenant's API description and the plan, each made once however many checks
// ask; `--deep`'s round trip offered only when asked.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import type { Connection } from '../../src/api/connect.js';
import type { ResolvedEnvironment } from '../../src/config/types.js';
import type { Plan } from '../../src/core/plan-model.js';
import { doctorContext } from '../../src/doctor/context.js';

const commands = { plan: 'wsc plan', exportOut: 'wsc export --out DIR' };

function fakeConnection() {
  const asked: string[] = [];
  const client = {
    get: (path: string) => {
      asked.push(path);
      return Promise.resolve({ items: [] });
    },
    request: (r: { path: string }) => {
      asked.push(r.path);
      return Promise.reject(new Error('no spec here'));
    },
  } as unknown as ApiClient;
  const conn = { client, deploymentId: 7, baseUrl: 'http://127.0.0.1:1', embedded: false } as Connection;
  return { conn, asked };
}

const env = { name: 'dev', deploymentId: 7 } as ResolvedEnvironment;

describe('doctorContext', () => {
  it('the probe and the plan are made once, whoever asks', async () => {
    const { conn, asked } = fakeConnection();
    let plans = 0;
    const plan = () => Promise.resolve({ changes: [], n: ++plans } as unknown as Plan);
    const ctx = doctorContext(
      conn,
      env,
      { desired: { workbooks: [], reports: [], userAttributes: [] } },
      { plan, deep: false, commands },
    );
    await Promise.all([ctx.probe(), ctx.probe()]);
    expect(asked).toEqual(['/api/v1/deployments/7/workbooks']);
    const [a, b] = await Promise.all([ctx.plan(), ctx.plan()]);
    expect(a).toBe(b);
    expect(plans).toBe(1);
    expect(ctx.deploymentId).toBe(7);
    expect(ctx.deep).toBeUndefined();
  });

  it('--deep: the round trip is offered', () => {
    const { conn } = fakeConnection();
    const ctx = doctorContext(
      conn,
      env,
      { desired: { workbooks: [], reports: [], userAttributes: [] } },
      {
        plan: () => Promise.reject(new Error('not asked')),
        deep: true,
        commands,
      },
    );
    expect(ctx.deep).toBeTypeOf('function');
  });
});
