// meta.dashboardDraft handling on every workbook write: validate it as a
// DashboardConfigDraftInput (400 naming the field path) and give widgets
// without an id a server-assigned one. The id is derived from the widget's
// content and position in the list, so re-sending the same draft assigns
// the same ids and stays a no-op.
import { createHash } from 'node:crypto';
import { DashboardConfigDraftInput } from '../domain/wire.js';
import { clone } from './equal.js';
import { badRequest, validate } from './http-error.js';

export function prepareMeta(meta: unknown): Record<string, unknown> | undefined {
  if (meta === undefined || meta === null) return undefined;
  if (typeof meta !== 'object' || Array.isArray(meta)) throw badRequest('meta: must be an object');
  const out = clone(meta as Record<string, unknown>);
  const draft = out['dashboardDraft'];
  if (draft === undefined || draft === null) return out;
  validate(DashboardConfigDraftInput, draft, 'meta.dashboardDraft');
  const widgets = (draft as { widgets?: unknown }).widgets;
  if (Array.isArray(widgets)) {
    const used = new Set<string>();
    for (const w of widgets as Record<string, unknown>[]) {
      if (typeof w['id'] === 'string') used.add(w['id']);
    }
    widgets.forEach((w: Record<string, unknown>, i: number) => {
      if (typeof w['id'] === 'string') return;
      const h = createHash('sha1')
        .update(`${i}:${JSON.stringify(w)}`)
        .digest('hex');
      let id = `w-${h.slice(0, 10)}`;
      for (let n = 2; used.has(id); n++) id = `w-${h.slice(0, 10)}-${n}`;
      used.add(id);
      w['id'] = id;
    });
  }
  return out;
}
