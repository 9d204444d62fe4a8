// Partial ownership on the wire: for random live and desired report `meta`
// objects, what the server holds after plan and apply (over HTTP, against
// the emulator, whose PUT replaces `meta` as the API may) is the live value
// with the file's members applied: no member the file does not name is lost.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type Connection } from '../../src/api/connect.js';
import { readLiveState } from '../../src/api/live.js';
import { canonicalJson, sameContent } from '../../src/core/canonical.js';
import { execute } from '../../src/core/execute/index.js';
import type { DesiredState } from '../../src/core/model.js';
import { plan } from '../../src/core/plan/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { jsonOf } from '../helpers/json-arbitrary.js';
import { ctx, dReport } from './builders.js';
import { runs } from '../helpers/property.js';

let emu: Emulator;
let conn: Connection;
beforeAll(async () => {
  emu = await createEmulator({ port: 0 });
  conn = await connect(
    {
      name: 'test',
      embedded: false,
      baseUrl: emu.url,
      token: emu.adminToken,
      deploymentId: 1,
      authScheme: 'bearer',
      publicIds: 'as-is',
      vars: {},
      mayHoldUnknownRefs: true,
    },
    { concurrency: 2, maxRetries: 0 },
  );
});
afterAll(async () => {
  await conn?.close();
  await emu?.close();
});

const key = fc.constantFrom('chart', 'format', 'color', 'x', 'y', 'nested', 'wsc-like');
const value = jsonOf<unknown>(
  [fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null)],
  fc.constantFrom('a', 'b', 'c'),
  3,
);
const metaObj = fc.dictionary(key, value, { maxKeys: 5 });

let n = 0;
describe('report meta on the wire', () => {
  test('after apply the server holds live meta with the desired members applied', async () => {
    await fc.assert(
      fc.asyncProperty(metaObj, metaObj, async (liveMeta, desiredMeta) => {
        const publicId = `mm${String(++n).padStart(10, '0')}`;
        const made = await fetch(`${emu.url}/api/v1/deployments/1/reports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ publicId, name: publicId, meta: liveMeta }),
        });
        expect(made.status).toBe(200);
        const desired: DesiredState = {
          workbooks: [],
          reports: [dReport(publicId, { meta: desiredMeta as DesiredState['reports'][number]['fields']['meta'] })],
          userAttributes: [],
        };
        const live = await readLiveState(conn.client, 1);
        const p = plan(desired, live, ctx());
        const result = await execute(p, conn.port, { concurrency: 2 });
        expect(result.failed).toEqual([]);
        const after = (await readLiveState(conn.client, 1)).reports.find((r) => r.publicId === publicId)!;
        const expected: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(liveMeta))
          Object.defineProperty(expected, k, { value: v, enumerable: true, writable: true, configurable: true });
        for (const [k, v] of Object.entries(desiredMeta))
          Object.defineProperty(expected, k, { value: v, enumerable: true, writable: true, configurable: true });
        // null and an absent member are the same content to the planner (no phantom diffs)
        expect(
          sameContent(expected, after.meta ?? {}),
          `${canonicalJson(expected)} vs ${canonicalJson(after.meta)}`,
        ).toBe(true);
      }),
      { numRuns: runs(60) },
    );
  }, 120_000);
});
