// The file side of `wsc export`: writes bundle documents under one root and
// nowhere else. Every path is checked twice: its shape (a known directory and
// a safe file name, as core/export/names.ts makes them) and where it resolves
// (inside the root's real path). Directories that are symbolic links are
// refused before anything is written, and files are opened with O_NOFOLLOW,
// so a link planted inside the root cannot redirect a write outside it.
import { closeSync, constants, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rename as fsRename } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import type { DocKind, ExportSink } from '../core/export/index.js';
import { DIRS } from '../core/export/index.js';
import type { Doc } from '../core/export/docs.js';
import { EXIT, UsageError, WscError } from '../errors.js';
import { causeOf, fsCause } from '../domain/fs-cause.js';
import { MAX_FILE_BYTES } from '../yaml/read.js';
import { makeDirectory } from '../make-dir.js';
import { redact } from '../redact.js';
import { linkRefused, NO_FOLLOW, refuseLink, writeOutFile } from '../out-file.js';
import { generateSchemas, schemaText } from './json-schema.js';
import { SCHEMA_DIR, serializeDoc } from './write.js';

const SAFE_REL = /^(workbooks|reports|user-attributes|schemas)\/[a-z0-9_][a-z0-9_.-]*\.(yaml|json)$/;
/** Ends the name of the file a write goes to before it is renamed over its target (never *.yaml: bundles ignore it). */
export const TMP_SUFFIX = '.wsc-tmp';
/** What an exported bundle keeps out of Git: the state of its embedded environments. */
export const GITIGNORE = '# State of the embedded emulator (environments with `embedded: true`).\n.wsc/\n';

/** A write the file system refused (full disk, read-only, permissions): the user's to fix, never a bug in wsc. */
function writeFailure(abs: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (e instanceof WscError || typeof code !== 'string') return e;
  return new WscError(
    'export_write_failed',
    `cannot write ${abs}: ${fsCause(code)}. Files written before it are complete; none is half-written.`,
    EXIT.failure,
    {
      hint:
        code === 'ENOSPC' || code === 'EDQUOT'
          ? 'Free some space and export again.'
          : 'Export into a directory you can write to.',
    },
  );
}

function unsafe(message: string, hint?: string): UsageError {
  return new UsageError(message, { code: 'export_unsafe_path', ...(hint ? { hint } : {}) });
}

export class DirSink implements ExportSink {
  /** Bundle documents this sink wrote because they were new or their text changed. */
  changedDocs = 0;
  /**
   * The files in the bundle directories when the sink was opened (relative
   * paths), for discardNew: what is not among them was made by this sink.
   * Nothing per file written (an export of a fresh directory keeps none).
   */
  private readonly before = new Set<string>();
  /** Bundle directories that are missing and made on the first write into them. */
  private lazyDirs = new Set<string>();

  private constructor(readonly root: string) {}

  /**
   * Creates DIR and its bundle directories; refuses a bundle directory (or a
   * file in one) that is a symbolic link, or anything that is not a directory.
   */
  static async open(dir: string, opts: { createDirs?: boolean } = {}): Promise<DirSink> {
    const abs = resolve(dir);
    try {
      await makeDirectory(abs);
    } catch (e) {
      throw new UsageError(`cannot use ${dir} as the output directory: ${causeOf(e)}.`, {
        code: 'export_out_dir',
        hint: 'Give --out a directory (it is created when missing).',
      });
    }
    const root = await realpath(abs);
    const sink = new DirSink(root);
    const missing: string[] = [];
    for (const sub of [...Object.values(DIRS), SCHEMA_DIR]) {
      const p = join(root, sub);
      const st = await lstat(p).catch(() => undefined);
      if (st === undefined) {
        missing.push(p);
        continue;
      }
      if (st.isSymbolicLink()) throw linkRefused(p);
      if (!st.isDirectory()) throw unsafe(`${p} exists and is not a directory.`);
      for (const e of await readdir(p, { withFileTypes: true })) {
        if (e.isSymbolicLink()) throw linkRefused(join(p, e.name));
        // Left by an export that was killed between writing a file and renaming it.
        if (e.isFile() && e.name.endsWith(TMP_SUFFIX)) rmSync(join(p, e.name), { force: true });
        else sink.before.add(`${sub}/${e.name}`);
      }
    }
    // `export --into` adds files to a bundle: a directory is made only when a file goes into it.
    if (opts.createDirs === false) sink.lazyDirs = new Set(missing);
    else for (const p of missing) await mkdir(p).catch((e: unknown) => Promise.reject(writeFailure(p, e)));
    return sink;
  }

  /** Absolute path of a relative bundle path, after checking its shape and that it stays inside the root. */
  pathOf(rel: string): string {
    // The shape leaves no `.` or `..` segment.
    if (!SAFE_REL.test(rel)) throw unsafe(`refusing to write "${rel}": not a bundle file name.`);
    const abs = resolve(this.root, rel);
    if (!abs.startsWith(this.root + sep)) throw unsafe(`refusing to write "${rel}": outside ${this.root}.`);
    return abs;
  }

