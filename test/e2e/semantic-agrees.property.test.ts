// The property of the semantic check: on generated queries of every form,
// valid and not, wsc refuses a query exactly when Cube's planner does (never
// a false alarm, never a miss of what `/v1/meta` decides). Run here against
// the emulator's Core Data API (its `/v1/meta` and `/v1/sql`, as a real HTTP
// server); the real-Cube contract suite runs the same generator and verdict
// (test/helpers/semantic-queries.ts) against the open-source Cube server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MetaAnswer } from '../../src/domain/data-model.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { CUBE_META, HIDDEN } from '../helpers/cube-model.js';
import { runs } from '../helpers/property.js';
import { referencePlanner } from '../helpers/reference-planner.js';
import { agrees, httpPlanner, type Planner } from '../helpers/semantic-queries.js';

let emu: Emulator;
let meta: MetaAnswer;
/** The names production `/v1/meta` leaves out (primary keys, hidden members, a hidden cube's members). */
let hidden: string[] = [];
let planner: Planner | undefined;

/** An emulator's `/v1/meta`, read as wsc reads it: with a token minted by its platform API. */
async function readMeta(e: Emulator): Promise<{ rest: string; token: string; meta: MetaAnswer }> {
  const auth = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
  const minted = await fetch(`${e.url}/api/v1/deployments/1/token`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ expiresIn: 300 }),
  });
  const { cubeApiToken } = (await minted.json()) as { cubeApiToken: string };
  const rest = `${e.url}/cubejs-api/v1`;
  const answer = await (await fetch(`${rest}/meta`, { headers: { authorization: cubeApiToken } })).json();
  return { rest, token: cubeApiToken, meta: MetaAnswer.parse(answer) };
}

const memberNames = (m: MetaAnswer) =>
  m.cubes.flatMap((c) => [...(c.measures ?? []), ...(c.dimensions ?? [])].map((x) => x.name));

beforeAll(async () => {
  emu = await createEmulator({ port: 0 });
  const prod = await readMeta(emu);
  meta = prod.meta;
  // The same model in dev mode lists every member: what it adds is hidden in production, yet planned.
  const dev = await createEmulator({ port: 0, devMode: true });
  try {
    const listed = new Set(memberNames(meta));
    hidden = memberNames((await readMeta(dev)).meta).filter((n) => !listed.has(n));
  } finally {
    await dev.close();
  }
  // The emulator's planner, when it has one (`/v1/sql`); without it there is nothing to agree with.
  const probe = await fetch(`${prod.rest}/sql?query=${encodeURIComponent('{"measures":[]}')}`, {
    headers: { authorization: prod.token },
  });
  if (probe.status !== 404) planner = httpPlanner(prod.rest, prod.token);
});
afterAll(() => emu?.close());

describe("the semantic check agrees with Cube's planner", () => {
  test('on a Cube-shaped model with hidden members, against a planner written from the facts file', async () => {
    const hidden = [...HIDDEN.dimensions, ...HIDDEN.measures, ...HIDDEN.cube.measures];
    const p = referencePlanner(CUBE_META, {
      measures: [...HIDDEN.measures, ...HIDDEN.cube.measures],
      dimensions: [...HIDDEN.dimensions, ...HIDDEN.cube.dimensions],
    });
    await agrees(CUBE_META, hidden, p, runs(300));
  });

  test("wsc refuses a generated query exactly when the emulator's planner does, hidden members included", async (ctx) => {
    if (planner === undefined) ctx.skip('the emulator serves no /v1/sql yet');
    // The built-in model hides a primary key, a member and a cube: the generator draws them too.
    expect(hidden).toEqual(expect.arrayContaining(['orders.id', 'orders.internal_cost']));
    expect(hidden.some((n) => n.startsWith('audit_log.'))).toBe(true);
    await agrees(meta, hidden, planner!, runs(100));
  });
});
