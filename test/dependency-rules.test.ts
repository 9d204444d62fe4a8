// The tools of `npm run lint` that hold the structure of src/ (dependency-cruiser
// through its API, knip as its command, with this repository's own configuration files) run on a small tree
// written to a temporary directory: a few files that keep every rule and, beside
// them, one file that breaks each. Each rule must name its breaking import and
// nothing else, so a rule that matches nothing (a typo in a path pattern, a
// dependency type that does not exist) fails here, not silently in CI.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cruise as depcruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

/** The fixture tree every test starts from; each test works on a copy of its own (they run side by side). */
let base: string;
const copies: string[] = [];

/** A copy of the fixture tree for one test (its node_modules the same link). */
function fixture(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'wsc-dependency-rules-'));
  copies.push(copy);
  fs.cpSync(base, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

/** A file of the fixture tree (`at`, the base one by default), its parent folders made. */
function write(file: string, text: string, at = base): void {
  const full = path.join(at, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

function tool(at: string, name: string, args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: '1' };
    const opts = { cwd: at, encoding: 'utf8' as const, env, maxBuffer: 64 * 1024 * 1024 };
    execFile(bin(name), args, opts, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ status, stdout, stderr });
    });
  });
}

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/**
 * dependency-cruiser's violations as `rule: from → to`, sorted: its API, given what its command line gives it
 * (the configuration's options, tsconfig.json), from the tree at `at`. In this process: its start-up (the
 * TypeScript compiler among it) is paid once, not per run. The runs take turns: a cruise clears the library's
 * caches as it starts.
 */
let turn: Promise<unknown> = Promise.resolve();
function cruise(at: string, config: string, ...paths: string[]): Promise<string[]> {
  const mine = turn.then(() => cruiseNow(at, config, paths));
  turn = mine.catch(() => undefined);
  return mine;
}