  /** Writes `text` to `rel` unless it holds it already; whether it wrote. */
  async writeText(rel: string, text: string): Promise<boolean> {
    const abs = this.pathOf(rel);
    try {
      const parent = join(this.root, rel.split('/')[0]!);
      if (this.lazyDirs.delete(parent)) await mkdir(parent);
      return replaceFile(abs, redact(text));
    } catch (e) {
      throw writeFailure(abs, e);
    }
  }

  async writeDoc(kind: DocKind, rel: string, doc: Doc): Promise<void> {
    if (await this.writeText(rel, serializeDoc(kind, rel, doc))) this.changedDocs++;
  }

  async readDoc(rel: string): Promise<Doc> {
    return parse(await readFile(this.pathOf(rel), { encoding: 'utf8', flag: constants.O_RDONLY | NO_FOLLOW })) as Doc;
  }

  async rename(fromRel: string, toRel: string): Promise<void> {
    await fsRename(this.pathOf(fromRel), this.pathOf(toRel));
    // A file that was there before keeps that standing under its new name.
    if (this.before.delete(fromRel)) this.before.add(toRel);
  }

  /**
   * Removes the files this sink made that did not exist before it (an export
   * that must leave nothing behind); files it replaced are left as written.
   */
  discardNew(): void {
    for (const sub of [...Object.values(DIRS), SCHEMA_DIR]) {
      let names: string[];
      try {
        names = readdirSync(join(this.root, sub));
      } catch {
        continue; // a directory never made: nothing in it to discard
      }
      for (const name of names)
        if (!this.before.has(`${sub}/${name}`)) rmSync(join(this.root, sub, name), { force: true });
    }
  }

  /**
   * Writes the JSON Schemas of this wsc into DIR/schemas (the files'
   * editor-schema lines point there), the same files `wsc schema` writes.
   */
  async writeSchemas(): Promise<string[]> {
    const out: string[] = [];
    for (const f of generateSchemas()) {
      const rel = `${SCHEMA_DIR}/${f.name}`;
      await this.writeText(rel, schemaText(f));
      out.push(rel);
    }
    return out;
  }

  /**
   * Writes DIR/wsc.yaml, or DIR/.gitignore (GITIGNORE), unless something
   * (even a link) is there already. Returns whether it wrote.
   */
  async writeIfAbsent(name: 'wsc.yaml' | '.gitignore', text: string): Promise<boolean> {
    const p = join(this.root, name);
    if (await lstat(p).catch(() => undefined)) return false;
    writeOutFile(p, text, { exclusive: true });
    return true;
  }

  /** `*.yaml` files in the bundle directories that this export did not write. */
  async staleFiles(written: ReadonlySet<string>): Promise<string[]> {
    const stale: string[] = [];
    for (const sub of Object.values(DIRS)) {
      for (const e of await readdir(join(this.root, sub), { withFileTypes: true })) {
        const rel = `${sub}/${e.name}`;
        if (/\.ya?ml$/i.test(e.name) && !written.has(rel)) stale.push(rel);
      }
    }
    return stale.sort();
  }
}

/**
 * Replaces the file `abs` with `text` as a whole: written to a temporary file
 * beside it, then renamed over it. An export that is interrupted or killed
 * leaves each file as it was or as it is now, never cut short (a rename is
 * atomic; truncating the file in place is not). A link at `abs` is refused,
 * and a rename replaces a link rather than following it.
 */
export function replaceFile(abs: string, text: string): boolean {
  refuseUnreadable(abs, text);
  refuseLink(abs);
  const st = lstatSync(abs, { throwIfNoEntry: false });
  // A file that already holds the text is left alone: exporting again into
  // the same repository rewrites only what changed (and reading is cheaper
  // than a write and a rename).
  if (st?.isFile() && st.size === Buffer.byteLength(text) && sameText(abs, text)) return false;
  const tmp = `${abs}.${process.pid}${TMP_SUFFIX}`;
  try {
    writeOutFile(tmp, text);
    renameSync(tmp, abs);
  } catch (e) {
    // A full disk, or a directory in the way: no temporary file stays (rmSync removes a link, never its target).
    rmSync(tmp, { force: true });
    throw e;
  }
  return true;
}

/**
 * A bundle file over the size wsc reads (MAX_FILE_BYTES) is not written: the
 * next validate would refuse it, so the export would not be a bundle.
 */
function refuseUnreadable(abs: string, text: string): void {
  if (!/\.ya?ml$/i.test(abs)) return;
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_FILE_BYTES) return;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  throw new WscError(
    'export_file_too_large',
    `refusing to write ${abs}: it would be ${mib(bytes)}, over the ${mib(MAX_FILE_BYTES)} wsc reads ` +
      'as a bundle file, so the export could not be read back.',
    EXIT.failure,
    {
      hint:
        'The deployment holds a resource far larger than a bundle file may be (a query or a draft of ' +
        'megabytes); check it in the UI, or export the others with --workbook.',
    },
  );
}

/** Whether the regular file `abs` holds exactly `text` (never through a link). */
function sameText(abs: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | NO_FOLLOW);
  } catch {
    return false;
  }
  try {
    return readFileSync(fd, 'utf8') === text;
  } finally {
    closeSync(fd);
  }
}
