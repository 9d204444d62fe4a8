// Safe, stable file names for exported resources, whatever a slug or a name
// holds. A stem is lower-case ASCII `[a-z0-9_-]` only, so it cannot climb out
// of its directory (no `/`, `\`, `.`, NUL), cannot be hidden (no leading dot),
// and two stems that differ only in case cannot exist: that keeps them apart
// on case-insensitive file systems (macOS, Windows) too. Whatever maps to the
// same stem forms a group; every member of a group of two or more gets a
// `.<hash>` suffix of its identity, so the result does not depend on the
// order in which resources arrive (a bare stem never holds a dot).
import { createHash } from 'node:crypto';

/** Longest stem kept as is; longer ones are cut and get a hash of the whole. */
export const MAX_STEM = 60;

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)$/;

function shortHash(text: string, hexChars = 8): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, hexChars);
}

/** The file stem (no extension) for a name or slug. Never empty. */
export function fileStem(raw: string): string {
  let s = raw
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s === '') s = 'unnamed';
  // Windows refuses these names with any extension; a leading `_` keeps them readable.
  if (RESERVED.test(s)) s = `_${s}`;
  if (s.length > MAX_STEM) s = `${s.slice(0, MAX_STEM).replace(/-+$/, '')}.${shortHash(raw)}`;
  return s;
}

/**
 * What a report's file is named from: its name, or its publicId (lower-cased
 * like every stem) when the name is written only in scripts a stem cannot
 * hold (`売上推移`): transliteration needs data wsc does not ship, and a file
 * named `unnamed.<hash>` says nothing.
 */
export function reportFileRaw(name: string, publicId: string): string {
  const folded = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  return /[\p{L}\p{N}]/u.test(folded) && !/[A-Za-z0-9]/.test(folded) ? publicId : name;
}

/** File names of a group of identities sharing one stem (order-independent). */
export function groupNames(stem: string, identities: readonly string[]): Map<string, string> {
  return hashedGroup(stem, identities).names;
}

/**
 * groupNames, with the hash length it settled on: the shortest of 8, 16, ...
 * hex characters that gives distinct names (8 nearly always suffices).
 */
function hashedGroup(stem: string, identities: readonly string[]): { names: Map<string, string>; hexChars: number } {
  const names = new Map<string, string>();
  if (identities.length === 1) {
    names.set(identities[0]!, stem);
    return { names, hexChars: 0 };
  }
  for (let len = 8; len <= 64; len += 8) {
    names.clear();
    const seen = new Set<string>();
    for (const id of identities) {
      const name = `${stem}.${shortHash(id, len)}`;
      seen.add(name);
      names.set(id, name);
    }
    if (seen.size === new Set(identities).size) return { names, hexChars: len };
  }
  throw new Error(`cannot give distinct file names to ${identities.length} resources named "${stem}"`);
}

export interface Rename {
  from: string;
  to: string;
}

/** The members of one stem, the hash length their names use (0: a lone bare stem) and those names. */
interface Group {
  ids: string[];
  hexChars: number;
  names: Set<string>;
}

/**
 * File names handed out one resource at a time (reports arrive page by page).
 * When a later resource joins a stem already used, the earlier file is
 * renamed: the caller applies the returned renames before writing.
 * Keeps only stem, identity and name per resource.
 *
 * A resource joining a group of two or more is named alone (one hash) when
 * its name is free at the group's hash length: that is what groupNames gives
 * for the whole group, since the shortest collision-free length of a group
 * never shrinks as it grows. Only a clash or a change of identity renames the
 * group, so many resources of one name (say `Untitled`) cost linear time.
 */
export class NameRegistry {
  /** stem -> its group; a stem only one resource has holds just that identity (most do: memory per report). */
  private readonly groups = new Map<string, Group | string>();
  private readonly stemOf = new Map<string, string>(); // identity -> stem
  /** identity -> name where the name is not the bare stem (nearly all are that stem, kept once: memory per report). */
  private readonly suffixed = new Map<string, string>();

  /** Claims a name for `identity` (unique within the registry) derived from `raw`. */
  claim(raw: string, identity: string): { name: string; renames: Rename[] } {
    if (this.stemOf.has(identity)) throw new Error(`identity "${identity}" claimed twice`);
    const stem = fileStem(raw);
    this.stemOf.set(identity, stem);
    const found = this.groups.get(stem);
    if (found === undefined) {
      this.groups.set(stem, identity);
      return { name: stem, renames: [] };
    }
    const group = this.groupOf(stem, found);
    group.ids.push(identity);
    if (group.hexChars > 0) {
      const name = `${stem}.${shortHash(identity, group.hexChars)}`;
      if (!group.names.has(name)) {
        group.names.add(name);
        this.setName(identity, stem, name);
        return { name, renames: [] };
      }
    }
    const renames = this.settle(stem, group, identity);
    return { name: this.nameOf(identity)!, renames };
  }

  /** The identity of a resource changed (e.g. its publicId was re-minted). */
  reidentify(oldIdentity: string, newIdentity: string): { name: string; renames: Rename[] } {
    const stem = this.stemOf.get(oldIdentity);
    if (stem === undefined) throw new Error(`unknown identity "${oldIdentity}"`);
    if (this.stemOf.has(newIdentity)) throw new Error(`identity "${newIdentity}" claimed twice`);
    const group = this.groupOf(stem, this.groups.get(stem)!);
    group.ids[group.ids.indexOf(oldIdentity)] = newIdentity;
    this.stemOf.delete(oldIdentity);
    this.stemOf.set(newIdentity, stem);
    const name = this.suffixed.get(oldIdentity);
    this.suffixed.delete(oldIdentity);
    if (name !== undefined) this.suffixed.set(newIdentity, name);
    const renames = this.settle(stem, group);
    return { name: this.nameOf(newIdentity)!, renames };
  }

  nameOf(identity: string): string | undefined {
    return this.suffixed.get(identity) ?? this.stemOf.get(identity);
  }

  private setName(identity: string, stem: string, name: string): void {
    if (name === stem) this.suffixed.delete(identity);
    else this.suffixed.set(identity, name);
  }

  /** The group of `stem`, made (and kept) when it was a single identity. */
  private groupOf(stem: string, found: Group | string): Group {
    if (typeof found !== 'string') return found;
    const group: Group = { ids: [found], hexChars: 0, names: new Set([stem]) };
    this.groups.set(stem, group);
    return group;
  }

  /** Names the whole group as groupNames does; renames for every member whose name changed (`fresh`: no file yet). */
  private settle(stem: string, group: Group, fresh?: string): Rename[] {
    const { names: wanted, hexChars } = hashedGroup(stem, group.ids);
    group.hexChars = hexChars;
    group.names = new Set(wanted.values());
    const renames: Rename[] = [];
    for (const [id, name] of wanted) {
      const before = id === fresh ? undefined : this.nameOf(id);
      if (before !== undefined && before !== name) renames.push({ from: before, to: name });
      this.setName(id, stem, name);
    }
    return renames;
  }
}

/** Names for a whole set at once (workbooks, user attributes): identity -> file stem. */
export function assignNames(items: readonly { raw: string; identity: string }[]): Map<string, string> {
  const reg = new NameRegistry();
  for (const it of items) reg.claim(it.raw, it.identity);
  const out = new Map<string, string>();
  for (const it of items) out.set(it.identity, reg.nameOf(it.identity)!);
  return out;
}
