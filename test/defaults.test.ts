// The defaults' texts are derived from the numbers: a size is written as the
// flags take it, and reads back as the same number.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { buildCli } from '../src/cli.js';
import {
  CONCURRENCY,
  EMULATOR_PORT,
  MAP_WIDTH,
  MAX_LIST_BYTES,
  MAX_RETRIES,
  PAGE_SIZE,
  PREVIEW_PORT,
  REQUEST_TIMEOUT_S,
  SEMANTIC_TIMEOUT_S,
  sizeText,
} from '../src/defaults.js';
import * as defaults from '../src/defaults.js';
import { ENV_VARS, parseBytes } from '../src/env.js';
import { runs } from './helpers/property.js';

describe('sizeText', () => {
  test('the list-bytes default reads as the docs say it', () => {
    expect(sizeText(MAX_LIST_BYTES)).toBe('512M');
    expect([sizeText(2 * 1024 ** 3), sizeText(64 * 1024), sizeText(1000)]).toEqual(['2G', '64K', '1000']);
  });

  test('what it writes, parseBytes reads back as the same number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) => parseBytes(sizeText(n)) === n),
      { numRuns: runs(200) },
    );
  });
});

describe('every default a user can change is in defaults.ts', () => {
  const cli = buildCli();
  const flag = (command: string, long: string) =>
    (command === '' ? cli : cli.commands.find((c) => c.name() === command)!).options.find((o) => o.long === long)!;

  test("the flags' defaults are defaults.ts's", () => {
    expect(flag('emulator', '--port').defaultValue).toBe(EMULATOR_PORT);
    expect(flag('preview', '--port').defaultValue).toBe(PREVIEW_PORT);
    expect(flag('plan', '--concurrency').defaultValue).toBe(CONCURRENCY);
    expect(flag('plan', '--max-retries').defaultValue).toBe(MAX_RETRIES);
    expect(flag('plan', '--page-size').description).toContain(`default ${PAGE_SIZE}`);
  });

  test("the variables' table states defaults.ts's values", () => {
    const text = (name: string) => ENV_VARS.find((v) => v.name === name)!.description;
    expect(text('COLUMNS')).toContain(`default ${MAP_WIDTH})`);
    expect(text('WSC_REQUEST_TIMEOUT')).toContain(`default ${REQUEST_TIMEOUT_S})`);
    expect(text('WSC_PAGE_SIZE')).toContain(`default ${PAGE_SIZE})`);
    expect(text('WSC_SEMANTIC_TIMEOUT')).toContain(`(default ${SEMANTIC_TIMEOUT_S})`);
  });

  test("README and docs/plan-apply.md state the semantic check's default budget", () => {
    const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(read('README.md')).toContain(`questions have ${SEMANTIC_TIMEOUT_S} s each (\`WSC_SEMANTIC_TIMEOUT\``);
    expect(read('docs/plan-apply.md')).toContain(
      `the model read has ${SEMANTIC_TIMEOUT_S} s, the planner's questions after the plan ${SEMANTIC_TIMEOUT_S} s more`,
    );
  });

  test("every flag's numeric default is a value defaults.ts exports", () => {
    const known = new Set(Object.values(defaults).filter((v) => typeof v === 'number'));
    const numeric = [cli, ...cli.commands].flatMap((c) =>
      c.options.filter((o) => typeof o.defaultValue === 'number').map((o) => `${c.name()} ${o.long}`),
    );
    expect(numeric.length).toBeGreaterThanOrEqual(4);
    const stray = [cli, ...cli.commands].flatMap((c) =>
      c.options
        .filter((o) => typeof o.defaultValue === 'number' && !known.has(o.defaultValue))
        .map((o) => `${c.name()} ${o.long}`),
    );
    expect(stray).toEqual([]);
  });
});
