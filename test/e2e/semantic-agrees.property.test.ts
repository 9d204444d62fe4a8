// The property of the semantic check: on generated queries of every form,
// valid and not, wsc refuses a query exactly when Cube's planner does (never
// a false alarm, never a miss of what `/v1/meta` decides). Run here against
// the emulator's Core Data API (its `/v1/meta` and `/v1/sql`, as a real HTTP
// server); the real-Cube contract suite runs the same generator and verdict
// (test/helpers/semantic-queries.ts) against the open-source Cube server.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MetaAnswer } from '../../src/domain/data-model.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { CUBE_META, HIDDEN } from '../helpers/cube-model.js';
import { runs } from '../helpers/property.js';
import { FAILS_IN_WAREHOUSE } from '../../src/core/semantic/rules.js';
import { referencePlanner } from '../helpers/reference-planner.js';
import { httpPlanner, queryArbitrary, wscVerdict, type Planner } from '../helpers/semantic-queries.js';

let emu: Emulator;
let meta: MetaAnswer;
let planner: Planner | undefined;

beforeAll(async () => {
  emu = await createEmulator({ port: 0 });
  const auth = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
  const minted = await fetch(`${emu.url}/api/v1/deployments/1/token`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ expiresIn: 300 }),
  });
  const { cubeApiToken } = (await minted.json()) as { cubeApiToken: string };
  const rest = `${emu.url}/cubejs-api/v1`;
  meta = MetaAnswer.parse(await (await fetch(`${rest}/meta`, { headers: { authorization: cubeApiToken } })).json());
  // The emulator's planner, when it has one (`/v1/sql`); without it there is nothing to agree with.
  const probe = await fetch(`${rest}/sql?query=${encodeURIComponent('{"measures":[]}')}`, {
    headers: { authorization: cubeApiToken },
  });
  if (probe.status !== 404) planner = httpPlanner(rest, cubeApiToken);
});
afterAll(() => emu?.close());

/** The property, against any planner: wsc refuses exactly what it refuses. */
async function agrees(model: MetaAnswer, hidden: readonly string[], p: Planner, numRuns: number): Promise<void> {
  const seen = { refused: 0, accepted: 0, asked: 0 };
  await fc.assert(
    fc.asyncProperty(queryArbitrary(model, hidden), async (q) => {
      const cube = await p(q);
      expect(cube.kind, JSON.stringify(q)).not.toBe('unavailable');
      const wsc = await wscVerdict(model, q, p);
      // A time grain on a string dimension: Cube's planner plans it, the warehouse refuses it (the real Cube's
      // recording in contract-cube/queries.json); wsc refuses it, and says so.
      const planned = wsc.issues.filter((i) => !i.message.includes(FAILS_IN_WAREHOUSE));
      if (planned.length < wsc.issues.length && cube.kind === 'accepted') return;
      seen[cube.kind === 'refused' ? 'refused' : 'accepted']++;
      if (wsc.asked > 0) seen.asked++;
      const said = wsc.issues.map((i) => i.message).join('; ');
      expect(wsc.refused, `${JSON.stringify(q)}: Cube ${JSON.stringify(cube)}, wsc ${said}`).toBe(
        cube.kind === 'refused',
      );
    }),
    { numRuns },
  );
  // Both verdicts are drawn, and some queries needed Cube's planner (a generator of one kind proves nothing).
  expect(seen.refused).toBeGreaterThan(numRuns / 5);
  expect(seen.accepted).toBeGreaterThan(numRuns / 5);
  if (hidden.length > 0) expect(seen.asked).toBeGreaterThan(0);
}

describe("the semantic check agrees with Cube's planner", () => {
  test('on a Cube-shaped model with hidden members, against a planner written from the facts file', async () => {
    const hidden = [...HIDDEN.dimensions, ...HIDDEN.measures, ...HIDDEN.cube.measures];
    const p = referencePlanner(CUBE_META, {
      measures: [...HIDDEN.measures, ...HIDDEN.cube.measures],
      dimensions: [...HIDDEN.dimensions, ...HIDDEN.cube.dimensions],
    });
    await agrees(CUBE_META, hidden, p, runs(300));
  });

  test('wsc refuses a generated query exactly when the planner does', async (ctx) => {
    if (planner === undefined) ctx.skip('the emulator serves no /v1/sql yet');
    await agrees(meta, [], planner!, runs(100));
  });
});
