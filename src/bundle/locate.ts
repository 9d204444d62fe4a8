// The one locator of a bundle document's values (core/model.ts `Locate`),
// file:line:col: where the file writes a value, by its path (positions are
// read only when asked: a plan asks for what changes, the semantic check
// for a member it reports), or, for a name inside a string value (a
// jsonQuery or sqlQuery written as text), that name's n-th appearance in the
// file from the value's start. Offsets and lines/columns convert through
// yaml/positions.ts alone.
import type { Locate, ReportAt } from '../core/model.js';
import type { SourcePos } from '../errors.js';
import { rawOccurrences } from '../core/semantic/members.js';
import { lineColAt, offsetAt, type Path, type PositionIndex } from '../yaml/positions.js';

function makeLocate(file: string, positions: PositionIndex, text: string | undefined): Locate {
  function locate(path: Path): SourcePos | undefined;
  function locate(path: Path, report: ReportAt): SourcePos;
  function locate(path: Path, report?: ReportAt): SourcePos | undefined {
    if (report === undefined) {
      const p = positions.get(path);
      return p === undefined ? undefined : { file, ...(p.key ?? p.value) };
    }
    const at = positions.find(path, report.atKey ? 'key' : 'value');
    if (report.text === undefined || text === undefined) return { file, ...at };
    const from = offsetAt(text, at);
    const hit = rawOccurrences(text.slice(from), report.text.name)[report.text.occurrence];
    return { file, ...(hit === undefined ? at : lineColAt(text, from + hit)) };
  }
  return locate;
}

/**
 * Gives `target` its locator. Not enumerable: the resource stays plain data
 * to whatever walks or copies it.
 */
export function withLocate<T extends { locate?: Locate }>(
  target: T,
  item: { file: string; positions: PositionIndex; text?: string | undefined },
): T {
  return Object.defineProperty(target, 'locate', { value: makeLocate(item.file, item.positions, item.text) });
}

/** A document's positions and its file's text, read again when first asked for (undefined: no longer there). */
export type DocReader = () => { positions: PositionIndex; text: string } | undefined;

/**
 * withLocate for a resource whose document is read only when first asked (it crossed from the loader's
 * worker thread as plain data: bundle/load-off-thread.ts); a document gone since answers at the resource's own
 * place.
 */
export function withLazyLocate<T extends { locate?: Locate; pos: SourcePos }>(
  target: T,
  file: string,
  read: DocReader,
): T {
  let made: Locate | null | undefined;
  const get = (): Locate | null => {
    if (made === undefined) {
      const doc = read();
      made = doc === undefined ? null : makeLocate(file, doc.positions, doc.text);
    }
    return made;
  };
  function locate(path: Path): SourcePos | undefined;
  function locate(path: Path, report: ReportAt): SourcePos;
  function locate(path: Path, report?: ReportAt): SourcePos | undefined {
    const l = get();
    if (report === undefined) return l === null ? undefined : l(path);
    return l === null ? target.pos : l(path, report);
  }
  return Object.defineProperty(target, 'locate', { value: locate });
}
