// Fingerprints of the live objects a plan read, so that `apply PLANFILE` can
// refuse a plan the deployment has moved away from (docs/plan-apply.md, saved plans).
import { normalizeSlug } from '../domain/wire.js';
import { contentHash } from './canonical.js';
import type { Fingerprint } from './plan-model.js';
import type { LiveState, PlanContext } from './model.js';
import { livePublicId } from './publicid.js';

export interface LiveObject {
  id: number;
  updatedAt?: string | null;
}

export function fingerprintOf(
  address: string,
  obj: LiveObject | undefined,
  by: 'identity' | 'id' = 'identity',
): Fingerprint {
  if (obj === undefined) return { address, absent: true };
  const fp: Fingerprint = { address, id: obj.id, hash: contentHash(obj) };
  if (typeof obj.updatedAt === 'string') fp.updatedAt = obj.updatedAt;
  if (by === 'id') fp.by = 'id';
  return fp;
}

export interface Drift {
  address: string;
  message: string;
}

type FingerprintContext = Pick<PlanContext, 'deploymentId' | 'publicIds'>;

function candidates(fp: Fingerprint, live: LiveState, ctx: FingerprintContext): LiveObject[] {
  const slash = fp.address.indexOf('/');
  const kind = fp.address.slice(0, slash);
  const name = fp.address.slice(slash + 1);
  const byId = fp.by === 'id' ? (o: LiveObject) => o.id === fp.id : undefined;
  if (kind === 'workbook')
    return live.workbooks.filter(byId ?? ((w) => typeof w.slug === 'string' && normalizeSlug(w.slug) === name));
  if (kind === 'report') {
    if (byId) return live.reports.filter(byId);
    const pid = livePublicId(name, ctx.publicIds, ctx.deploymentId);
    return live.reports.filter((r) => r.publicId === pid);
  }
  if (byId && kind !== 'user-attribute') return []; // no other kind is fingerprinted
  return live.userAttributes.filter(byId ?? ((a) => a.name === name));
}

/** Every fingerprinted object that changed, appeared or disappeared since the plan was made. */
export function checkFingerprints(saved: readonly Fingerprint[], live: LiveState, ctx: FingerprintContext): Drift[] {
  const drifts: Drift[] = [];
  for (const fp of saved) {
    const found = candidates(fp, live, ctx);
    if (fp.absent) {
      if (found.length > 0)
        drifts.push({ address: fp.address, message: `was absent when planned and now exists (id ${found[0]!.id})` });
      continue;
    }
    const same = found.find((o) => o.id === fp.id);
    if (same === undefined) {
      drifts.push({
        address: fp.address,
        message:
          found.length > 0
            ? `was replaced: id ${fp.id} is now id ${found[0]!.id}`
            : `was deleted since it was planned (id ${fp.id})`,
      });
      continue;
    }
    if (contentHash(same) !== fp.hash) {
      const when =
        typeof same.updatedAt === 'string' && same.updatedAt !== fp.updatedAt ? ` (updated at ${same.updatedAt})` : '';
      drifts.push({ address: fp.address, message: `changed since it was planned${when}` });
    }
  }
  return drifts;
}
