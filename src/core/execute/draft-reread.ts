// A workbook's draft read again just before the write that replaces it (the
// plan merged it with the live draft as it was then: plan/draft-window.ts).
// What changed since, part by part (widget, `layout` entry, member, order),
// is merged as the plan's three-way decision does, with the live draft as
// the plan read it as the base: a part only the UI changed since is taken
// from the UI, a part only this write changes is written; a part both
// changed fails this write (nothing sent), naming the parts, and the next
// plan decides them. What remains is one round trip between this read and
// the write (the API has no version check on workbooks).
import type { Workbook } from '../../domain/wire.js';
import { EXIT, WscError } from '../../errors.js';
import { canonicalJson } from '../canonical.js';
import { isObj } from '../json.js';
import { liveDraft } from '../live-draft.js';
import { draftParts, type DraftParts } from '../ownership.js';
import { mergeDraft } from '../plan/three-way.js';

export async function withCurrentDraft(
  read: () => Promise<Workbook>,
  reread: { draft: DraftParts },
  body: Record<string, unknown>,
  address: string,
): Promise<Record<string, unknown>> {
  const meta = body['meta'];
  const mine = isObj(meta) ? meta['dashboardDraft'] : undefined;
  if (!isObj(mine) || !isObj(meta)) return body;
  const now = liveDraft(await read());
  const nowParts = draftParts(now);
  if (nowParts !== undefined && canonicalJson(nowParts) === canonicalJson(reread.draft)) return body;
  const base = { bundle: '', hash: '', fields: {}, draft: reread.draft };
  const merged = mergeDraft(mine, mine, now, base);
  if (merged === undefined || merged.conflicts.length > 0) {
    const parts = merged === undefined ? 'the whole draft' : merged.conflicts.join(', ');
    throw new WscError(
      'draft_changed',
      `${address}: its dashboard draft was changed outside wsc after the plan read it (${parts}), ` +
        'and this apply changes the same; nothing was written.',
      EXIT.failure,
      { hint: 'Run wsc plan again: it shows the edit, and what to do about it.' },
    );
  }
  return { ...body, meta: { ...meta, dashboardDraft: merged.draft } };
}
