// Seeds: the default state, big generated ones for tests and the benchmark,
// and loading a seed file.
import { readFileSync } from 'node:fs';
import { createRng, randomBase62 } from './prng.js';
import type { SeedFolder, SeedReport, SeedState, SeedWorkbook } from './types.js';

export const DEV_TOKEN = 'dev-token';
/** The placeholder the generated legacy reports share (wire PLACEHOLDER_PUBLIC_ID_RE shape). */
export const LEGACY_PLACEHOLDER = '000000legacy';

/**
 * Deployment 1 and an empty deployment 2 in account 1; an admin whose token
 * is `dev-token`, plus an AI BI User (`creator-token`) and a viewer
 * (`viewer-token`) with no grants.
 */
export function defaultSeed(): SeedState {
  return {
    formatVersion: 1,
    deployments: [
      { id: 1, accountId: 1, name: 'Development' },
      { id: 2, accountId: 1, name: 'Second deployment' },
    ],
    users: [
      { id: 1, email: 'admin@example.com', firstName: 'Admin', role: 'admin', tokens: [DEV_TOKEN], accountId: 1 },
      {
        id: 2,
        email: 'creator@example.com',
        firstName: 'Creator',
        role: 'ai-bi-user',
        tokens: ['creator-token'],
        accountId: 1,
      },
      {
        id: 3,
        email: 'viewer@example.com',
        firstName: 'Viewer',
        role: 'viewer',
        tokens: ['viewer-token'],
        accountId: 1,
      },
    ],
    grants: [],
    folders: [],
    workbooks: [],
    reports: [],
    userAttributes: [],
  };
}

export interface GenerateSeedOptions {
  reports: number;
  workbooks: number;
  /** Reports with no stable publicId, all showing LEGACY_PLACEHOLDER. */
  legacyReports?: number;
  /** Folders, nested up to three levels; workbooks and reports are spread over them and the root. */
  folders?: number;
  deploymentId?: number;
  /** Give each workbook a draft with a chart widget per report in it (and publish every other one). */
  withDashboards?: boolean;
  randomSeed?: number;
}

/** A deterministic seed with the default users and deployments plus generated content. */
export function generateSeed(opts: GenerateSeedOptions): SeedState {
  const rng = createRng(opts.randomSeed ?? 42);
  const dep = opts.deploymentId ?? 1;
  const seed = defaultSeed();
  if (!seed.deployments.some((d) => d.id === dep))
    seed.deployments.push({ id: dep, accountId: 1, name: `Deployment ${dep}` });
  seed.folders = generateFolders(opts.folders ?? 0, dep);
  seed.workbooks = generateWorkbooks(opts.workbooks, dep, seed.folders);
  seed.reports = generateReports(opts, dep, seed.workbooks, rng);
  if (opts.withDashboards) addDashboards(seed.workbooks, seed.reports, dep, rng);
  return seed;
}

const BASE_TIME = Date.parse('2026-01-01T00:00:00.000Z');
/** The i-th item's creation time: a minute apart. */
const at = (i: number) => new Date(BASE_TIME + i * 60_000).toISOString();

function generateFolders(n: number, dep: number): SeedFolder[] {
  const folders: SeedFolder[] = [];
  for (let i = 0; i < n; i++) {
    const id = 10 + i;
    // Every third folder nests in an earlier one (depth stays small).
    const parentId = i > 0 && i % 3 === 0 ? (folders[Math.floor(i / 3) - 1]?.id ?? null) : null;
    folders.push({ id, deploymentId: dep, name: `Folder ${i + 1}`, parentId, userId: 1 });
  }
  return folders;
}

function generateWorkbooks(n: number, dep: number, folders: readonly SeedFolder[]): SeedWorkbook[] {
  const pickFolder = (i: number) => (folders.length > 0 && i % 2 === 1 ? folders[i % folders.length]!.id : null);
  return Array.from({ length: n }, (_, i) => ({
    id: 100 + i,
    deploymentId: dep,
    name: `Workbook ${i + 1}`,
    slug: `workbook-${i + 1}`,
    folderId: pickFolder(i),
    meta: {},
    createdAt: at(i),
    updatedAt: at(i),
    userId: 1,
  }));
}

