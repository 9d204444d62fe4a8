// meta.dashboardDraft handling on every workbook write: validate it as a
// DashboardConfigDraftInput (400 naming the field path) and give widgets
// without an id a server-assigned one. The id is derived from the widget's
// content and position in the list, so re-sending the same draft assigns
// the same ids and stays a no-op.
import { createHash } from 'node:crypto';
import { DashboardConfigDraftInput } from '../domain/wire.js';
import { clone } from './equal.js';
import { validate } from './http-error.js';

/** `meta` of a validated workbook input. */
export function prepareMeta(meta: Record<string, unknown> | null | undefined): Record<string, unknown> | undefined {
  if (meta === undefined || meta === null) return undefined;
  const out = clone(meta);
  const draft = out['dashboardDraft'];
  if (draft === undefined || draft === null) return out;
  validate(DashboardConfigDraftInput, draft, 'meta.dashboardDraft');
  const widgets = (draft as { widgets?: Record<string, unknown>[] | null }).widgets ?? [];
  const used = new Set(widgets.map((w) => w['id']).filter((id) => typeof id === 'string'));
  widgets.forEach((w, i) => {
    if (typeof w['id'] === 'string') return;
    const h = createHash('sha1')
      .update(`${i}:${JSON.stringify(w)}`)
      .digest('hex');
    let id = `w-${h.slice(0, 10)}`;
    for (let n = 2; used.has(id); n++) id = `w-${h.slice(0, 10)}-${n}`;
    used.add(id);
    w['id'] = id;
  });
  return out;
}
