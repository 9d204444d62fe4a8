// An export kept in memory, file by file, as `wsc export` would write it
// (`wsc doctor --deep` loads it back without touching the disk).
import { parse } from 'yaml';
import type { DocKind, ExportSink } from '../core/export/index.js';
import type { Doc } from '../core/export/docs.js';
import { serializeDoc } from './write.js';

export class MemorySink implements ExportSink {
  /** The files' texts by path relative to the bundle root, in the order written. */
  readonly files = new Map<string, string>();

  writeDoc(kind: DocKind, rel: string, doc: Doc): Promise<void> {
    this.files.set(rel, serializeDoc(kind, rel, doc));
    return Promise.resolve();
  }

  readDoc(rel: string): Promise<Doc> {
    const text = this.files.get(rel);
    if (text === undefined) return Promise.reject(new Error(`${rel}: not written by this export`));
    return Promise.resolve(parse(text) as Doc);
  }

  rename(fromRel: string, toRel: string): Promise<void> {
    const text = this.files.get(fromRel);
    if (text !== undefined) {
      this.files.delete(fromRel);
      this.files.set(toRel, text);
    }
    return Promise.resolve();
  }
}