function generateReports(
  opts: GenerateSeedOptions,
  dep: number,
  workbooks: readonly SeedWorkbook[],
  rng: ReturnType<typeof createRng>,
): SeedReport[] {
  const reports: SeedReport[] = [];
  const used = new Set<string>();
  const total = opts.reports + (opts.legacyReports ?? 0);
  for (let i = 0; i < total; i++) {
    const legacy = i >= opts.reports;
    let publicId = LEGACY_PLACEHOLDER;
    if (!legacy) {
      do publicId = randomBase62(rng, 12);
      while (used.has(publicId) || publicId.startsWith('000000'));
      used.add(publicId);
    }
    const wb = workbooks.length > 0 ? workbooks[i % workbooks.length] : undefined;
    reports.push({
      id: 1000 + i,
      deploymentId: dep,
      publicId,
      name: `Report ${String(i + 1).padStart(5, '0')}`,
      title: `Report ${i + 1}`,
      source: 'PLAYGROUND',
      workbookId: wb?.id ?? null,
      folderId: wb?.folderId ?? null,
      jsonQuery: JSON.stringify({ measures: [`orders.m${i % 7}`], dimensions: [`orders.d${i % 5}`], limit: 100 }),
      sqlQuery: null,
      meta: { chart: { type: ['bar', 'line', 'table'][i % 3] } },
      pivotItems: { columns: [], rows: [`orders.d${i % 5}`], measures: [`orders.m${i % 7}`], filters: [] },
      createdAt: at(i),
      updatedAt: at(i),
      userId: 1,
    });
  }
  return reports;
}

/** Each workbook a draft with a chart per report in it (12 at most); every other one published. */
function addDashboards(
  workbooks: readonly SeedWorkbook[],
  reports: readonly SeedReport[],
  dep: number,
  rng: ReturnType<typeof createRng>,
): void {
  const byWb = new Map<number, SeedReport[]>();
  for (const r of reports) if (r.workbookId != null) byWb.set(r.workbookId, [...(byWb.get(r.workbookId) ?? []), r]);
  for (const [i, wb] of workbooks.entries()) {
    const widgets = (byWb.get(wb.id) ?? []).slice(0, 12).map((r, j) => ({
      id: `chart-${r.id}`,
      type: 'CHART',
      position: { x: (j % 2) * 6, y: Math.floor(j / 2) * 4, w: 6, h: 4 },
      config: { reportId: r.id },
    }));
    const draft = { kind: 'CLASSIC', title: wb.name, widgets };
    wb.meta = { dashboardDraft: draft };
    if (i % 2 !== 0) continue;
    wb.dashboardPublished = structuredClone(draft);
    wb.publishedDashboard = {
      id: i + 1,
      publicId: randomBase62(rng, 12),
      deploymentId: dep,
      workbookId: wb.id,
      status: 'published',
      allowEmbed: false,
      config: structuredClone(draft),
      versionNumber: 1,
      versionId: i + 1,
      reportSnapshots: widgets.map((w, j) => ({ id: i * 100 + j + 1, reportId: w.config.reportId, versionNumber: 1 })),
      title: null,
      description: null,
    };
  }
}

/** A seed (or state) JSON file, checked for its shape; an Error naming the file when it is not one. */
export function loadSeedFile(path: string): SeedState {
  const text = readFileSync(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  checkSeedShape(data, path);
  return data as SeedState;
}

/** A light structural check so a wrong file fails with a clear message, not deep inside. */
export function checkSeedShape(data: unknown, where: string): void {
  const o = data as Partial<SeedState> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error(`${where}: a seed is a JSON object`);
  if (!Array.isArray(o.deployments) || o.deployments.length === 0)
    throw new Error(`${where}: "deployments" must be a non-empty array`);
  if (!Array.isArray(o.users) || o.users.length === 0) throw new Error(`${where}: "users" must be a non-empty array`);
  for (const u of o.users) {
    if (!u || typeof u.id !== 'number' || typeof u.email !== 'string' || !Array.isArray(u.tokens)) {
      throw new Error(`${where}: each user needs id (number), email (string) and tokens (array)`);
    }
    if (!['admin', 'ai-bi-user', 'viewer'].includes(u.role)) {
      throw new Error(`${where}: user ${u.id}: role must be admin, ai-bi-user or viewer`);
    }
  }
  for (const key of ['grants', 'folders', 'workbooks', 'reports', 'userAttributes'] as const) {
    if (o[key] !== undefined && !Array.isArray(o[key])) throw new Error(`${where}: "${key}" must be an array`);
  }
}
