// The bench bundle: YAML files that describe exactly what a generated seed
// holds (so `plan` against it is a no-op), and the 10% change for the apply
// scenario, which can be undone (the next apply then changes the same 10% back).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toYaml } from '../src/bundle/write.js';
import type { JsonValue } from '../src/core/json.js';
import type { SeedState } from '../src/emulator/index.js';

export interface BenchBundle {
  dir: string;
  reportFiles: string[];
  workbookFiles: string[];
}

/** Written as `wsc export` writes files (small collections on one line), so the bench reads what users keep. */
const yaml = (doc: Record<string, unknown>) => toYaml(doc as JsonValue);

export function writeBundleFromSeed(seed: SeedState, dir: string, deploymentId = 1): BenchBundle {
  mkdirSync(join(dir, 'workbooks'), { recursive: true });
  mkdirSync(join(dir, 'reports'), { recursive: true });
  const wbs = (seed.workbooks ?? []).filter((w) => w.deploymentId === deploymentId);
  const reps = (seed.reports ?? []).filter((r) => r.deploymentId === deploymentId);
  const slugById = new Map(wbs.map((w) => [w.id, w.slug!]));
  const publicIdById = new Map(reps.map((r) => [r.id, r.publicId!]));
  const workbookFiles: string[] = [];
  for (const w of wbs) {
    const meta: Record<string, unknown> = structuredClone(w.meta ?? {});
    const draft = meta['dashboardDraft'] as { widgets?: Array<{ config?: { reportId?: unknown } }> } | undefined;
    for (const widget of draft?.widgets ?? []) {
      const id = widget.config?.reportId;
      if (typeof id === 'number') widget.config!.reportId = { $report: publicIdById.get(id)! };
    }
    const doc: Record<string, unknown> = { kind: 'Workbook', slug: w.slug, name: w.name };
    if (w.folderId != null) doc['folderId'] = w.folderId;
    doc['meta'] = meta;
    // Published workbooks have published exactly their draft: publish: true is then a no-op.
    doc['publish'] = w.dashboardPublished != null;
    const file = join(dir, 'workbooks', `${w.slug}.yaml`);
    writeFileSync(file, yaml(doc));
    workbookFiles.push(file);
  }
  const reportFiles: string[] = [];
  for (const r of reps) {
    const doc: Record<string, unknown> = {
      kind: 'Report',
      publicId: r.publicId,
      name: r.name,
      title: r.title,
      source: r.source,
    };
    if (r.workbookId != null) doc['workbookId'] = { $workbook: slugById.get(r.workbookId)! };
    if (r.folderId != null) doc['folderId'] = r.folderId;
    if (r.sqlQuery != null) doc['sqlQuery'] = r.sqlQuery;
    if (r.jsonQuery != null) doc['jsonQuery'] = JSON.parse(r.jsonQuery);
    if (r.pivotItems != null) doc['pivotItems'] = r.pivotItems;
    if (r.meta != null) doc['meta'] = r.meta;
    const file = join(dir, 'reports', `${r.publicId}.yaml`);
    writeFileSync(file, yaml(doc));
    reportFiles.push(file);
  }
  return { dir, reportFiles, workbookFiles };
}

export interface TenPercent {
  /** Resources changed: every tenth report (title) and workbook (name). */
  changed: number;
  /** Writes the files as they were before the change. */
  restore: () => void;
  /** Writes the changed files again. */
  reapply: () => void;
}

/** Changes one field in every tenth report (title) and workbook (name). */
export function changeTenPercent(b: BenchBundle): TenPercent {
  const texts: Array<{ file: string; before: string; after: string }> = [];
  const edit = (files: string[], re: RegExp, to: (m: string) => string) => {
    files.forEach((file, i) => {
      if (i % 10 !== 0) return;
      const before = readFileSync(file, 'utf8');
      const after = before.replace(re, to);
      if (after === before) throw new Error(`bench: nothing to change in ${file}`);
      texts.push({ file, before, after });
    });
  };
  edit(b.reportFiles, /^title: (.*)$/m, (m) => `${m} (changed)`);
  edit(b.workbookFiles, /^name: (.*)$/m, (m) => `${m} (changed)`);
  const write = (which: 'before' | 'after') => {
    for (const t of texts) writeFileSync(t.file, t[which]);
  };
  write('after');
  return { changed: texts.length, restore: () => write('before'), reapply: () => write('after') };
}
