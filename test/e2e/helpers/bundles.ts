// Small generated bundles for end-to-end tests, and reading the emulator's
// state back. Files are plain YAML as a user would write them.
import type { Emulator } from '../../../src/emulator/index.js';
import type { ReportRec, WorkbookRec } from '../../../src/emulator/types.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, writeFiles } from './index.js';

/** A copy of fixtures/example with `bundle: <name>` at the top of its wsc.yaml (ownership on). */
export function namedExample(name = 'demo'): string {
  const dir = copyFixture('example');
  const file = join(dir, 'wsc.yaml');
  writeFileSync(file, `bundle: ${name}\n${readFileSync(file, 'utf8')}`);
  return dir;
}

/** A 12-character publicId for report number i: `rep` + 9 digits. */
export function pid(i: number): string {
  return `rep${String(i).padStart(9, '0')}`;
}

export interface BundleSpec {
  /** Reports in the workbook `sales` (and charted on its dashboard when `dashboard`). */
  reports?: number;
  /** Reports with no workbook, no dashboard. */
  looseReports?: number;
  /** Add the workbook `sales`: its reports point at it with `{ $workbook: sales }`. */
  workbook?: boolean;
  /** The workbook's draft charts each of its reports (`{ $report }` references). */
  dashboard?: boolean;
  publish?: boolean;
  /** Title of the dashboard draft (change it to change the draft). */
  title?: string;
  /** wsc.yaml content, if any. */
  wscYaml?: string;
  /** Extra files. */
  files?: Record<string, string>;
}

export function bundleFiles(spec: BundleSpec): Record<string, string> {
  const files: Record<string, string> = {};
  const n = spec.reports ?? 0;
  if (spec.workbook) {
    let wb = `kind: Workbook\nslug: sales\nname: Sales\npublish: ${spec.publish ? 'true' : 'false'}\n`;
    if (spec.dashboard) {
      wb += `meta:\n  dashboardDraft:\n    title: ${JSON.stringify(spec.title ?? 'Sales')}\n    widgets:\n`;
      for (let i = 0; i < n; i++) {
        wb += `      - id: w${i}\n        type: CHART\n        position: { x: 0, y: ${i * 4}, w: 6, h: 4 }\n        config: { reportId: { $report: ${pid(i)} } }\n`;
      }
    }
    files['workbooks/sales.yaml'] = wb;
  }
  for (let i = 0; i < n; i++) {
    files[`reports/report-${i}.yaml`] =
      `kind: Report\npublicId: ${pid(i)}\nname: Report ${i}\n` +
      (spec.workbook ? 'workbookId: { $workbook: sales }\n' : '') +
      `jsonQuery:\n  measures: [orders.count]\n  dimensions: [orders.status]\n  limit: ${i + 1}\n`;
  }
  for (let i = 0; i < (spec.looseReports ?? 0); i++) {
    const j = 1000 + i;
    files[`reports/loose-${i}.yaml`] = `kind: Report\npublicId: ${pid(j)}\nname: Loose ${i}\nsqlQuery: select ${i}\n`;
  }
  if (spec.wscYaml) files['wsc.yaml'] = spec.wscYaml;
  Object.assign(files, spec.files ?? {});
  return files;
}

/** Reports charted on one dashboard: report i is titled titles[i], its widget is at x xs[i]; dropped[i]: left out. */
export interface ChartedReports {
  titles: string[];
  xs: number[];
  dropped?: boolean[];
}

/**
 * The files of a workbook `sales` whose dashboard draft (titled `board`) charts the reports, and of those
 * reports: report i is reports/r<i>.yaml (publicId pid(i), name r<i>), charted by widget w<i> at y 4·i.
 * `header` adds lines to the workbook's (a folder, publish).
 */
export function chartedSales(
  charted: ChartedReports,
  workbook: { board: string; header?: string },
): Record<string, string> {
  const kept = charted.titles.map((_, i) => i).filter((i) => !charted.dropped?.[i]);
  const out: Record<string, string> = {};
  let wb = `kind: Workbook\nslug: sales\nname: Sales\n${workbook.header ?? ''}`;
  wb += `meta:\n  dashboardDraft:\n    title: ${JSON.stringify(workbook.board)}\n    widgets:\n`;
  for (const i of kept) {
    wb += `      - id: w${i}\n        type: CHART\n        position: { x: ${charted.xs[i]}, y: ${i * 4}, w: 6, h: 4 }\n`;
    wb += `        config: { reportId: { $report: ${pid(i)} } }\n`;
  }
  out['workbooks/sales.yaml'] = wb;
  for (const i of kept) {
    out[`reports/r${i}.yaml`] =
      `kind: Report\npublicId: ${pid(i)}\nname: r${i}\ntitle: ${JSON.stringify(charted.titles[i])}\n` +
      'workbookId: { $workbook: sales }\nsqlQuery: select 1\n';
  }
  return out;
}

/** Writes a generated bundle into a new temp dir (or `dir`), returns the dir. */
export function writeBundle(spec: BundleSpec, dir?: string): string {
  return writeFiles(bundleFiles(spec), dir);
}

export function reportsIn(emu: Emulator, deploymentId = 1): ReportRec[] {
  return (emu.snapshot().reports ?? []).filter((r) => r.deploymentId === deploymentId) as ReportRec[];
}

export function workbooksIn(emu: Emulator, deploymentId = 1): WorkbookRec[] {
  return (emu.snapshot().workbooks ?? []).filter((w) => w.deploymentId === deploymentId) as WorkbookRec[];
}

/** What a `wsc plan --output json` run would change: one `address path` a field, in the plan's order. */
export function plannedFields(plan: { stdout: string }): string[] {
  const { changes } = JSON.parse(plan.stdout) as { changes: { address: string; fields: { path: string }[] }[] };
  return changes.flatMap((c) => c.fields.map((f) => `${c.address} ${f.path}`));
}

/** Calls the emulator's API directly (as another user of the deployment would). */
export async function api(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The pictures drawn of the example's changed dashboard, revenue-overview: both sizes, SVG and PNG, sorted. */
export const REVENUE_OVERVIEW_PICTURES = [
  'revenue-overview.lg.png',
  'revenue-overview.lg.svg',
  'revenue-overview.sm.png',
  'revenue-overview.sm.svg',
];
