// Tolerant reading, decided: a live item the server sent that this version of
// wsc cannot read (an enum value it does not know, a member of an unexpected
// type) matters only if the bundle manages it. Then planning it on a partial
// reading could do harm, so it is an error naming the field and the value;
// otherwise it is left alone, with a warning naming it.
import { KNOWN_API_VERSION } from '../../domain/wire.js';
import type { SourcePos } from '../../errors.js';
import type { DesiredState, LiveState, UnreadableItem, PlanContext } from '../model.js';
import { livePublicId } from '../publicid.js';
import { at } from '../where.js';
import { planError } from './compare.js';

export interface UnreadableSplit {
  /** Each with the bundle address that manages it. */
  managed: { item: UnreadableItem; address: string; where: string }[];
  unmanaged: UnreadableItem[];
}

export function splitUnreadable(
  desired: DesiredState,
  live: LiveState,
  ctx: Pick<PlanContext, 'deploymentId' | 'publicIds'>,
): UnreadableSplit {
  const split: UnreadableSplit = { managed: [], unmanaged: [] };
  if (!live.unreadable || live.unreadable.length === 0) return split;
  const here = (a: { deploymentId: number; id: number } | undefined) =>
    a !== undefined && a.deploymentId === ctx.deploymentId ? a.id : undefined;
  const owners = new Map<string, { address: string; where: string }>();
  const own = (kind: string, r: { address: string; pos: SourcePos }, identity: string, id: number | undefined) => {
    const owner = { address: r.address, where: at(r.pos) };
    owners.set(`${kind}:slug:${identity}`, owner);
    if (id !== undefined) owners.set(`${kind}:id:${id}`, owner);
  };
  for (const w of desired.workbooks) own('workbook', w, w.slug, here(w.adopt));
  for (const r of desired.reports) {
    own('report', r, livePublicId(r.publicId, ctx.publicIds, ctx.deploymentId), here(r.adopt));
  }
  for (const a of desired.userAttributes) own('user-attribute', a, a.name, a.id);
  // The kinds the bundle holds any of.
  const kinds = new Set([...owners.keys()].map((k) => k.slice(0, k.indexOf(':'))));
  for (const item of live.unreadable) {
    // Without a readable identity it could be one the bundle manages: that cannot be ruled out.
    if (item.identity === undefined && kinds.has(item.kind)) {
      split.managed.push({ item, address: `a ${item.kind} wsc cannot identify`, where: '' });
      continue;
    }
    const owner =
      (item.identity !== undefined ? owners.get(`${item.kind}:slug:${item.identity}`) : undefined) ??
      (item.id !== undefined ? owners.get(`${item.kind}:id:${item.id}`) : undefined);
    if (owner) split.managed.push({ item, ...owner });
    else split.unmanaged.push(item);
  }
  return split;
}

/** Throws when the bundle manages a live item wsc could not read. */
export function refuseManagedUnreadable(split: UnreadableSplit): void {
  if (split.managed.length === 0) return;
  const lines = split.managed.map(
    ({ item, address, where }) =>
      `${where}${address}${item.id !== undefined ? ` (live id ${item.id})` : ''}: the server sent ${item.why}`,
  );
  throw planError(
    'live_value_unknown',
    (lines.length === 1
      ? 'A resource the bundle manages holds '
      : `${lines.length} resources the bundle manages hold `) +
      `a value this version of wsc does not know:\n  ${lines.join('\n  ')}`,
    `The server is likely newer than this wsc: compare the API version \`wsc doctor\` reports with the one ` +
      `wsc was built for (${KNOWN_API_VERSION}), and upgrade wsc. Nothing ` +
      `was planned for these resources, so nothing was sent.`,
  );
}
