// Folder names a reader cannot trust: `.` and `..` (created literally, not a
// level up), control characters and direction overrides are refused by
// validate; a folder path that differs from another of the bundle, or from a
// live folder, only in case, white space or look-alike letters (`Finаnce`
// with a Cyrillic `а`) is a warning naming both, since it would be a second
// folder.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { cleanupTemp, emulatorEnv, ensureBuilt, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

vi.setConfig({ testTimeout: 120_000 });
beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

const workbook = (slug: string, folder: string) =>
  `kind: Workbook\nslug: ${slug}\nname: ${slug}\nfolder: ${JSON.stringify(folder)}\n`;

describe('folder names validate refuses', () => {
  test.each([
    ['..', /folder path has the folder name `\.\.`, which would be created literally/],
    ['Finance/.', /folder path has the folder name `\.`, which would be created literally/],
    ['Fin\u0007ance', /folder path has a folder name holding a control character \(U\+0007\)/],
    ['Finance/\u202Eecnanif', /folder path has a folder name holding a direction override \(U\+202E\)/],
    ['\u2066Finance\u2069', /folder path has a folder name holding a direction override \(U\+2066\)/],
  ])('%j: exit 3 at file:line:col, nothing sent by plan or apply', async (folder, message) => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({ 'workbooks/w.yaml': workbook('w', folder) });
      for (const cmd of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
        const r = await runCli([...cmd, '--dir', dir, ...target(emu)], { env: emulatorEnv });
        expect(r.code, r.stderr + r.stdout).toBe(3);
        expect(r.stdout + r.stderr).toMatch(/workbooks\/w\.yaml:4:9 error /);
        expect(r.stdout + r.stderr).toMatch(message);
      }
      expect(emu.log).toEqual([]);
    });
  });
});

describe('folder paths that look like another', () => {
  test.each([
    ['case and white space', 'Finance/Revenue Analytics', 'Finance/revenue  analytics', 'case or white space'],
    ['a Cyrillic а', 'Finance', 'Fin\u0430nce', 'look-alike letters'],
  ])('two files of the bundle (%s): validate warns naming both, exit 0', async (_, a, b, how) => {
    const dir = writeFiles({ 'workbooks/a.yaml': workbook('a', a), 'workbooks/b.yaml': workbook('b', b) });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).toContain(
      `workbooks/b.yaml:4:9 warning folder \`${b
        .split('/')
        .slice(0, a.includes('/') ? 2 : 1)
        .join('/')}\` ` + `differs from \`${a}\` (workbooks/a.yaml:4:9) only in ${how}: they would be two folders`,
    );
  });

  test('the same folder written the same way, or two different folders: no warning', async () => {
    const dir = writeFiles({
      'workbooks/a.yaml': workbook('a', 'Finance/Revenue'),
      'workbooks/b.yaml': workbook('b', 'Finance/Revenue'),
      'workbooks/c.yaml': workbook('c', 'Finance/Costs'),
    });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('similar-folder');
    expect(r.stdout + r.stderr).not.toContain('warning');
  });

  test.each([
    ['case and white space', 'Finance/revenue analytics', 'case or white space'],
    ['a Cyrillic а', 'Fin\u0430nce/Revenue Analytics', 'look-alike letters'],
  ])('a live folder (%s): plan warns naming both, in human and JSON', async (_, ours, how) => {
    await withEmulator({}, async (emu) => {
      const first = writeFiles({ 'workbooks/a.yaml': workbook('a', 'Finance/Revenue Analytics') });
      expect(
        (await runCli(['apply', '--auto-approve', '--dir', first, ...target(emu)], { env: emulatorEnv })).code,
      ).toBe(0);
      const dir = writeFiles({ 'workbooks/a.yaml': workbook('a', ours) });
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      const createdLevel = how === 'look-alike letters' ? 'Fin\u0430nce' : ours;
      const liveLevel = how === 'look-alike letters' ? 'Finance' : 'Finance/Revenue Analytics';
      expect(r.stdout).toMatch(
        new RegExp(
          `warning folder ${createdLevel.replace('/', '\\/')} will be created beside the live folder ` +
            `${liveLevel.replace('/', '\\/')} \\(id \\d+\\), whose name differs only in ${how}`,
        ),
      );
      const json = await runCli(['plan', '--output', 'json', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      const warnings = (JSON.parse(json.stdout) as { warnings?: { code: string }[] }).warnings ?? [];
      expect(warnings.map((w) => w.code)).toContain('similar-folder');
    });
  });
});
