// The round trip on the realistic deployment (the emulator's --ui-made seed:
// slugless workbooks, legacy and missing publicIds, members the description
// does not name, a jsonQuery that is not JSON, twin folders, published
// dashboards, an unsafe slug), as one test: export it, apply the export to an
// empty deployment (of another account: publicIds are unique per account),
// plan there is empty, and a second export from there is byte-equal to the
// first once the adopt blocks (ids of the first deployment) are set aside.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { uiMadeSeed } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

const OTHER = { WSC_TOKEN: 'other-account-token' };

/** The seed with deployment 3 (empty) in a second account, and its admin. */
function seedWithEmptyTarget() {
  const seed = uiMadeSeed();
  seed.deployments.push({ id: 3, accountId: 2, name: 'Other account' });
  seed.users.push({ id: 9, email: 'other@example.com', role: 'admin', tokens: ['other-account-token'], accountId: 2 });
  return seed;
}

/** Every bundle file of an export (not wsc.yaml, not the schemas), by path. */
function bundleFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const sub of ['workbooks', 'reports', 'user-attributes']) {
    for (const f of readdirSync(join(dir, sub)).sort()) out.set(`${sub}/${f}`, readFileSync(join(dir, sub, f), 'utf8'));
  }
  return out;
}

/** A file's text without its adopt block (it names ids of the deployment exported from). */
const withoutAdopt = (text: string) => text.replace(/^adopt:.*\n(?: {2}.*\n)*/m, '');

describe('export round trip on the realistic deployment', () => {
  test('export → apply to an empty deployment → plan empty → export again: byte-equal, ids aside', async () => {
    await withEmulator({ seed: seedWithEmptyTarget() }, async (emu) => {
      const first = tempDir();
      const ex1 = await runCli(['export', '--out', first, ...target(emu)], { env: emulatorEnv, cwd: tempDir() });
      expect(ex1.code, ex1.stderr).toBe(0);

      emu.clearLog();
      const apply = await runCli(['apply', '--dir', first, ...target(emu, 3), '--auto-approve'], { env: OTHER });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(apply.stdout).toMatch(/Apply complete: 14 created, 0 updated, 0 adopted, 1 published\./);
      const writes = emu.log.filter((e) => e.method !== 'GET');
      // What the description does not name went to the API as it was read (the draft goes once its report exists).
      const finance = writes.find(
        (e) =>
          e.path === '/api/v1/deployments/3/workbooks/by-slug/finance-board' &&
          (e.requestBody as { meta?: object }).meta !== undefined,
      )!.requestBody as Record<string, any>;
      expect(finance.meta.dashboardDraft).toMatchObject({
        filterBar: { sticky: true },
        layout: { rowHeight: 40, compactType: 'vertical' },
        widgets: [{ id: 'w-margin', someNewMember: { since: '0.20' } }],
      });
      const creates = writes.filter((e) => e.method === 'POST' && e.path === '/api/v1/deployments/3/reports');
      const created = (name: string) => creates.find((e) => (e.requestBody as { name: string }).name === name)!;
      expect(created('Raw query').requestBody).toMatchObject({
        jsonQuery: 'measures=orders.count; dimensions=orders.status',
        pivotItems: { showGrandTotals: true },
      });
      expect(created('Revenue by region').requestBody).toMatchObject({ source: 'GOOGLE_SHEETS' });
      // Twin folders: two root folders "Finance", the second made after the first.
      const folders = writes.filter((e) => e.method === 'POST' && e.path === '/api/v1/deployments/3/folders');
      expect(folders.map((e) => e.requestBody)).toEqual([{ name: 'Finance' }, { name: 'Finance' }]);
      // Only the dashboard whose published config was its draft is published.
      const publishes = writes.filter((e) => e.path.endsWith('/publish'));
      expect(publishes).toHaveLength(1);

      const plan = await runCli(['plan', '--dir', first, ...target(emu, 3), '--detailed-exitcode'], { env: OTHER });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);

      const second = tempDir();
      const ex2 = await runCli(['export', '--out', second, ...target(emu, 3)], { env: OTHER, cwd: tempDir() });
      expect(ex2.code, ex2.stderr).toBe(0);
      const a = bundleFiles(first);
      const b = bundleFiles(second);
      expect([...b.keys()]).toEqual([...a.keys()]);
      expect(a.size).toBe(12);
      for (const [file, text] of a) expect(b.get(file), file).toBe(withoutAdopt(text));
      // The first export did have adopt blocks to set aside, and only those differ.
      expect([...a.values()].filter((t) => t !== withoutAdopt(t))).toHaveLength(7);
    });
  }, 180_000);
});
