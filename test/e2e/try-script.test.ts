// `npm run try` as a newcomer runs it: every step shown (validate, the first
// apply, an edit, the plan of that edit in full, its apply, the final plan),
// in a length one screen of scrolling takes in. Then the README's next step,
// followed as written: edit the file the run names, run the command it prints.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, root, runCli } from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);

/** One run of `npm run try` (its script), shared: the first test reads its output, the second follows it. */
let tried: SpawnSyncReturns<string> | undefined;
const tryRun = () =>
  (tried ??= spawnSync(process.execPath, [join(root, 'scripts/try.mjs')], { encoding: 'utf8', timeout: 120_000 }));

describe('npm run try', () => {
  test('shows each step, the change planned in full, applies compact, ends with no changes; under 150 lines', () => {
    const r = tryRun();
    expect(r.status, r.stderr).toBe(0);
    const out = `${r.stdout}${r.stderr}`;
    const lines = out.split('\n');
    expect(lines.length).toBeLessThan(150);
    const commands = lines.filter((l) => l.startsWith('$ wsc ')).map((l) => l.split(' --dir ')[0]);
    expect(commands.map((l) => l!.replace(/--out \S+/, '--out DIR'))).toEqual([
      '$ wsc validate',
      '$ wsc apply --compact --auto-approve',
      '$ wsc plan',
      '$ wsc apply --compact --auto-approve',
      '$ wsc plan --detailed-exitcode',
      '$ wsc preview --out DIR --with-data',
    ]);
    // It ends by naming one picture of the changed dashboard, drawn with data.
    const png = /A picture with data: (\S+\.png) \(and its \.svg\)/.exec(out)?.[1];
    expect(png, out.slice(-400)).toBeDefined();
    expect(readFileSync(png!).subarray(1, 4).toString()).toBe('PNG');
    const svg = readFileSync(png!.replace(/\.png$/, '.svg'), 'utf8');
    expect(svg).toContain('<g class="chart"><svg ');
    expect(svg).toContain('data-id="win-rate"');
    // The plan in full: the widget lines with their titles and places, and the map.
    expect(out).toMatch(
      /~ widget win-rate "Win rate this quarter" resized 6×4 → 6×3 {2}\(workbooks\/sales-pipeline\.yaml:\d+:\d+\)/,
    );
    expect(out).toContain('before (lg, 12 columns)');
    // The apply after it: compact, the widgets named.
    expect(out).toContain('(widgets: win-rate resized, cycle-length config)');
    expect(out).toContain('Apply complete: 0 created, 1 updated, 0 adopted, 1 published.');
    expect(out).toContain('No changes. The deployment matches the bundle.');
  }, 180_000);

  test("the README's next step shows the reader's edit and nothing else", async () => {
    // The README shows the run's last lines with a sample directory; the run must print them so.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const sample = /Now make a change of your own[\s\S]*?\n```\n([\s\S]*?)\n```\n/.exec(readme)?.[1];
    expect(sample, 'the README shows the lines `npm run try` ends with').toBeDefined();
    const sampleDir = /--dir (\S+)/.exec(sample!)![1]!;
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const shape = new RegExp(escape(sample!).split(escape(sampleDir)).join('(/\\S+)'));

    const r = tryRun();
    expect(r.status, r.stderr).toBe(0);
    const m = shape.exec(r.stdout);
    expect(m, r.stdout.slice(-400)).not.toBeNull();
    const dir = m![1]!;
    expect(m!.slice(1).every((d) => d === dir)).toBe(true);
    try {
      // "edit …/reports/mrr-trend.yaml (its title, say)"
      const file = join(dir, 'reports/mrr-trend.yaml');
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^title: Monthly recurring revenue$/m);
      writeFileSync(file, text.replace(/^title: .*$/m, 'title: MRR by month'));
      // "then run  node bin/wsc.js plan --dir …", in the clone, as printed.
      const command = /\n {2}(node bin\/wsc\.js plan --dir \S+)\n/.exec(r.stdout)![1]!;
      const plan = spawnSync(command, { cwd: root, shell: true, encoding: 'utf8', timeout: 60_000 });
      expect(plan.status, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('title: "Monthly recurring revenue" → "MRR by month"');
      expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to adopt, 0 to publish.');
      expect(plan.stdout.match(/^[~+\-!] \S+/gm)).toEqual(['~ report/revMrrTrnd01', '~ report/revMrrTrnd01']);
      // "`node bin/wsc.js apply --dir …` applies it …, and `node bin/wsc.js plan --dir …` is then empty again"
      // (--auto-approve answers the question a terminal would be asked). In this process: the printed command
      // line ran as printed above; these two check what it leads to.
      const apply = await runCli(['apply', '--dir', dir, '--auto-approve']);
      expect(apply.code, apply.stderr).toBe(0);
      const again = await runCli(['plan', '--dir', dir]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes. The deployment matches the bundle.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
