// The one key order export writes, whatever order the server sent members in,
// so that equal content gives equal bytes:
// - a document's own keys, and the members of the objects the bundle schema
//   describes (a dashboard draft, its layout and app, a widget, a position,
//   `pivotItems`, `adopt`), in the bundle schema's order;
// - every other key (members a schema does not describe, and everything in
//   free-form objects: `meta`, widget `config` and `style`, `settings`,
//   `theme`, a `jsonQuery` mapping) sorted by UTF-16 code units, as
//   JavaScript's default sort does, at every depth.
// Key order carries no meaning anywhere in the API (the planner compares
// canonically), so this loses nothing.
import {
  DashboardDraftSchema,
  LayoutSchema,
  PositionSchema,
  WidgetSchema,
} from '../../domain/bundle-schema/dashboard.js';
import { AdoptSchema, PivotItemsSchema, ReportSchema } from '../../domain/bundle-schema/report.js';
import { UserAttributeSchema } from '../../domain/bundle-schema/user-attribute.js';
import { WorkbookSchema } from '../../domain/bundle-schema/workbook.js';
import { Breakpoints, DashboardAppSource, ResponsiveLayouts } from '../../domain/wire.js';
import { setMember } from '../canonical.js';
import type { JsonValue } from '../json.js';

/** What the schema says of a value: its members' order, and the shapes of members and array items. */
interface Shape {
  keys?: readonly string[];
  members?: Record<string, Shape>;
  items?: Shape;
}

const keys = (shape: object): readonly string[] => Object.keys(shape);
const FREE: Shape = {};
const POSITION: Shape = { keys: keys(PositionSchema.shape) };
const BREAKPOINTS: Shape = { keys: keys(Breakpoints.shape) };
const RESPONSIVE: Shape = {
  keys: keys(ResponsiveLayouts.shape),
  members: Object.fromEntries(keys(ResponsiveLayouts.shape).map((k) => [k, POSITION])),
};
const WIDGET: Shape = {
  keys: keys(WidgetSchema.shape),
  members: { position: POSITION, responsiveLayouts: RESPONSIVE },
};
const DRAFT: Shape = {
  keys: keys(DashboardDraftSchema.shape),
  members: {
    layout: { keys: keys(LayoutSchema.shape), members: { breakpoints: BREAKPOINTS, cols: BREAKPOINTS } },
    app: { keys: keys(DashboardAppSource.shape), members: { manifest: { keys: ['dependencies', 'version'] } } },
    widgets: { items: WIDGET },
  },
};
const ADOPT: Shape = { keys: keys(AdoptSchema.shape) };

export const DOC_SHAPES = {
  workbook: {
    keys: keys(WorkbookSchema.shape),
    members: { meta: { members: { dashboardDraft: DRAFT } }, adopt: ADOPT },
  },
  report: {
    keys: keys(ReportSchema.shape),
    members: { pivotItems: { keys: keys(PivotItemsSchema.shape) }, adopt: ADOPT },
  },
  'user-attribute': { keys: keys(UserAttributeSchema.shape) },
} satisfies Record<string, Shape>;

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `v` with its keys in the canonical export order for `shape`, at every depth. */
export function inExportOrder(v: JsonValue, shape: Shape = FREE): JsonValue {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => inExportOrder(x, shape.items ?? FREE));
  const out: { [k: string]: JsonValue } = {};
  const known = shape.keys ?? [];
  for (const k of known) if (Object.hasOwn(v, k)) setMember(out, k, inExportOrder(v[k]!, shape.members?.[k] ?? FREE));
  const rest = Object.keys(v)
    .filter((k) => !known.includes(k))
    .sort(byCodeUnits);
  for (const k of rest) setMember(out, k, inExportOrder(v[k]!, shape.members?.[k] ?? FREE));
  return out;
}
