// publicIds are unique per account, not per deployment (the API refuses a
// duplicate across deployments), so one
// bundle applied to staging and production of one account needs a distinct
// live id per deployment. `per-deployment` derives it deterministically:
// base62 of sha256, 12 characters, never in the reserved placeholder shape.
import { createHash } from 'node:crypto';
import { isPlaceholderPublicId } from '../domain/wire.js';
import type { PublicIdMode } from './model.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 12;

function base62Of(hexDigest: string): string {
  let n = BigInt(`0x${hexDigest}`);
  let out = '';
  for (let i = 0; i < LENGTH; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

export function derivePublicId(bundlePublicId: string, deploymentId: number): string {
  for (let attempt = 0; ; attempt++) {
    const seed =
      attempt === 0 ? `wsc:${deploymentId}:${bundlePublicId}` : `wsc:${deploymentId}:${bundlePublicId}:${attempt}`;
    const id = base62Of(createHash('sha256').update(seed).digest('hex'));
    if (!isPlaceholderPublicId(id)) return id;
  }
}

/** The publicId a bundle report has in the target deployment. */
export function livePublicId(bundlePublicId: string, mode: PublicIdMode, deploymentId: number): string {
  return mode === 'per-deployment' ? derivePublicId(bundlePublicId, deploymentId) : bundlePublicId;
}
