// Likely mistakes caught with a hint: a `$report` or `$workbook` that names
// nothing but is a slip of a name the bundle has (a digit, a swap of two
// letters, case), and a folder path a few edits from the one the rest of the
// bundle names. `validate` warns with "did you mean …" at the reference's
// file:line:col, `plan` prints the same warnings and its own error names the
// near names of bundle and deployment; `validate --strict` makes a reference
// that cannot be resolved offline an error (exit 3).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { copyFixture, e2eSuite, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

/** Replaces `from` by `to` in a file of `dir`; returns `file:line:col` of where `to` now starts. */
function edit(dir: string, file: string, from: string, to: string): string {
  const text = readFileSync(join(dir, file), 'utf8');
  const at = text.indexOf(from);
  expect(at, `${from} in ${file}`).toBeGreaterThanOrEqual(0);
  writeFileSync(join(dir, file), text.slice(0, at) + to + text.slice(at + from.length));
  const before = text.slice(0, at).split('\n');
  return `${file}:${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** The example bundle with the two slips of the issue: a report id one digit off, a slug with two letters swapped. */
function slipped(): { dir: string; reportAt: string; workbookAt: string } {
  const dir = copyFixture('example');
  const reportAt = edit(dir, 'workbooks/revenue-overview.yaml', '$report: revMrrTrnd01', '$report: revMrrTrnd02');
  const workbookAt = edit(dir, 'reports/mrr-trend.yaml', '$workbook: revenue-overview', '$workbook: revenue-overveiw');
  return {
    dir,
    // The diagnostics point at the reference's value, after `$report: `.
    reportAt: reportAt.replace(/:(\d+)$/, (_, c: string) => `:${Number(c) + '$report: '.length}`),
    workbookAt: workbookAt.replace(/:(\d+)$/, (_, c: string) => `:${Number(c) + '$workbook: '.length}`),
  };
}

describe('near misses', () => {
  test('validate: each slip warned of with "did you mean" at its file:line:col (a remote environment)', async () => {
    const { dir, reportAt, workbookAt } = slipped();
    const r = await runCli(['validate', '--dir', dir, '--env', 'staging']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(
      `${reportAt} warning report \`revMrrTrnd02\` is not in the bundle (did you mean \`revMrrTrnd01\`?); ` +
        'plan will check the target [unknown-reference]',
    );
    expect(r.stdout).toContain('hint: `revMrrTrnd01` is the report of reports/mrr-trend.yaml:3:11.');
    expect(r.stdout).toContain(
      `${workbookAt} warning workbook \`revenue-overveiw\` is not in the bundle (did you mean ` +
        '`revenue-overview`?); plan will check the target [unknown-reference]',
    );
    expect(r.stdout).toContain('hint: `revenue-overview` is the workbook of workbooks/revenue-overview.yaml:3:7.');
  });

  test('validate: case alone is a near miss of a publicId; a reference far from every name gets no guess', async () => {
    const dir = copyFixture('example');
    const caseAt = edit(dir, 'workbooks/revenue-overview.yaml', '$report: revNrrKpi001', '$report: revNRRKpi001');
    edit(dir, 'workbooks/sales-pipeline.yaml', '$report: pipeStage001', '$report: zzzzzzzzzzzz');
    const r = await runCli(['validate', '--dir', dir, '--env', 'staging', '--output', 'json']);
    expect(r.code).toBe(0);
    const diags = (JSON.parse(r.stdout) as { diagnostics: { message: string; pos: { line: number } }[] }).diagnostics;
    const [line] = caseAt.split(':').slice(1).map(Number);
    expect(diags.find((d) => d.message.includes('revNRRKpi001'))).toMatchObject({
      message: expect.stringContaining('(did you mean `revNrrKpi001`?)') as unknown,
      pos: { line },
    });
    const far = diags.find((d) => d.message.includes('zzzzzzzzzzzz'))!;
    expect(far.message).toBe('report `zzzzzzzzzzzz` is not in the bundle; plan will check the target');
  });

  test('validate --strict: a reference the bundle cannot resolve is an error (exit 3), with the guess', async () => {
    const { dir, reportAt, workbookAt } = slipped();
    const r = await runCli(['validate', '--dir', dir, '--env', 'staging', '--strict']);
    expect(r.code, r.stdout).toBe(3);
    expect(r.stdout).toContain(
      `${reportAt} error report \`revMrrTrnd02\` is not in the bundle (did you mean \`revMrrTrnd01\`?) ` +
        '(--strict: every reference must resolve within the bundle) [unknown-reference]',
    );
    expect(r.stdout).toContain(`${workbookAt} error workbook \`revenue-overveiw\` is not in the bundle`);
    expect(r.stdout).toContain('2 errors, 0 warnings\nBundle is invalid.');
    // Without --strict the same bundle is valid for a remote environment: only warnings.
    const loose = await runCli(['validate', '--dir', dir, '--env', 'staging']);
    expect(loose.code).toBe(0);
    // A clean bundle passes --strict.
    const clean = await runCli(['validate', '--dir', copyFixture('example'), '--strict']);
    expect(clean.code, clean.stdout).toBe(0);
  });

  test('--strict also when wsc.yaml itself is invalid (its bundle read without the environment)', async () => {
    const { dir, reportAt } = slipped();
    writeFileSync(join(dir, 'wsc.yaml'), 'environments: [oops]\n');
    const loose = await runCli(['validate', '--dir', dir]);
    expect(loose.stdout).toContain(`${reportAt} warning report \`revMrrTrnd02\``);
    const r = await runCli(['validate', '--dir', dir, '--strict']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`${reportAt} error report \`revMrrTrnd02\` is not in the bundle`);
  });

  test('plan: the warnings again, then the error names the near names; nothing is written', async () => {
    await withEmulator({}, async (emu) => {
      // A workbook only the deployment has is a name plan can suggest too.
      const put = await fetch(`${emu.url}/api/v1/deployments/1/workbooks/by-slug/marketing-funnel`, {
        method: 'PUT',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Marketing funnel' }),
      });
      expect(put.status).toBe(200);
      const { dir, reportAt } = slipped();
      const env = { WSC_TOKEN: 'dev-token', WSC_STAGING_TOKEN: 'dev-token' };
      const cli = (args: string[]) => runCli([...args, '--dir', dir, '--env', 'staging', ...target(emu)], { env });
      const p = await cli(['plan']);
      expect(p.code, p.stderr).toBe(3);
      expect(p.stderr).toContain(`${reportAt} warning report \`revMrrTrnd02\` is not in the bundle (did you mean`);
      expect(p.stderr).toContain('workbook `revenue-overveiw` is not in the bundle (did you mean `revenue-overview`?)');
      expect(p.stderr).toMatch(
        /refers to (report "revMrrTrnd02"|workbook "revenue-overveiw"), which is neither in the bundle nor in the deployment\. Did you mean `(revMrrTrnd01|revenue-overview)`\?/,
      );

      // The deployment's own names: a slip of a workbook only it holds.
      edit(dir, 'reports/mrr-trend.yaml', '$workbook: revenue-overveiw', '$workbook: marketing-funel');
      edit(dir, 'workbooks/revenue-overview.yaml', '$report: revMrrTrnd02', '$report: revMrrTrnd01');
      const q = await cli(['plan']);
      expect(q.code, q.stderr).toBe(3);
      expect(q.stderr).toContain(
        'refers to workbook "marketing-funel", which is neither in the bundle nor in the deployment. ' +
          'Did you mean `marketing-funnel`?',
      );
      expect(writes(emu.log).filter((w) => !w.path.includes('marketing-funnel'))).toEqual([]);
    });
  });

  test('a folder path a few edits from the one the rest of the bundle names is warned of, in validate and plan', async () => {
    const dir = copyFixture('example');
    const at = edit(
      dir,
      'workbooks/customer-health.yaml',
      'folder: Finance/Revenue analytics',
      'folder: Finance/Revenue analytcs',
    );
    const pos = at.replace(/:(\d+)$/, (_, c: string) => `:${Number(c) + 'folder: '.length}`);
    const line =
      `${pos} warning folder \`Finance/Revenue analytcs\` (named by 1 file) is close to ` +
      '`Finance/Revenue analytics` (named by 2 files): did you mean `Finance/Revenue analytics`? [folder-near-miss]';
    const v = await runCli(['validate', '--dir', dir]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(line);
    expect(v.stdout).toContain('hint: `Finance/Revenue analytics` is named at workbooks/revenue-overview.yaml:5:9;');
    await withEmulator({}, async (emu) => {
      const p = await runCli(['plan', '--dir', dir, '--env', 'local', ...target(emu)], {
        env: { WSC_TOKEN: 'dev-token' },
      });
      expect(p.code, p.stderr).toBe(0);
      expect(p.stderr).toContain(line);
    });
    // Siblings that differ in digits only, or names far apart, are not near misses.
    edit(dir, 'workbooks/customer-health.yaml', 'Finance/Revenue analytcs', 'Finance/Revenue analytics 2026');
    edit(dir, 'workbooks/sales-pipeline.yaml', 'Finance/Revenue analytics', 'Finance/Revenue analytics 2025');
    const w = await runCli(['validate', '--dir', dir]);
    expect(w.stdout).not.toContain('folder-near-miss');
  });
});
