// Which workbooks an export takes, and the slug each is written with: the live
// one, or one derived (with an adopt block) for a workbook that has none or
// has one a bundle cannot hold. `--workbook` picks by that slug and takes
// along the reports the picked dashboards chart.
import { listSome } from '../../domain/suggest.js';
import type { Workbook } from '../../domain/wire.js';
import { normalizeSlug } from '../../domain/wire.js';
import { slugProblem } from '../../domain/slug.js';
import { EXIT, WscError } from '../../errors.js';
import { metaWithDraft } from '../live-draft.js';
import { referencedReportIds } from './docs.js';
import { deriveSlugs } from './mint.js';
import type { ExportOptions, ExportSource } from './types.js';

function liveSlug(wb: Workbook): string | undefined {
  if (typeof wb.slug !== 'string') return undefined;
  const s = normalizeSlug(wb.slug);
  return s === '' ? undefined : s;
}

/** The entry of a live workbook: a slug a bundle cannot hold (validate refuses it) counts as none, to be replaced. */
function entryOf(wb: Workbook): WorkbookEntry {
  const slug = liveSlug(wb);
  if (slug === undefined || slugProblem(slug) === undefined) return { id: wb.id, name: wb.name, slug };
  return { id: wb.id, name: wb.name, slug: undefined, unsafeSlug: slug };
}

/** What export keeps of a workbook between its two reads: not its dashboard. */
export interface WorkbookEntry {
  id: number;
  name: string;
  /** The live slug, normalised; undefined for a workbook without one (made in the UI) or with an unsafe one. */
  slug: string | undefined;
  /** A live slug validate refuses (`q1/q2 plans`): the workbook gets a safe slug, and apply renames it. */
  unsafeSlug?: string;
  /** The reports its dashboard charts (kept for a --workbook export, which takes them along). */
  charts?: number[];
}

export async function workbookIndex(source: ExportSource, filtered: boolean): Promise<WorkbookEntry[]> {
  const index: WorkbookEntry[] = [];
  for await (const page of source.workbooks()) {
    for (const wb of page) {
      const entry = entryOf(wb);
      if (filtered) entry.charts = referencedReportIds(metaWithDraft(wb));
      index.push(entry);
    }
  }
  return index.sort((a, b) => a.id - b.id);
}

/** The workbooks exported, each with its slug (derived for a slugless one), and what a --workbook export takes. */
export interface Selection {
  filtered: boolean;
  selected: WorkbookEntry[];
  /** Slugless workbooks: id -> the slug derived from the name. */
  derived: Map<number, string>;
  slugOf: (wb: WorkbookEntry) => string;
  /** Reports a filtered export takes although they are in another workbook: the selected dashboards chart them. */
  wantedReportIds: Set<number>;
}

export function selectWorkbooks(allWorkbooks: WorkbookEntry[], opts: ExportOptions): Selection {
  const liveSlugs = allWorkbooks.map((wb) => wb.slug).filter((s): s is string => s !== undefined);
  const derived = deriveSlugs(
    allWorkbooks.filter((wb) => wb.slug === undefined).map((wb) => ({ id: wb.id, name: wb.unsafeSlug ?? wb.name })),
    liveSlugs,
  );
  const slugOf = (wb: WorkbookEntry): string => wb.slug ?? derived.get(wb.id)!;
  const wantedReportIds = new Set<number>();
  const filtered = opts.workbooks.length > 0;
  if (!filtered) return { filtered, selected: allWorkbooks, derived, slugOf, wantedReportIds };
  const bySlug = new Map(allWorkbooks.map((wb) => [slugOf(wb), wb]));
  const missing: string[] = [];
  const picked = new Map<number, WorkbookEntry>();
  for (const raw of opts.workbooks) {
    const wb = bySlug.get(normalizeSlug(raw));
    if (wb) picked.set(wb.id, wb);
    else missing.push(raw);
  }
  if (missing.length > 0) {
    throw new WscError(
      'export_unknown_workbook',
      `deployment ${opts.deploymentId} has no workbook with slug ${listSome(missing.map((s) => `"${s}"`))}.`,
      EXIT.failure,
      {
        hint:
          'Check the slug (as shown in the workbook settings); run `wsc export` ' +
          'without --workbook to export everything.',
      },
    );
  }
  const selected = [...picked.values()].sort((a, b) => a.id - b.id);
  for (const wb of selected) for (const id of wb.charts ?? []) wantedReportIds.add(id);
  return { filtered, selected, derived, slugOf, wantedReportIds };
}
