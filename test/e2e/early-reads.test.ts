// Plan and apply read the deployment while a bundle of READ_WHILE_LOADING_FROM_FILES
// files or more loads (api/deployment-read.ts; below the worker thread's size
// it loads in turns of the event loop, bundle/load.ts). The lists' GETs leave
// before the bundle is known valid; the data model's token is minted once a
// loaded document names a member. What must hold: an invalid bundle ends in
// exit 3 with no write; a bundle that names no member mints no token; the plan
// is the one of a bundle read first; a smaller bundle sends nothing before it
// is known valid.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBundleFromSeed } from '../../bench/bundle.js';
import { READ_WHILE_LOADING_FROM_FILES } from '../../src/bundle/load-off-thread.js';
import { generateSeed, requests, writes } from '../../src/emulator/index.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

/** `n` reports whose queries are SQL naming no member (nothing for the semantic check to ask). */
function sqlReports(n: number): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: n }, (_, i) => {
      const id = `sqlRep${String(i).padStart(6, '0')}`;
      return [`reports/${id}.yaml`, `kind: Report\npublicId: ${id}\nname: R${i}\nsqlQuery: select ${i}\n`];
    }),
  );
}

describe('the deployment is read while a bundle loads', () => {
  it(`a bundle of fewer than ${READ_WHILE_LOADING_FROM_FILES} files, invalid at its last: exit 3 and not one request`, async () => {
    const n = READ_WHILE_LOADING_FROM_FILES - 1;
    const last = `sqlRep${String(n - 1).padStart(6, '0')}`;
    const files = sqlReports(n);
    files[`reports/${last}.yaml`] = `kind: Report\npublicId: ${last}\nnmae: typo\n`;
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--dir', writeFiles(files), ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`reports/${last}.yaml:3:1 error `);
      expect(emu.log).toEqual([]);
    });
  });

  it('an invalid bundle of 400 files: exit 3 at its last file, the lists asked for meanwhile, nothing written', async () => {
    const files = sqlReports(400);
    files['reports/sqlRep000399.yaml'] = 'kind: Report\npublicId: sqlRep000399\nnmae: typo\n';
    const dir = writeFiles(files);
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^reports\/sqlRep000399\.yaml:3:1 error /m);
      expect(r.stdout).toBe('');
      // The reports' list was asked for before the loader reached the broken file (400 files: many turns).
      expect(requests(emu.log, 'GET', /\/deployments\/1\/reports/).length).toBeGreaterThan(0);
      expect(writes(emu.log)).toEqual([]);
      expect(requests(emu.log, 'POST')).toEqual([]);
    });
  });

  it('a bundle naming no member mints no token; one naming members mints one, read beside the lists', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles(sqlReports(READ_WHILE_LOADING_FROM_FILES));
      const plain = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plain.code, plain.stderr).toBe(0);
      expect(requests(emu.log, 'POST')).toEqual([]);
      expect(requests(emu.log, 'GET', /\/environments/)).toEqual([]);
    });
    const seed = generateSeed({ reports: 200, workbooks: 20, withDashboards: true, randomSeed: 5 });
    const dir = tempDir();
    writeBundleFromSeed(seed, dir);
    expect(readdirSync(join(dir, 'reports')).length).toBeGreaterThanOrEqual(READ_WHILE_LOADING_FROM_FILES);
    await withEmulator({ seed: structuredClone(seed) }, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      // The bundle is the deployment: no change, no phantom diff from reading while loading.
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('No changes.');
      expect(requests(emu.log, 'POST', /\/token$/)).toHaveLength(1);
      expect(writes(emu.log)).toEqual([]);
    });
  });

  it('a bundle loaded in turns plans what it changes, at the line it was changed', async () => {
    const seed = generateSeed({ reports: 200, workbooks: 10, withDashboards: true, randomSeed: 6 });
    const dir = tempDir();
    writeBundleFromSeed(seed, dir);
    const file = readdirSync(join(dir, 'reports')).sort().at(-1)!;
    const path = join(dir, 'reports', file);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/^name: .*$/m, 'name: Renamed while the lists were read'));
    await withEmulator({ seed: structuredClone(seed) }, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toContain('Renamed while the lists were read');
      // One change, placed at its file's line and column.
      expect(r.stdout).toContain('Plan: 0 to create, 1 to update, 0 to adopt, 0 to publish.');
      expect(r.stdout).toMatch(
        new RegExp(
          `name: "[^"]*" → "Renamed while the lists were read" {2}\\(reports/${file.replace('.', '\\.')}:\\d+:1\\)`,
        ),
      );
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
