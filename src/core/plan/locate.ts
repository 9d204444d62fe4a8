// Where in its file each change of a resource is written, line and column: a
// field's, a dashboard member's, a widget's (a widget member's own when the
// file writes it), so that every plan format can point at it. Places come
// from the resource's `locate` (the bundle's one locator, file:line:col),
// asked only for the resources that change.
import type { DesiredReport, DesiredUserAttribute, DesiredWorkbook } from '../model.js';
import { isObj, type JsonValue } from '../json.js';
import type { ResourceChange } from '../plan-model.js';
import { usableWidgetId } from '../widget-identity.js';

type Path = (string | number)[];
type LineCol = { line: number; col: number };

/** The file's path of a plan's field path: `meta.dashboardDraft` is the draft, `dashboardPublished` too. */
function fieldPath(path: string): Path {
  return path === 'dashboardPublished' ? ['meta', 'dashboardDraft'] : path.split('.');
}

/** The index of each widget id in the draft's `widgets` as the file writes them. */
function widgetIndex(draft: JsonValue | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const list = isObj(draft) ? draft['widgets'] : undefined;
  if (Array.isArray(list))
    list.forEach((w, i) => {
      const id = usableWidgetId(w);
      if (id !== undefined && !out.has(id)) out.set(id, i);
    });
  return out;
}

/** The file's path of a drift entry's field: a draft part (`meta.dashboardDraft widget w1`) is its widget's. */
function partPath(field: string, index: Map<string, number>): Path {
  const [path, ...rest] = field.split(' ');
  const base = fieldPath(path!);
  const label = rest.join(' ');
  if (label === '') return base;
  if (label === 'order') return [...base, 'widgets'];
  if (label.startsWith('widget ')) {
    const i = index.get(label.slice(7));
    return i === undefined ? [...base, 'widgets'] : [...base, 'widgets', i];
  }
  return [...base, ...label.split('.')];
}

export function locateChanges(
  rc: ResourceChange,
  d: DesiredWorkbook | DesiredReport | DesiredUserAttribute,
): ResourceChange {
  const locator = d.locate;
  if (locator === undefined || (rc.changes.length === 0 && rc.drift === undefined)) return rc;
  const locate = (p: Path): LineCol | undefined => {
    const at = locator(p);
    return at === undefined ? undefined : { line: at.line, col: at.col };
  };
  const draft = 'slug' in d ? d.fields.meta?.['dashboardDraft'] : undefined;
  const index = widgetIndex(draft);
  const drift = rc.drift?.map((e) => {
    const at = locate(partPath(e.field, index)) ?? locate(fieldPath(e.field.split(' ')[0]!));
    return at === undefined ? e : { ...e, ...at };
  });
  if (drift !== undefined) rc = { ...rc, drift };
  const changes = rc.changes.map((c) => {
    const base = fieldPath(c.path);
    const where = locate(base);
    const out = where === undefined ? { ...c } : { ...c, ...where };
    if (!c.dashboard) return out;
    const at = (p: Path, fallback?: LineCol) => locate([...base, ...p]) ?? fallback;
    const members = c.dashboard.members.map((m) => {
      const l = at(m.path.split('.'));
      return l === undefined ? m : { ...m, ...l };
    });
    const widgets = c.dashboard.widgets.map((w) => {
      const i = index.get(w.widget);
      if (i === undefined || w.change === 'removed') return w;
      const own = at(['widgets', i]);
      const l = w.change === 'member' ? at(['widgets', i, ...w.path.split('.')], own) : own;
      return l === undefined ? w : { ...w, ...l };
    });
    out.dashboard = { ...c.dashboard, members, widgets };
    return out;
  });
  return { ...rc, changes };
}
