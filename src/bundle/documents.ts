// The documents of a bundle's files as written, for `export --into` and
// `--only`: the one interface through which a command reads a document's
// values before variables are drawn in, finds where a value stands, and edits
// a document in place. Values and positions come from the loader's reader
// (src/yaml/parse.ts); the edits from edit-in-place.ts (the `yaml` library's
// node tree), checked by reading back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Doc } from '../core/export/docs.js';
import { matchOf, type IntoEdit } from '../core/export/into.js';
import type { DesiredState } from '../core/model.js';
import { normalizeSlug } from '../domain/wire.js';
import { EXIT, WscError } from '../errors.js';
import { parseYaml, type ParsedDoc } from '../yaml/parse.js';
import { editInPlace } from './edit-in-place.js';
import { replaceFile } from './write-files.js';

export interface BundleDocuments {
  /** The document of the resource at `address` as its file writes it (variables not drawn in). */
  raw: (address: string) => Doc | undefined;
  /**
   * Makes a merge's edits in the document of the edit's file whose identity is its `match`, in the file's text:
   * every other line stays as it is. The values left for a hand edit get their line and column.
   */
  edit: (e: IntoEdit) => void;
}

/** The document whose identity is `match` among a file's documents. */
function findDoc(docs: readonly ParsedDoc[], match: IntoEdit['match']): ParsedDoc | undefined {
  return docs.find(({ value: v }) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    if ('publicId' in match) return o['publicId'] === match.publicId;
    if ('name' in match) return o['kind'] === 'UserAttribute' && o['name'] === match.name;
    return typeof o['slug'] === 'string' && normalizeSlug(o['slug']) === match.slug;
  });
}

/** The documents of the bundle at `root` (its files read once each, on demand). */
export function bundleDocuments(root: string, desired: DesiredState): BundleDocuments {
  const all = [...desired.workbooks, ...desired.reports, ...desired.userAttributes];
  const files = new Map<string, ParsedDoc[]>();
  const docsOf = (file: string): ParsedDoc[] => {
    let docs = files.get(file);
    if (docs === undefined) files.set(file, (docs = parseYaml(file, readFileSync(join(root, file), 'utf8')).docs));
    return docs;
  };
  return {
    raw: (address) => {
      const d = all.find((x) => x.address === address);
      const v = d === undefined ? undefined : findDoc(docsOf(d.pos.file), matchOf(d))?.value;
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : undefined;
    },
    edit: ({ address, file, match, merge }) => {
      if (merge.edits.length === 0 && merge.byHand.length === 0) return;
      const abs = join(root, file);
      const text = readFileSync(abs, 'utf8');
      const doc = findDoc(parseYaml(file, text).docs, match);
      if (doc === undefined) {
        throw new WscError(
          'only_doc_missing',
          `${file}: the document of ${address} was not found again.`,
          EXIT.failure,
        );
      }
      for (const h of merge.byHand) {
        const pos = doc.positions.get(h.docPath)?.value;
        if (pos === undefined) continue;
        h.line = pos.line;
        h.col = pos.col;
      }
      if (merge.edits.length > 0) replaceFile(abs, editInPlace(text, doc.index, merge.edits).text);
    },
  };
}
