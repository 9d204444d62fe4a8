// The contract suite's gate: Prism missing skips with a reason, whether or not
// CI is set, unless WSC_REQUIRE_CONTRACT (set by .ci/run) makes it a failure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { contractGate, contractRequired, cubeNeeds, prismNeeds } from './contract-gate.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const paths = { prism: '/c/prism.js', description: '/c/api.yaml' };
const only =
  (...present: string[]) =>
  (p: string) =>
    present.includes(p);

describe('contract gate', () => {
  test('everything installed: the suite runs, with or without CI or the requirement', () => {
    for (const env of [{}, { CI: 'true' }, { WSC_REQUIRE_CONTRACT: '1' }]) {
      expect(contractGate(env, prismNeeds(paths), only(paths.prism, paths.description))).toEqual({
        required: 'WSC_REQUIRE_CONTRACT' in env,
        missing: undefined,
      });
    }
  });

  test('Prism missing: a skip naming the install command, CI set or not', () => {
    for (const env of [{}, { CI: 'true' }, { CI: '1', WSC_REQUIRE_CONTRACT: '0' }]) {
      const gate = contractGate(env, prismNeeds(paths), only(paths.description));
      expect(gate.required).toBe(false);
      expect(gate.missing).toMatch(/npm ci --prefix contract/);
    }
  });

  test('Prism missing under WSC_REQUIRE_CONTRACT: required, so the suite fails naming what is missing', () => {
    const gate = contractGate({ CI: 'true', WSC_REQUIRE_CONTRACT: '1' }, prismNeeds(paths), only(paths.description));
    expect(gate).toEqual({ required: true, missing: expect.stringMatching(/contract\/node_modules is missing/) });
  });

  test('the API description missing is named by its path', () => {
    expect(contractGate({}, prismNeeds(paths), only(paths.prism)).missing).toBe(
      'the API description is missing: /c/api.yaml',
    );
  });

  test('the Cube server: missing is a skip naming its install, a failure under WSC_REQUIRE_CONTRACT', () => {
    const cube = { server: '/k/server.mjs', installed: '/k/node_modules/@cubejs-backend/server' };
    expect(contractGate({}, cubeNeeds(cube), only(cube.server, cube.installed))).toEqual({
      required: false,
      missing: undefined,
    });
    expect(contractGate({ CI: 'true' }, cubeNeeds(cube), only(cube.server)).missing).toMatch(
      /npm ci --prefix contract-cube/,
    );
    expect(contractGate({ WSC_REQUIRE_CONTRACT: '1' }, cubeNeeds(cube), only(cube.server))).toEqual({
      required: true,
      missing: expect.stringMatching(/contract-cube\/node_modules is missing/),
    });
    expect(contractGate({}, cubeNeeds(cube), only(cube.installed)).missing).toBe(
      'the Cube server script is missing: /k/server.mjs',
    );
  });

  test('WSC_REQUIRE_CONTRACT: 1/true on, unset/empty/0/false off, anything else refused naming the variable', () => {
    for (const v of ['1', 'true', 'TRUE', ' 1 ']) expect(contractRequired({ WSC_REQUIRE_CONTRACT: v })).toBe(true);
    for (const v of [undefined, '', '0', 'false']) expect(contractRequired({ WSC_REQUIRE_CONTRACT: v })).toBe(false);
    for (const v of ['yes', '2', 'prism']) {
      expect(() => contractRequired({ WSC_REQUIRE_CONTRACT: v })).toThrow(/WSC_REQUIRE_CONTRACT/);
    }
  });

  test('.ci/run installs Prism and the Cube server and requires the contract suites in its test step', () => {
    const script = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(script).toMatch(/npm ci --prefix contract /);
    expect(script).toMatch(/npm ci --prefix contract-cube --ignore-scripts/);
    expect(script).toMatch(/^\s*WSC_REQUIRE_CONTRACT=1 npm test\b/m);
  });
});
