// Where a workbook's draft dashboard is read from. The description has it in
// two places: `meta.dashboardDraft` (what the upsert by slug writes, and so
// what wsc writes) and `dashboardDraft` at the top level of a workbook (where
// a server may keep a draft made in the UI). The one rule, used by plan and
// export alike: `meta.dashboardDraft` wins when it holds a dashboard; the top
// level counts only when meta holds none.
import { isObj, type Obj } from './json.js';

/** The live draft of a workbook, wherever the server put it; undefined when it has none. */
export function liveDraft(wb: { meta?: unknown; dashboardDraft?: unknown } | undefined): Obj | undefined {
  if (wb === undefined) return undefined;
  const inMeta = isObj(wb.meta) ? wb.meta['dashboardDraft'] : undefined;
  if (isObj(inMeta)) return inMeta;
  return isObj(wb.dashboardDraft) ? wb.dashboardDraft : undefined;
}

/** `meta` with the live draft in it (from the top level when meta holds none), as export writes it. */
export function metaWithDraft(wb: { meta?: unknown; dashboardDraft?: unknown }): Obj {
  const meta = isObj(wb.meta) ? wb.meta : {};
  const draft = liveDraft(wb);
  return draft === undefined || meta['dashboardDraft'] === draft ? meta : { ...meta, dashboardDraft: draft };
}
