// A dashboard's change against a baseline (a git commit's bundle, or the live
// deployment), per breakpoint, as the pictures mark it: each card added,
// moved, resized (its old box kept) or with its config changed; each removed
// widget with the box it had. Boxes are compared where the grid places them
// at that breakpoint; config from the draft's diff by widget (core), which
// reads references in the bundle's terms on both sides. A part the plan keeps
// as edited outside wsc (`uiEdits: keep`) is marked `kept` where it stays live,
// never as a change apply will not make. Pure.
import { idRecord } from '../core/widget-identity.js';
import { gridAt, type PlacedWidget } from '../core/dashboard-grid.js';
import { isObj, type JsonValue } from '../core/json.js';
import type { DashboardDiff, GridBox } from '../core/diff-model.js';
import { headingOf } from '../core/plan/dashboard-diff.js';
import { BREAKPOINTS, type Breakpoint } from '../domain/grid.js';

type MarkKind = 'added' | 'moved' | 'resized' | 'config' | 'kept';

export interface CardMarks {
  kinds: MarkKind[];
  /** Where it was at this breakpoint (moved or resized); for `kept`, where it stays (edited outside wsc). */
  before?: GridBox;
  /** The config/style/type members that changed, by path. */
  paths?: string[];
}

export interface RemovedCard {
  id: string;
  type: string;
  box: GridBox;
  title?: string;
}

export interface GridChanges {
  cards: { [id: string]: CardMarks };
  removed: RemovedCard[];
}

export interface WorkbookChanges {
  /** The dashboard is not in the baseline: every card is added. */
  created: boolean;
  /** The dashboard's own members that changed (`title`, `layout.cols.lg`). */
  members: string[];
  /** The draft's parts kept as edited outside wsc (`widget w1`, `title`): apply leaves them as they are live. */
  kept: string[];
  grids: Record<Breakpoint, GridChanges>;
  /** Something is marked at some breakpoint, or a member changed. */
  changed: boolean;
}

/** What a baseline says of one dashboard: its draft there and the draft's diff (undefined: not comparable by id). */
export interface Baseline {
  before: JsonValue | undefined;
  diff: DashboardDiff | undefined;
  /** Draft parts the plan keeps as edited outside wsc (`widget w1`, `title`, `layout.cols`): not changes. */
  kept?: string[];
}

function same(a: GridBox, b: GridBox): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

function titleOf(w: PlacedWidget, diff: DashboardDiff | undefined): string | undefined {
  const named = diff?.widgets.find((x) => x.widget === w.id && x.title !== undefined)?.title;
  if (named !== undefined) return named;
  const reports = diff?.reports;
  const c = w.widget['config'];
  if (!isObj(c)) return undefined;
  const ref = c['reportId'];
  if (isObj(ref) && typeof ref['$report'] === 'string') return reports?.[ref['$report']] ?? ref['$report'];
  for (const k of ['content', 'markdown', 'text']) if (typeof c[k] === 'string') return headingOf(c[k]);
  return typeof c['label'] === 'string' ? c['label'] : undefined;
}

/** The marks of every breakpoint of a dashboard whose draft is `after`, against `base`. */
export function workbookChanges(after: JsonValue | undefined, base: Baseline): WorkbookChanges {
  const created = base.before === undefined;
  const kept = new Set(base.kept ?? []);
  const configs = new Map<string, string[]>();
  for (const w of base.diff?.widgets ?? []) {
    const path = w.change === 'member' ? w.path : w.change === 'type' ? 'type' : undefined;
    if (path === undefined || path === 'position' || path.startsWith('position.') || path.startsWith('responsive'))
      continue;
    configs.set(w.widget, [...(configs.get(w.widget) ?? []), path]);
  }
  const grids = {} as Record<Breakpoint, GridChanges>;
  let changed = false;
  for (const bp of BREAKPOINTS) {
    const now = gridAt(after, bp);
    const then = created ? undefined : gridAt(base.before, bp);
    const old = new Map((then?.widgets ?? []).map((w) => [w.id, w]));
    // Keyed by widget id: `__proto__` is an id like any other (core/widget-identity.ts).
    const cards: GridChanges['cards'] = idRecord<CardMarks>();
    for (const w of now.widgets) {
      const o = old.get(w.id);
      const kinds: MarkKind[] = [];
      const marks: CardMarks = { kinds };
      if (o !== undefined && kept.has(`widget ${w.id}`)) {
        // Apply keeps the live widget: its own mark, and the box where it stays when that differs.
        cards[w.id] = same(o.box, w.box) ? { kinds: ['kept'] } : { kinds: ['kept'], before: o.box };
        continue;
      }
      if (o === undefined) kinds.push('added');
      else {
        if (o.box.x !== w.box.x || o.box.y !== w.box.y) kinds.push('moved');
        if (o.box.w !== w.box.w || o.box.h !== w.box.h) kinds.push('resized');
        if (!same(o.box, w.box)) marks.before = o.box;
      }
      const paths = configs.get(w.id);
      if (paths !== undefined && o !== undefined) {
        kinds.push('config');
        marks.paths = paths;
      }
      if (kinds.length > 0) cards[w.id] = marks;
    }
    const ids = new Set(now.widgets.map((w) => w.id));
    const removed = (then?.widgets ?? [])
      .filter((w) => !ids.has(w.id))
      .map((w): RemovedCard => {
        const title = titleOf(w, base.diff);
        return { id: w.id, type: w.type, box: w.box, ...(title !== undefined ? { title } : {}) };
      });
    if (Object.keys(cards).length > 0 || removed.length > 0) changed = true;
    grids[bp] = { cards, removed };
  }
  const isKept = (p: string) => [...kept].some((k) => p === k || p.startsWith(`${k}.`));
  const members = (base.diff?.members ?? []).map((m) => m.path).filter((p) => !isKept(p));
  const keptList = [...kept];
  return { created, members, kept: keptList, grids, changed: changed || members.length > 0 || keptList.length > 0 };
}
