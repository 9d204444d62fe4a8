// A deployment as a team that built it in the UI leaves it: workbooks with no
// slug (one keeps its draft at the top level only), dashboards with widget
// types and report references in every shape seen, reports with no stable
// publicId (a shared legacy placeholder), none at all, or a server-made one,
// a report of the sheets source under the vendor's name, pivot tables with
// display settings; members the description does not name (on a draft, a
// layout, a widget, pivotItems), a jsonQuery that is not JSON; twin folders
// (two root folders "Finance"); a published dashboard whose published config
// is its draft and one whose is not; a slug no bundle can hold (`q1/q2
// plans`). `wsc emulator --ui-made` serves it; the end-to-end tests start
// from it.
import { defaultSeed, LEGACY_PLACEHOLDER } from './seed.js';
import type { SeedReport, SeedState, SeedWorkbook } from './types.js';

const at = (minute: number) => new Date(Date.parse('2026-03-01T09:00:00.000Z') + minute * 60_000).toISOString();
const pos = (x: number, y: number) => ({ x, y, w: 6, h: 4 });

export function uiMadeSeed(deploymentId = 1): SeedState {
  const seed = defaultSeed();
  const dep = deploymentId;
  if (!seed.deployments.some((d) => d.id === dep))
    seed.deployments.push({ id: dep, accountId: 1, name: `Deployment ${dep}` });
  const report = (id: number, r: Partial<SeedReport>): SeedReport => ({
    id,
    deploymentId: dep,
    name: `Report ${id}`,
    source: 'PLAYGROUND',
    jsonQuery: JSON.stringify({ measures: [`orders.m${id % 5}`], dimensions: ['orders.status'] }),
    meta: { chart: { type: 'bar' } },
    createdAt: at(id - 590),
    userId: 2,
    ...r,
  });
  seed.reports = [
    report(600, {
      name: 'Revenue by region',
      publicId: LEGACY_PLACEHOLDER,
      source: 'GOOGLE_SHEETS',
      workbookId: 500,
      pivotItems: {
        columns: ['orders.region'],
        rows: ['orders.status'],
        measures: ['orders.revenue'],
        filters: [],
        displayScale: 'thousands',
        measuresAxis: 'columns',
        measuresPosition: 'after',
        showAppliedFilters: true,
        showColumnTotals: true,
        showRowTotals: false,
      },
    }),
    report(601, { name: 'Orders by status', publicId: LEGACY_PLACEHOLDER, workbookId: 500 }),
    report(602, { name: 'Open tickets', workbookId: 501 }),
    report(603, { name: 'Ticket age', workbookId: 501, sqlQuery: 'select 1', jsonQuery: null }),
    report(604, {
      name: 'Loose pivot',
      publicId: LEGACY_PLACEHOLDER,
      pivotItems: {
        columns: [],
        rows: ['orders.status'],
        measures: ['orders.count'],
        filters: [],
        displayScale: null,
        showRowTotals: true,
      },
    }),
    // No publicId at all (the description makes it optional); a finance dashboard charts it.
    report(605, { name: 'Margin', publicId: null, workbookId: 502 }),
    report(606, {
      name: 'Raw query',
      folderId: 51,
      // Text a UI kept as typed: not JSON.
      jsonQuery: 'measures=orders.count; dimensions=orders.status',
      // A display member the description does not name.
      pivotItems: {
        columns: [],
        rows: ['orders.status'],
        measures: ['orders.count'],
        filters: [],
        showGrandTotals: true,
      },
    }),
  ];
  seed.folders = [
    { id: 50, deploymentId: dep, name: 'Finance', parentId: null, userId: 2 },
    // A twin: a second root folder of the same name.
    { id: 51, deploymentId: dep, name: 'Finance', parentId: null, userId: 2 },
    { id: 52, deploymentId: dep, name: 'Plans', parentId: 51, userId: 2 },
  ];
  seed.workbooks = [
    {
      id: 500,
      deploymentId: dep,
      name: 'Sales board',
      slug: null,
      createdAt: at(0),
      userId: 2,
      meta: {
        dashboardDraft: {
          kind: 'CLASSIC',
          title: 'Sales board',
          widgets: [
            { id: 'w-revenue', type: 'CHART', position: pos(0, 0), config: { reportId: 600 } },
            { id: 'w-orders', type: 'CHART', position: pos(6, 0), config: { report: { id: 601 }, title: 'Orders' } },
            { id: 'w-field', type: 'FIELD', position: pos(0, 4), config: { member: 'orders.region' } },
            { id: 'w-parent', type: 'PARENT', position: pos(6, 4), config: { children: ['w-field'] } },
            { id: 'w-note', type: 'TEXT', position: pos(0, 8), config: { text: 'Built in the UI' } },
          ],
        },
      },
    },
    {
      id: 501,
      deploymentId: dep,
      name: 'Ops board',
      slug: null,
      createdAt: at(1),
      userId: 2,
      meta: { owner: 'ops' },
      // Kept at the top level only, as a server may keep a draft made in the UI.
      dashboardDraft: {
        title: 'Ops board',
        widgets: [
          { id: 'w-open', type: 'CHART', position: pos(0, 0), reportId: 602, config: {} },
          { id: 'w-age', type: 'CHART', position: pos(6, 0), config: { reportId: '603' } },
        ],
      },
    },
  ];
  seed.workbooks.push(...financeWorkbooks(dep));
  seed.userAttributes = [
    { id: 1, accountId: 1, name: 'region', type: 'string', displayName: 'Region', defaultValue: 'ALL' },
  ];
  return seed;
}

/** Workbooks in the twin folders: one published with its draft as it is, one published with another config. */
function financeWorkbooks(dep: number): SeedWorkbook[] {
  const marginDraft = {
    kind: 'CLASSIC',
    title: 'Finance board',
    // Members the description does not name, at every level a UI might add one.
    filterBar: { sticky: true },
    layout: { rowHeight: 40, compactType: 'vertical' },
    widgets: [
      {
        id: 'w-margin',
        type: 'CHART',
        position: pos(0, 0),
        config: { reportId: 605 },
        someNewMember: { since: '0.20' },
      },
    ],
  };
  const published = (id: number, workbookId: number, config: Record<string, unknown>) => ({
    id,
    publicId: `dashPublic0${id}`,
    deploymentId: dep,
    workbookId,
    status: 'published',
    allowEmbed: false,
    config,
    versionNumber: 1,
    versionId: id,
    reportSnapshots: [],
    title: null,
    description: null,
  });
  const plansDraft = {
    title: 'Plans',
    widgets: [{ id: 'w-text', type: 'TEXT', position: pos(0, 0), config: { text: 'Q2' } }],
  };
  const plansPublished = {
    title: 'Plans',
    widgets: [{ id: 'w-text', type: 'TEXT', position: pos(0, 0), config: { text: 'Q1' } }],
  };
  return [
    {
      id: 502,
      deploymentId: dep,
      name: 'Finance board',
      slug: 'finance-board',
      folderId: 51,
      createdAt: at(2),
      userId: 2,
      meta: { dashboardDraft: marginDraft },
      dashboardPublished: marginDraft,
      publishedDashboard: published(1, 502, marginDraft),
    },
    {
      id: 503,
      deploymentId: dep,
      name: 'Q1/Q2 plans',
      // A slug the server took but no bundle can hold: it would split a request path.
      slug: 'q1/q2 plans',
      folderId: 50,
      createdAt: at(3),
      userId: 2,
      meta: { dashboardDraft: plansDraft },
      dashboardPublished: plansPublished,
      publishedDashboard: published(2, 503, plansPublished),
    },
  ];
}
