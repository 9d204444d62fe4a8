// Finding the bundle's files: every *.yaml / *.yml under the root
// except wsc.yaml, `.wsc/`, dot-directories and node_modules, in sorted
// order. Symlinked directories are not followed (no loops). Reading one is
// yaml/read.ts.
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import type { Diagnostic } from '../errors.js';
import { fsCause } from '../domain/fs-cause.js';
import { CONFIG_FILE, type BundleFile } from '../yaml/read.js';

const MAX_FILES = 100_000;
const MAX_DIR_DEPTH = 32;

export interface Discovery {
  files: BundleFile[];
  diagnostics: Diagnostic[];
}

export async function discoverFiles(root: string): Promise<Discovery> {
  const files: BundleFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const realRoot = await realpath(root).catch(() => root);
  const report = (severity: 'error' | 'warning', rule: string, message: string, file: string, hint?: string) =>
    diagnostics.push({ severity, rule, message, pos: { file, line: 1, col: 1 }, ...(hint ? { hint } : {}) });
  const walk = async (absDir: string, relDir: string, depth: number): Promise<void> => {
    if (depth > MAX_DIR_DEPTH) {
      report('warning', 'bundle-depth', `directory nested more than ${MAX_DIR_DEPTH} levels deep; not read`, relDir);
      return;
    }
    let entries: Dirent[];
    try {
      entries = await readdir(absDir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const message = `cannot read directory${code ? `: ${fsCause(code)}` : ''}`;
      const hint = 'Give wsc permission to read it, or move it out of the bundle.';
      report('error', 'dir-unreadable', message, relDir === '' ? '.' : relDir, hint);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const rel = relDir === '' ? e.name : `${relDir}/${e.name}`;
      // Concatenated: path.join would normalise a path that already is, for each of thousands of entries.
      const abs = `${absDir}${sep}${e.name}`;
      if (e.isSymbolicLink() && !/\.ya?ml$/i.test(e.name)) {
        const target = await stat(abs).catch(() => undefined);
        if (target?.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') {
          const hint =
            'Bundle directories are read without following links, so a link loop ' +
            'cannot trap wsc; copy or move the files into the bundle.';
          report('warning', 'symlink-dir', 'symbolic link to a directory: not followed', rel, hint);
        }
        continue;
      }
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || e.name === 'node_modules') continue;
        await walk(abs, rel, depth + 1);
        continue;
      }
      if (!/\.ya?ml$/i.test(e.name)) continue;
      if (relDir === '' && e.name === CONFIG_FILE) continue;
      if (e.isSymbolicLink()) {
        // A link to a file is read; a link to a directory is not followed.
        const target = await stat(abs).catch(() => undefined);
        if (!target) {
          report('error', 'file-unreadable', 'broken symbolic link', rel);
          continue;
        }
        if (!target.isFile()) continue;
        // Like a linked directory, a linked file must not bring in what lies outside the bundle.
        const real = await realpath(abs).catch(() => abs);
        if (!real.startsWith(realRoot + sep)) {
          const hint = 'Bundle files are read only from inside the bundle directory; copy the file into it.';
          report('error', 'symlink-outside', 'symbolic link to a file outside the bundle: not read', rel, hint);
          continue;
        }
      } else if (!e.isFile()) continue;
      if (files.length >= MAX_FILES) {
        report('error', 'bundle-size', `more than ${MAX_FILES} bundle files; the rest were not read`, rel);
        return;
      }
      files.push({ rel, abs });
    }
  };
  await walk(root, '', 0);
  return { files, diagnostics };
}
