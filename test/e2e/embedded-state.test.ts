// An embedded environment's state file (.wsc/state/<env>.json of the bundle) that cannot be used: as the run
// starts, a file in the way or a state that does not load ends it with exit 3, what to mend, and nothing reset;
// once the run has changed the state, a file that cannot be written ends it with exit 1, saying the changes are
// not kept; and what each message says is followed: the hint mends the run, a plan shows the changes again.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { copyFixture, e2eSuite, runCli } from './helpers/index.js';

e2eSuite();

const stateOf = (dir: string) => join(dir, '.wsc/state/local.json');

describe("an embedded environment's state file", () => {
  test('a file where its directory goes: exit 3 naming it, nothing made; made a directory, the run goes on', async () => {
    const dir = copyFixture('example');
    writeFileSync(join(dir, '.wsc'), 'not a directory');
    const r = await runCli(['apply', '--auto-approve', '--dir', dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `Error: cannot write the state file ${stateOf(dir)}: a part of the path is not a directory (ENOTDIR): ` +
        `${join(dir, '.wsc')} [state_file_unusable]\n` +
        "Hint: The embedded environment `local` keeps its state in the bundle's .wsc/state/: make that a directory " +
        'wsc can write.\n',
    );
    expect(r.stdout).toBe('');
    expect(readFileSync(join(dir, '.wsc'), 'utf8')).toBe('not a directory');
    rmSync(join(dir, '.wsc'));
    mkdirSync(join(dir, '.wsc'));
    const again = await runCli(['apply', '--auto-approve', '--dir', dir]);
    expect(again.code, again.stderr).toBe(0);
  });

  test('a state that does not load: exit 3, kept as it is; removed as the hint says, the environment starts afresh', async () => {
    const dir = copyFixture('example');
    expect((await runCli(['apply', '--auto-approve', '--dir', dir])).code).toBe(0);
    const state = stateOf(dir);
    const torn = readFileSync(state, 'utf8').slice(0, 100);
    writeFileSync(state, torn);
    for (const cmd of ['plan', 'drift', 'export']) {
      const args = cmd === 'export' ? ['export', '--dir', dir, '--out', join(dir, 'out')] : [cmd, '--dir', dir];
      const r = await runCli(args);
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toContain(`Error: cannot load the state file ${state}: not valid JSON (`);
      expect(r.stderr).toContain(
        `Hint: The embedded environment \`local\` keeps its state in the bundle's .wsc/state/: remove ${state} to ` +
          'start it afresh (what it held is lost).',
      );
      expect(r.stderr).not.toContain('    at ');
      expect(readFileSync(state, 'utf8')).toBe(torn);
    }
    rmSync(state);
    const fresh = await runCli(['plan', '--dir', dir, '--detailed-exitcode']);
    expect(fresh.code, fresh.stderr).toBe(2);
    expect(fresh.stdout).toContain('Plan: 16 to create, 0 to update, 0 to adopt, 2 to publish.');
  });

  test("a state file that cannot be written once the run changed the state: exit 1 after the apply's output; a plan shows the change again", async () => {
    const dir = copyFixture('example');
    expect((await runCli(['apply', '--auto-approve', '--dir', dir])).code).toBe(0);
    const state = stateOf(dir);
    const before = readFileSync(state, 'utf8');
    const file = join(dir, 'reports/mrr-trend.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('title: Monthly recurring revenue', 'title: MRR'));
    // Where each write's temporary file goes (emulator/persist.ts; this process runs the CLI), a directory:
    // every write of the run fails, as on a full disk.
    const temps = Array.from({ length: 40 }, (_, seq) =>
      join(dirname(state), `.${basename(state)}.${process.pid}.${seq}.tmp`),
    );
    temps.forEach((t) => mkdirSync(t));
    const r = await runCli(['apply', '--auto-approve', '--dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Apply complete: 0 created, 1 updated, 0 adopted, 0 published.');
    expect(r.stderr).toContain(`Error: cannot write the state file ${state}: is a directory (EISDIR): `);
    expect(r.stderr).toContain(
      '.tmp. What this run changed in the embedded environment is not kept: a plan shows it again. [state_not_saved]\n' +
        "Hint: The embedded environment `local` keeps its state in the bundle's .wsc/state/: make that a directory " +
        'wsc can write.\n',
    );
    expect(readFileSync(state, 'utf8')).toBe(before);
    temps.forEach((t) => rmSync(t, { recursive: true }));
    const plan = await runCli(['plan', '--dir', dir, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('title: "Monthly recurring revenue" → "MRR"');
  });
});
