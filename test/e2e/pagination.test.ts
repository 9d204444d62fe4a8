// Pagination facts the API allows and the emulator does not produce, put in
// by a proxy in front of it: `pageInfo: null` on a full last page, a count
// that says more remain after a page without pageInfo, and one list capped at
// a page size of 1 while the others are not. The built CLI reads every item,
// and one list's cap never shrinks another's pages.
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, tempDir, withEmulator, writeFiles } from './helpers/index.js';
import { rewritingProxy } from './helpers/rewriting-proxy.js';

afterAll(cleanupTemp);

interface Page {
  items: unknown[];
  count?: number;
  pageInfo?: { hasNextPage: boolean; endCursor?: string } | null;
}
const isList = (b: unknown): b is Page => typeof b === 'object' && b !== null && Array.isArray((b as Page).items);
const REPORTS = '/api/v1/deployments/1/reports';
const FOLDERS = '/api/v1/deployments/1/folders';
const WORKBOOKS = '/api/v1/deployments/1/workbooks';

const exportAndPlan = async (url: string, env: Record<string, string>) => {
  const out = tempDir();
  const conn = ['--base-url', url, '--deployment', '1'];
  const exp = await runCli(['export', '--out', out, ...conn, '--verbose'], { env });
  const plan = await runCli(['plan', '--dir', out, ...conn, '--verbose'], { env });
  return { exp, plan, out };
};

describe('pagination', () => {
  test('pageInfo: null on a full last page ends the list: export and plan read everything, exit 0', async () => {
    await withEmulator({ seed: generateSeed({ reports: 10, workbooks: 4 }) }, async (emu) => {
      // Every last page comes with pageInfo null, and with a page size of 5
      // the reports' second page is full (items 6-10 of 10).
      const proxy = await rewritingProxy(emu.url, {
        answer: (_path, body) =>
          isList(body) && body.pageInfo?.hasNextPage !== true ? { ...body, pageInfo: null } : body,
      });
      try {
        const { exp, plan } = await exportAndPlan(proxy.url, { ...emulatorEnv, WSC_PAGE_SIZE: '5' });
        expect(exp.code, exp.stderr).toBe(0);
        expect(exp.stdout).toMatch(/10 reports/);
        expect(plan.code, plan.stderr).toBe(0);
        expect(plan.stdout).toMatch(/No changes/);
        expect(plan.stderr).not.toContain('bad_pagination');
        // Two pages of reports per command, no page asked for twice.
        expect(proxy.seen.filter((r) => r.path === REPORTS)).toHaveLength(4);
      } finally {
        await proxy.close();
      }
    });
  }, 120_000);

  test('no pageInfo while the count says more remain: that page is asked for once more, and its pageInfo is followed', async () => {
    await withEmulator({ seed: generateSeed({ reports: 12, workbooks: 2 }) }, async (emu) => {
      // The first answer to each page that has a next one loses its pageInfo;
      // asked again, it comes whole.
      const proxy = await rewritingProxy(emu.url, {
        answer: (path, body, n) =>
          path === REPORTS && isList(body) && body.pageInfo?.hasNextPage === true && n === 1
            ? { ...body, pageInfo: null }
            : body,
      });
      try {
        const { exp, plan } = await exportAndPlan(proxy.url, { ...emulatorEnv, WSC_PAGE_SIZE: '5' });
        expect(exp.code, exp.stderr).toBe(0);
        expect(exp.stdout).toMatch(/12 reports/);
        expect(exp.stderr).toMatch(/answered 5 of 12 items and no pageInfo to page on; asking for that page once more/);
        expect(plan.code, plan.stderr).toBe(0);
        expect(plan.stdout).toMatch(/No changes/);
      } finally {
        await proxy.close();
      }
    });
  }, 120_000);

  test('a count that stays above what was read, without pageInfo: the list ends there and prune deletes nothing', async () => {
    await withEmulator({}, async (emu) => {
      const wscYaml = 'bundle: paged\nenvironments:\n  test:\n    deploymentId: 1\n';
      const reports = (n: number) =>
        Object.fromEntries(
          Array.from({ length: n }, (_, i) => [
            `reports/r${i}.yaml`,
            `kind: Report\npublicId: pagedRep${String(i).padStart(4, '0')}\nname: R${i}\nsqlQuery: select ${i}\n`,
          ]),
        );
      const conn = ['--base-url', emu.url, '--deployment', '1'];
      const six = writeFiles({ 'wsc.yaml': wscYaml, ...reports(6) });
      const applied = await runCli(['apply', '--dir', six, ...conn, '--auto-approve', '--concurrency', '1'], {
        env: emulatorEnv,
      });
      expect(applied.code, applied.stderr).toBe(0);
      // Every reports page now comes without pageInfo: 5 of 6 read, the count says 6.
      const proxy = await rewritingProxy(emu.url, {
        answer: (path, body) => (path === REPORTS && isList(body) ? { ...body, pageInfo: null } : body),
      });
      try {
        emu.clearLog();
        const one = writeFiles({ 'wsc.yaml': wscYaml, ...reports(1) });
        const proxied = ['--base-url', proxy.url, '--deployment', '1'];
        const env = { ...emulatorEnv, WSC_PAGE_SIZE: '5' };
        const plan = await runCli(['plan', '--dir', one, ...proxied, '--prune', '--verbose'], { env });
        expect(plan.code, plan.stderr).toBe(0);
        expect(plan.stdout).toMatch(/no delete is planned: the deployment's lists were read short of their count/);
        // The first page twice (the second answer settles it), nothing after it.
        expect(proxy.seen.filter((r) => r.path === REPORTS)).toHaveLength(2);
        expect(emu.log.every((e) => e.method === 'GET')).toBe(true);
      } finally {
        await proxy.close();
      }
    });
  }, 120_000);

  test("the folder list's cap of 1 shrinks no other list: workbooks and reports are asked for 500 a page", async () => {
    const seed = generateSeed({ reports: 46, workbooks: 20, folders: 6 });
    await withEmulator({ seed, workbookListing: 'root-only' }, async (emu) => {
      const proxy = await rewritingProxy(emu.url, {
        query: (path, q) => {
          if (path === FOLDERS) q.set('first', '1');
        },
      });
      try {
        const { exp, plan } = await exportAndPlan(proxy.url, emulatorEnv);
        expect(exp.code, exp.stderr).toBe(0);
        expect(exp.stdout).toMatch(/46 reports/);
        expect(plan.code, plan.stderr).toBe(0);
        expect(plan.stdout).toMatch(/No changes/);
        expect(exp.stderr).toMatch(
          /page size: the server answered 1 items for first=500 and has more; asking for 1 per page of GET \/api\/v1\/deployments\/1\/folders/,
        );
        const others = proxy.seen.filter((r) => r.path === REPORTS || r.path === WORKBOOKS);
        expect(others.length).toBeGreaterThan(0);
        expect(others.filter((r) => r.query.get('first') !== '500')).toEqual([]);
        // One page of reports per command: 46 items fit in one.
        expect(proxy.seen.filter((r) => r.path === REPORTS)).toHaveLength(2);
      } finally {
        await proxy.close();
      }
    });
  }, 120_000);
});
