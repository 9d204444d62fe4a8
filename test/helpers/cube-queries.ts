// The bundle of Core Data API queries (contract-cube/queries.json) and the
// model they are asked of: the open-source Cube server's YAML model
// (contract-cube/model/) and the same model in the emulator's shape
// (contract-cube/model.json). Each query carries the verdict the real Cube
// gives; test/e2e/cube-contract.test.ts holds the real server to it,
// test/emulator/core-data-api.test.ts the emulator. wsc's own semantic check
// takes the same bundle: a query Cube answers 200 must never be refused, and
// one Cube refuses must be (`failsInWarehouse`: the planner accepts it, the
// warehouse does not; wsc refuses it from /v1/meta, a time grain on a
// dimension that is not a time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CubeModel } from '../../src/emulator/index.js';
import { root } from '../e2e/helpers/index.js';

export interface CubeQueryCase {
  name: string;
  /** The query (JSON), or its text when the text itself is the point (not JSON). */
  query: unknown;
  expect: { status: number; body?: { type?: string; error: string } };
  failsInWarehouse?: boolean;
}

const cubeContractDir = join(root, 'contract-cube');

export function cubeQueries(): CubeQueryCase[] {
  return (JSON.parse(readFileSync(join(cubeContractDir, 'queries.json'), 'utf8')) as { queries: CubeQueryCase[] })
    .queries;
}

/** The contract model in the emulator's shape (hidden members marked, joins listed). */
export function cubeContractModel(): CubeModel {
  return JSON.parse(readFileSync(join(cubeContractDir, 'model.json'), 'utf8')) as CubeModel;
}

/** The `?query=` text of a case. */
export const queryText = (c: CubeQueryCase): string =>
  typeof c.query === 'string' ? c.query : JSON.stringify(c.query);

/** `GET {base}/sql?query=…`: status and body. */
export async function askSql(
  base: string,
  token: string,
  c: CubeQueryCase,
  path = 'sql',
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}/${path}?query=${encodeURIComponent(queryText(c))}`, {
    headers: { authorization: token },
  });
  return { status: r.status, body: await r.json() };
}

/** The verdict as the bundle records it: the status, and an error's body. */
export function verdict(a: { status: number; body: any }): CubeQueryCase['expect'] {
  if (a.status === 200) return { status: 200 };
  const body = a.body as { type?: string; error: string };
  return {
    status: a.status,
    body: body.type === undefined ? { error: body.error } : { type: body.type, error: body.error },
  };
}
