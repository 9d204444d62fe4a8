// `wsc preview --out DIR` end to end (the built CLI): the same bundle gives
// byte-equal files; an invalid bundle exits 3 after drawing what it can; no
// API is involved (no base URL, no token, no emulator state written).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, copyFixture, runCli, tempDir } from './helpers/index.js';

afterAll(cleanupTemp);

describe('wsc preview --out', () => {
  test('byte-equal SVGs across runs, one per dashboard and breakpoint with a layout; nothing else touched', async () => {
    const dir = copyFixture('example');
    const [a, b] = [tempDir('wsc-svg-a-'), tempDir('wsc-svg-b-')];
    for (const out of [a, b]) {
      const r = await runCli(['preview', '--dir', dir, '--out', out], { env: { WSC_TOKEN: undefined } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(
        ['customer-health.lg.svg', 'revenue-overview.lg.svg', 'revenue-overview.sm.svg', 'sales-pipeline.lg.svg']
          .map((f) => `wrote ${join(out, f)}\n`)
          .join(''),
      );
    }
    for (const f of readdirSync(a)) expect(readFileSync(join(b, f), 'utf8')).toBe(readFileSync(join(a, f), 'utf8'));
    // Not even the embedded emulator's state: preview never reaches for a deployment.
    expect(existsSync(join(dir, '.wsc'))).toBe(false);
  });

  test('an invalid bundle: diagnostics with file:line:col on stderr, exit 3, the valid dashboards still drawn', async () => {
    const dir = copyFixture('example');
    writeFileSync(join(dir, 'workbooks/broken.yaml'), 'kind: Workbook\nslug: broken\ncolour: red\n');
    const out = tempDir('wsc-svg-');
    const r = await runCli(['preview', '--dir', dir, '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('workbooks/broken.yaml:3:1');
    expect(readdirSync(out)).toContain('revenue-overview.lg.svg');
  });
});
