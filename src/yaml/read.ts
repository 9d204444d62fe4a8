// Reading one YAML file (a bundle file or wsc.yaml) as text: files over
// MAX_FILE_BYTES are refused before they are read; text must be UTF-8, with
// no control characters and no carriage return alone.
import { causeOf } from '../domain/fs-cause.js';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import type { Diagnostic } from '../errors.js';
import { lineColAt, type LineCol } from './positions.js';
import { NOT_PRINTABLE_IN_YAML } from '../domain/unsafe-chars.js';

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The configuration file at a bundle's root: not a bundle file. */
export const CONFIG_FILE = 'wsc.yaml';

export interface BundleFile {
  /** Relative to the bundle root, with `/` separators. */
  rel: string;
  abs: string;
}

export type ReadResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

/**
 * One bundle file's text. Synchronous on purpose: a bundle is thousands of
 * small files, read one after another on the CPU that then parses them; a
 * promise chain per file (open, stat, read, close) cost more than the reads.
 */
export function readBundleFileSync(f: BundleFile): ReadResult {
  const fail = (rule: string, message: string, at: LineCol = { line: 1, col: 1 }, hint?: string): ReadResult => ({
    ok: false,
    diagnostic: { severity: 'error', rule, message, pos: { file: f.rel, ...at }, ...(hint ? { hint } : {}) },
  });
  let fd: number | undefined;
  let n: number;
  try {
    fd = openSync(f.abs, 'r');
    const got = readAtMost(fd, MAX_FILE_BYTES + 1);
    if (typeof got === 'string') return fail('file-too-large', got, undefined, 'Split it into several files.');
    n = got;
  } catch (e) {
    return fail('file-unreadable', `cannot read file: ${causeOf(e)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (n > MAX_FILE_BYTES)
    return fail('file-too-large', `file is over the ${formatMiB(MAX_FILE_BYTES)} limit for a bundle file`);
  const bytes = shared.subarray(0, n);
  if (!isUtf8(bytes)) {
    const lossy = new TextDecoder('utf-8').decode(bytes);
    return fail(
      'encoding',
      'file is not valid UTF-8',
      lineColAt(lossy, lossy.indexOf('\uFFFD')),
      'Save the file as UTF-8.',
    );
  }
  let text = shared.toString('utf8', 0, n);
  // A byte-order mark is not part of the text.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // YAML allows no control character but tab, LF, CR (and NEL): one would
  // otherwise travel, invisible, into the API.
  const bad = NOT_PRINTABLE_IN_YAML.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return fail(
      'encoding',
      `control character U+${code} is not allowed in YAML`,
      lineColAt(text, bad.index),
      'Remove it, or write it as an escape in a double-quoted string.',
    );
  }
  // A carriage return alone is a line break to YAML but to no editor, diff or
  // error position: the file would read as one line.
  const lone = LONE_CR_RE.exec(text);
  if (lone) {
    return fail(
      'line-endings',
      'the file has line breaks that are a carriage return alone (old Mac style)',
      { line: lineColAt(text, lone.index).line, col: 1 },
      'Save it with LF (or CRLF) line endings.',
    );
  }
  return { ok: true, text };
}

const LONE_CR_RE = /\r(?!\n)/;

/**
 * One buffer for every file read, grown to the largest (at most the limit):
 * a file's text is decoded out of it before the next file is read. Thousands
 * of small files then cost no buffer and no stat each.
 */
let shared = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads the file into `shared`: its length, at most `limit`, or (a string) why
 * it is refused. Only a file that fills the buffer is stat'ed, so one over the
 * limit is refused before it is read further; a size of 0 (pseudo-files)
 * means "read to the end", like fs.readFile.
 */
function readAtMost(fd: number, limit: number): number | string {
  let n = 0;
  let size: number | undefined;
  for (;;) {
    if (n === shared.length) {
      if (n >= limit) break;
      if (size === undefined) {
        size = fstatSync(fd).size;
        if (size >= limit) return overFileLimit(size, limit - 1)!;
      }
      const bigger = Buffer.allocUnsafe(Math.min(Math.max(shared.length * 2, size + 1), limit));
      shared.copy(bigger, 0, 0, n);
      shared = bigger;
    }
    const got = readSync(fd, shared, n, shared.length - n, null);
    if (got === 0) break;
    n += got;
  }
  return n;
}

/** Why a file of `size` bytes is not read as a bundle file, or undefined when it may be. */
export function overFileLimit(size: number, limit = MAX_FILE_BYTES): string | undefined {
  if (size <= limit) return undefined;
  return `file is ${formatMiB(size)}, over the ${formatMiB(limit)} limit for a bundle file`;
}

function formatMiB(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