async function cruiseNow(at: string, config: string, paths: string[]): Promise<string[]> {
  const options = await extractDepcruiseOptions(path.join(ROOT, config));
  const tsConfig = extractTSConfig(path.join(at, 'tsconfig.json'));
  const r = await depcruise(paths, { ...options, baseDir: at, outputType: 'json' }, {}, { tsConfig });
  const out = JSON.parse(String(r.output)) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(out.summary.totalCruised).toBeGreaterThan(5);
  // A package by its name (the fixture's node_modules is a link to the repository's).
  const shown = (to: string) => to.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1');
  return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${shown(v.to)}`).sort();
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'wsc-dependency-rules-'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(base, 'node_modules'), 'dir');
  fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(base, 'tsconfig.json'));
  fs.copyFileSync(path.join(ROOT, 'knip.jsonc'), path.join(base, 'knip.jsonc'));
  write(
    'package.json',
    JSON.stringify({
      name: 'fixture',
      type: 'module',
      private: true,
      dependencies: { zod: '*', chalk: '*', 'p-limit': '*', ora: '*' },
      devDependencies: { vitest: '*' },
    }),
  );
  // Imports every rule allows.
  write('src/errors.ts', 'export class WscError extends Error {}\n');
  write('src/make-dir.ts', "import { mkdir } from 'node:fs/promises';\nexport const makeDir = mkdir;\n");
  write('src/domain/wire.ts', "import * as z from 'zod';\nexport const Slug = z.string();\n");
  write(
    'src/core/json.ts',
    "import { createHash } from 'node:crypto';\nexport const hash = (s: string) => createHash('sha256').update(s);\n",
  );
  write(
    'src/core/plan.ts',
    "import { Slug } from '../domain/wire.js';\nimport { WscError } from '../errors.js';\nimport { hash } from './json.js';\n" +
      'export const plan = () => [Slug, WscError, hash];\n',
  );
  write(
    'src/emulator/index.ts',
    "import { Slug } from '../domain/wire.js';\nimport { makeDir } from '../make-dir.js';\nexport const emulator = [Slug, makeDir];\n",
  );
  write(
    'src/render/plan.ts',
    "import { plan } from '../core/plan.js';\nexport const renderPlan = () => String(plan());\n",
  );
  write('src/api/client.ts', "import { Slug } from '../domain/wire.js';\nexport class ApiClient { slug = Slug; }\n");
  write(
    'src/api/semantic.ts',
    "import { ApiClient } from './client.js';\nexport const check = () => new ApiClient();\n",
  );
  write(
    'src/commands/validate.ts',
    // A type-only import is erased and a dynamic one loads only on its path: neither loads the client.
    "import type { ApiClient } from '../api/client.js';\nimport { renderPlan } from '../render/plan.js';\n" +
      "import { offline } from './offline.js';\n" +
      "export const validate = async (c?: ApiClient) => c ?? (await import('../api/semantic.js')).check() ?? " +
      'renderPlan() ?? offline;\n',
  );
  write('src/commands/offline.ts', "export const offline = 'offline';\n");
  write(
    'src/main.ts',
    "import chalk from 'chalk';\nimport ora from 'ora';\nimport { emulator } from './emulator/index.js';\n" +
      "import { validate } from './commands/validate.js';\nexport const main = () => [chalk, ora, emulator, validate];\n",
  );
}, 30_000);

afterAll(() => {
  for (const d of [base, ...copies]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

// The three describes run side by side, each test on its own copy of the tree: their time is the tools'.
describe.concurrent('dependency-cruiser: .dependency-cruiser.cjs', () => {
  test('each rule names the import that breaks it, and only that one', async () => {
    const at = fixture();
    const bad = [
      // A cycle through three files, one import of it type-only.
      ['src/core/cycle-a.ts', "import type { B } from './cycle-b.js';\nexport type A = B | 1;\n"],
      ['src/core/cycle-b.ts', "import { c } from './cycle-c.js';\nexport type B = typeof c;\n"],
      ['src/core/cycle-c.ts', "import type { A } from './cycle-a.js';\nexport const c: A | 2 = 2;\n"],
      ['src/core/io.ts', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n"],
      ['src/core/renders.ts', "import { renderPlan } from '../render/plan.js';\nexport const r = renderPlan;\n"],
      ['src/emulator/uses-core.ts', "import { plan } from '../core/plan.js';\nexport const p = plan;\n"],
      ['src/domain/uses-errors.ts', "import { WscError } from '../errors.js';\nexport const e = WscError;\n"],
      ['src/render/uses-api.ts', "import { ApiClient } from '../api/client.js';\nexport const a = ApiClient;\n"],
      ['src/preview/serve.ts', "import { ApiClient } from '../api/client.js';\nexport const a = ApiClient;\n"],
      ['src/yaml/read.ts', "import type { Cfg } from '../config/types.js';\nexport type C = Cfg;\n"],
      ['src/config/types.ts', "import { files } from '../bundle/files.js';\nexport type Cfg = typeof files;\n"],
      ['src/bundle/files.ts', "import type { Cfg } from '../config/types.js';\nexport const files: Cfg[] = [];\n"],
      ['src/api/test-only.ts', "import { expect } from 'vitest';\nexport const e = expect;\n"],
      ['src/api/undeclared.ts', "import { diffLines } from 'diff';\nexport const o = diffLines;\n"],
      ['src/render/spinner.ts', "import ora from 'ora';\nexport const o = ora;\n"],
      ['src/render/writes.ts', "import { writeFileSync } from 'node:fs';\nexport const w = writeFileSync;\n"],
      ['src/api/typo.ts', "import { x } from './no-such-file.js';\nexport const y = x;\n"],
      // Folders in a cycle through files that form none.
      ['src/doctor/check.ts', "import { Slug } from '../domain/wire.js';\nexport const check = Slug;\n"],
      ['src/doctor/run.ts', "import { e } from '../api/test-only.js';\nexport const run = e;\n"],
      ['src/api/doctor.ts', "import { check } from '../doctor/check.js';\nexport const d = check;\n"],
      ['src/env.ts', "import { plan } from './core/plan.js';\nexport const env = plan;\n"],
      ['src/commands/exit.ts', "import { main } from '../main.js';\nexport const exit = main;\n"],
    ];
    for (const [file, text] of bad) write(file!, text!, at);
    expect(await cruise(at, '.dependency-cruiser.cjs', 'src')).toEqual([
      'bundle-not-config: src/bundle/files.ts → src/config/types.ts',
      'config-not-bundle: src/config/types.ts → src/bundle/files.ts',
      'core-is-pure: src/core/renders.ts → src/render/plan.ts',
      'core-no-io-modules: src/core/io.ts → fs',
      'domain-is-the-bottom: src/domain/uses-errors.ts → src/errors.ts',
      'emulator-is-independent: src/emulator/uses-core.ts → src/core/plan.ts',
      'main-and-cli-on-top: src/commands/exit.ts → src/main.ts',
      // A folder cycle is named from each of its folders: api ⇄ doctor through files in no cycle, and the
      // folders of the two file cycles below and of core/renders.ts (render/ imports core/).
      'no-circular-folders: src/api → src/doctor',
      'no-circular-folders: src/bundle → src/config',
      'no-circular-folders: src/config → src/bundle',
      'no-circular-folders: src/core → src/render',
      'no-circular-folders: src/doctor → src/api',
      'no-circular-folders: src/render → src/core',
      // One violation per cycle, at the import where the cruise closed it.
      'no-circular: src/bundle/files.ts → src/config/types.ts',
      'no-circular: src/core/cycle-a.ts → src/core/cycle-b.ts',
      'no-dev-dependencies-in-src: src/api/test-only.ts → vitest',
      'no-undeclared-packages: src/api/undeclared.ts → diff',
      'no-unresolvable: src/api/typo.ts → ./no-such-file.js',
      'preview-offline: src/preview/serve.ts → src/api/client.ts',
      'render-does-no-io: src/render/spinner.ts → ora',
      'render-does-no-io: src/render/uses-api.ts → src/api/client.ts',
      'render-no-io-modules: src/render/writes.ts → fs',
      'shared-files-are-leaves: src/env.ts → src/core/plan.ts',
      'yaml-below-config-and-bundle: src/yaml/read.ts → src/config/types.ts',
    ]);
  });
});

describe.concurrent('dependency-cruiser: .dependency-cruiser-static.cjs', () => {
  test('validate may reach the client through a type-only or a dynamic import', async () => {
    expect(await cruise(fixture(), '.dependency-cruiser-static.cjs', 'src/commands/validate.ts')).toEqual([]);
  });

  test('a static path from validate to the client breaks the rule', async () => {
    const at = fixture();
    const offline = path.join(at, 'src/commands/offline.ts');
    fs.writeFileSync(offline, `import '../api/semantic.js';\n${fs.readFileSync(offline, 'utf8')}`);
    expect(await cruise(at, '.dependency-cruiser-static.cjs', 'src/commands/validate.ts')).toEqual([
      'validate-offline: src/commands/validate.ts → src/api/client.ts',
    ]);
  });
});

describe.concurrent('knip: knip.jsonc', () => {
  test('names an unused file, export, exported type and dependency, and fails', async () => {
    const at = fixture();
    write('src/orphan.ts', 'export const orphan = 1;\n', at);
    write(
      'src/core/leftover.ts',
      "import { plan } from './plan.js';\nexport const used = plan;\nexport const unused = 2;\nexport type Unused = 3;\n",
      at,
    );
    write('src/render/uses-leftover.ts', "import { used } from '../core/leftover.js';\nexport const u = used;\n", at);
    write(
      'src/main.ts',
      `${fs.readFileSync(path.join(at, 'src/main.ts'), 'utf8')}import './render/uses-leftover.js';\n`,
      at,
    );
    const r = await tool(at, 'knip', ['--no-progress', '--reporter', 'json']);
    expect(r.status).not.toBe(0);
    const out = JSON.parse(r.stdout) as {
      issues: { file: string; [kind: string]: unknown }[];
    };
    const named = (kind: string) =>
      out.issues
        .flatMap((i) => {
          const v = i[kind];
          const list = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
          return (list as { name: string }[]).map((x) => `${i.file}: ${x.name}`);
        })
        .sort();
    expect(named('files')).toContain('src/orphan.ts: src/orphan.ts');
    expect(named('exports')).toContain('src/core/leftover.ts: unused');
    expect(named('types')).toContain('src/core/leftover.ts: Unused');
    expect(named('dependencies')).toEqual(['package.json: p-limit']);
  }, 30_000);
});
