// The read-to-write window of a dashboard draft. The upsert by slug merges
// `meta` per top-level key, so a draft is replaced whole: a UI edit made
// between the plan's read and the write (an interactive approval between
// them) would be lost. A write whose draft the plan merged with the live one
// (this bundle's record on it, the three-way decision made) carries the
// live draft's parts as the plan read them; the executor reads the workbook
// again just before the write and merges what changed since, part by part
// (execute/draft-reread.ts), as a report's write does with its `meta`.
import type { Workbook } from '../../domain/wire.js';
import { liveDraft } from '../live-draft.js';
import { DRAFT_PATH, draftParts } from '../ownership.js';
import type { PlannedRequest } from '../plan-model.js';
import type { Planned } from './compare.js';

/** Marks the writes of a workbook's draft to be read again and merged just before they are sent (in place). */
export function guardDraftWindow(p: Planned, live: Workbook | undefined): void {
  if (p.change.kind !== 'workbook' || live === undefined) return;
  const parts = draftParts(liveDraft(live));
  if (parts === undefined) return; // no draft in parts to merge with: the bundle's draft is the whole answer
  for (const r of p.change.requests) if (sendsDraft(r)) r.operation.reread = { workbookId: live.id, draft: parts };
}

function sendsDraft(r: PlannedRequest): r is PlannedRequest & { operation: { op: 'upsertWorkbook' } } {
  if (r.operation.op !== 'upsertWorkbook') return false;
  const meta = (r.operation.body as { meta?: unknown }).meta;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, DRAFT_PATH.slice(5));
}
