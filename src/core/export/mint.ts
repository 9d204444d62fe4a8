// Identities export gives to resources that have none: a publicId for a report
// whose live one is not stable (a shared placeholder), a slug for a workbook
// without one. Both are deterministic, so two exports of the same deployment
// write the same files.
import { createHash } from 'node:crypto';
import { isPlaceholderPublicId, normalizeSlug, PUBLIC_ID_RE } from '../../domain/wire.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62Of(bytes: Uint8Array, length: number): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < length; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

/**
 * The publicId export gives to live report `reportId` of `deploymentId`:
 * base62 of sha256, 12 chars, never placeholder-shaped, never in `taken`.
 */
export function mintPublicId(
  deploymentId: number,
  reportId: number,
  taken: (id: string) => boolean = () => false,
): string {
  for (let attempt = 0; ; attempt++) {
    const digest = createHash('sha256').update(`wsc-export\0${deploymentId}\0${reportId}\0${attempt}`).digest();
    const id = base62Of(digest, 12);
    if (PUBLIC_ID_RE.test(id) && !isPlaceholderPublicId(id) && !taken(id)) return id;
  }
}

/** A slug from a workbook name: lower-case words joined by `-`, `workbook` when nothing is left. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s === '' ? 'workbook' : s;
}

/**
 * Slugs for workbooks that have none, unique among `taken` (the live slugs)
 * and each other: `name`, then `name-2`, `name-3`... in order of workbook id.
 */
export function deriveSlugs(
  slugless: readonly { id: number; name: string }[],
  taken: Iterable<string>,
): Map<number, string> {
  const used = new Set<string>();
  for (const t of taken) used.add(normalizeSlug(t));
  const out = new Map<number, string>();
  for (const wb of [...slugless].sort((a, b) => a.id - b.id)) {
    const base = slugify(wb.name);
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    out.set(wb.id, slug);
  }
  return out;
}
