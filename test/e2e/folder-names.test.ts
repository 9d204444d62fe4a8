// Folder names a reader cannot trust: `.` and `..` (created literally, not a
// level up), control characters and direction overrides are refused by
// validate; a folder path that differs from another of the bundle, or from a
// live folder, only in case, white space or look-alike letters (`Finаnce`
// with a Cyrillic `а`) is an error in validate, plan and apply (exit 3) with a
// did-you-mean naming both, since it would be a second folder (issue 38,
// item 6); a bundle that wants both says `folderLookAlikes: allow`.
import { describe, expect, test } from 'vitest';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

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
  /** wsc.yaml of a bundle that wants folders alike (`folderLookAlikes: allow`), or says nothing. */
  const config = (allow: boolean) =>
    `${allow ? 'folderLookAlikes: allow\n' : ''}environments:\n  test:\n    deploymentId: 1\n`;

  test.each([
    ['case and white space', 'Finance/Revenue Analytics', 'Finance/revenue  analytics', 'case or white space'],
    ['a Cyrillic а', 'Finance', 'Fin\u0430nce', 'look-alike letters'],
  ])(
    'two files of the bundle (%s): an error naming both in validate, plan and apply (exit 3)',
    async (_, a, b, how) => {
      const files = { 'workbooks/a.yaml': workbook('a', a), 'workbooks/b.yaml': workbook('b', b) };
      const level = b
        .split('/')
        .slice(0, a.includes('/') ? 2 : 1)
        .join('/');
      const said =
        `folder \`${level}\` differs from \`${a}\` (workbooks/a.yaml:4:9) only in ${how}: they would be two ` +
        `folders; did you mean \`${a}\`?`;
      await withEmulator({}, async (emu) => {
        const dir = writeFiles({ ...files, 'wsc.yaml': config(false) });
        for (const cmd of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
          const r = await runCli([...cmd, '--dir', dir, '--env', 'test', ...target(emu)], { env: emulatorEnv });
          expect(r.code, r.stdout + r.stderr).toBe(3);
          expect(r.stdout + r.stderr).toContain(`workbooks/b.yaml:4:9 error ${said}`);
        }
        expect(emu.log).toEqual([]);
        // A bundle that wants both says so: a warning, and validate passes.
        const allowed = writeFiles({ ...files, 'wsc.yaml': config(true) });
        const r = await runCli(['validate', '--dir', allowed, '--env', 'test', ...target(emu)], { env: emulatorEnv });
        expect(r.code, r.stdout + r.stderr).toBe(0);
        expect(r.stdout + r.stderr).toContain(`workbooks/b.yaml:4:9 warning ${said}`);
      });
    },
  );

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

  // [what, the bundle's path, the level it differs at, the live folder there, how]
  test.each([
    [
      'case (second level)',
      'Finance/revenue analytics',
      'Finance/revenue analytics',
      'Finance/Revenue Analytics',
      'case or white space',
    ],
    ['case (first level)', 'finance/Revenue Analytics', 'finance', 'Finance', 'case or white space'],
    ['white space, every level', ' Finance /Revenue  Analytics/Q1', ' Finance ', 'Finance', 'case or white space'],
    ['a Cyrillic а', 'Fin\u0430nce/revenue analytics', 'Fin\u0430nce', 'Finance', 'look-alike letters'],
  ])(
    'a live folder (%s): plan and apply refuse (exit 3) naming both, nothing written; `folderLookAlikes: allow` plans the twin',
    async (_, ours, level, liveLevel, how) => {
      await withEmulator({}, async (emu) => {
        const first = writeFiles({ 'workbooks/a.yaml': workbook('a', 'Finance/Revenue Analytics/Q1') });
        expect(
          (await runCli(['apply', '--auto-approve', '--dir', first, ...target(emu)], { env: emulatorEnv })).code,
        ).toBe(0);
        const files = { 'workbooks/a.yaml': workbook('a', ours) };
        const dir = writeFiles({ ...files, 'wsc.yaml': config(false) });
        emu.clearLog();
        for (const cmd of [['plan'], ['apply', '--auto-approve'], ['plan', '--output', 'json']]) {
          const r = await runCli([...cmd, '--dir', dir, '--env', 'test', ...target(emu)], { env: emulatorEnv });
          expect(r.code, r.stdout + r.stderr).toBe(3);
          expect(r.stdout).toBe('');
          const meant = ours.endsWith('Q1') ? 'Finance/Revenue Analytics/Q1' : 'Finance/Revenue Analytics';
          expect(r.stderr).toContain(
            `workbooks/a.yaml:4:1: folder \`${ours}\`: \`${level}\` differs from the live folder \`${liveLevel}\` (id `,
          );
          expect(r.stderr).toMatch(
            new RegExp(
              `\\(id \\d+\\) only in ${how}, so apply would create a second folder beside it\\. ` +
                `Did you mean \`${meant}\`\\? \\[folder_look_alike\\]`,
            ),
          );
          expect(r.stderr).toContain('`folderLookAlikes: allow` in wsc.yaml');
        }
        expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);

        const allowed = writeFiles({ ...files, 'wsc.yaml': config(true) });
        const r = await runCli(['plan', '--output', 'json', '--dir', allowed, '--env', 'test', ...target(emu)], {
          env: emulatorEnv,
        });
        expect(r.code, r.stderr).toBe(0);
        const plan = JSON.parse(r.stdout) as { warnings?: { code: string }[]; summary: { create: number } };
        expect(plan.warnings?.map((w) => w.code)).toContain('similar-folder');
        expect(plan.summary.create).toBeGreaterThan(0);
      });
    },
  );
});
