// An export killed while it writes (SIGKILL: no handler runs) over a bundle an
// earlier export wrote, from a deployment whose reports have changed since:
// every file is still whole, either the old text or the new one, because each
// changed file is written beside its target and renamed over it. The next
// export removes the temporary file the killed one may have left and writes
// the new bundle; a file that already holds its text is not rewritten.
import { cpSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { generateSeed } from '../../src/emulator/index.js';
import { cleanupTemp, runCli, tempDir, withEmulator, type RunOptions } from './helpers/index.js';

afterAll(cleanupTemp);

const env = { WSC_TOKEN: 'dev-token' };

/**
 * Every file in the bundle directories of dir (relative path -> text);
 * wsc.yaml, written once and naming the emulator's port, aside.
 */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory())
      for (const f of readdirSync(join(dir, e.name)))
        out.set(`${e.name}/${f}`, readFileSync(join(dir, e.name, f), 'utf8'));
  }
  return out;
}

// Enough reports that the killed export is still writing them many pages
// after the signal's cue (the size is not otherwise the point).
const REPORTS = 150;
const OLD = generateSeed({ reports: REPORTS, workbooks: 5, withDashboards: true, randomSeed: 9 });
// The same reports under the same names (so the same files), with new titles.
const NEW = structuredClone(OLD);
for (const r of NEW.reports ?? []) r.title = `${String(r.title)} (revised)`;

/**
 * Exports deployment 1 of an emulator seeded with `seed` into `out`. `slow`:
 * in a process of its own (to be killed), reports in pages of 10, 150 ms
 * apart, so that it is still writing (15 pages, 2.25 s) when its signal lands,
 * however busy the machine.
 */
async function exportFrom(seed: typeof OLD, out: string, slow?: { onSpawn: RunOptions['onSpawn'] }) {
  const emulator = slow ? { seed, latencyMs: 150 } : { seed };
  const paging = slow ? ['--page-size', '10'] : [];
  return withEmulator(emulator, (emu) =>
    runCli(['export', '--out', out, '--base-url', emu.url, '--deployment', '1', ...paging], {
      env,
      ...(slow ? { onSpawn: slow.onSpawn } : {}),
    }),
  );
}

describe('export killed while writing', () => {
  // The old and the new bundle, exported once: each case kills an export over a copy of the old one.
  let oldBundle: string;
  let before: Map<string, string>;
  let after: Map<string, string>;
  let changed: string[];
  beforeAll(async () => {
    oldBundle = tempDir();
    const newDir = tempDir();
    const [o, n] = await Promise.all([exportFrom(OLD, oldBundle), exportFrom(NEW, newDir)]);
    expect(o.code, o.stderr).toBe(0);
    expect(n.code, n.stderr).toBe(0);
    before = files(oldBundle);
    after = files(newDir);
    changed = [...after.keys()].filter((k) => after.get(k) !== before.get(k));
  }, 90_000);

  test('the new export changes every report file and no file name', () => {
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(changed.length).toBeGreaterThanOrEqual(REPORTS);
  });

  // Each case has its own emulators and directory: they run at once.
  test.concurrent.for([1, 30, 120])(
    'SIGKILL after %i file events: every file old or new, whole; the next export completes it',
    { timeout: 90_000 },
    async (events, { expect }: TestContext) => {
      const oldDir = tempDir();
      cpSync(oldBundle, oldDir, { recursive: true, preserveTimestamps: true });
      expect(files(oldDir)).toEqual(before);

      let killed = false;
      await exportFrom(NEW, oldDir, {
        onSpawn: (child) => {
          let seen = 0;
          const w = watch(join(oldDir, 'reports'), () => {
            if (++seen < events) return;
            w.close();
            killed = child.kill('SIGKILL');
          });
        },
      }).then(
        (r) => expect.fail(`the export was not killed: exit ${r.code}`),
        (e: Error) => expect(e.message).toMatch(/killed \(SIGKILL\)/),
      );
      expect(killed).toBe(true);
      const now = files(oldDir);
      const leftovers = [...now.keys()].filter((k) => k.endsWith('.wsc-tmp'));
      expect(leftovers.length).toBeLessThanOrEqual(1);
      expect([...now.keys()].filter((k) => !k.endsWith('.wsc-tmp')).sort()).toEqual([...before.keys()].sort());
      let rewritten = 0;
      for (const [rel, text] of now) {
        if (rel.endsWith('.wsc-tmp')) continue;
        expect([before.get(rel), after.get(rel)], rel).toContain(text);
        if (text !== before.get(rel)) rewritten++;
      }
      // Killed in the middle: not all files new yet (and, past the first events, some already).
      if (events >= 30) expect(rewritten).toBeGreaterThan(0);
      expect(rewritten).toBeLessThan(changed.length);

      const unchangedFile = join(
        oldDir,
        [...after.keys()].find((k) => k.startsWith('schemas/'))!,
      );
      const mtime = statSync(unchangedFile).mtimeMs;
      const docs = [...after.keys()].filter((k) => !k.startsWith('schemas/'));
      const stillOld = docs.filter((k) => now.get(k) !== after.get(k)).length;
      const last = await exportFrom(NEW, oldDir);
      expect(last.code).toBe(0);
      expect(last.stdout).toContain(
        `(${docs.length} files; ${stillOld} new or changed, ${docs.length - stillOld} already up to date).`,
      );
      expect(files(oldDir)).toEqual(after);
      expect(statSync(unchangedFile).mtimeMs).toBe(mtime);
    },
  );
});
