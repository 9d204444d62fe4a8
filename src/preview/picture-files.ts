// The files of `preview --out DIR` (and `plan --pictures DIR`): each
// dashboard as SVG and PNG per breakpoint, written into DIR through the one
// link-safe writer (out-file.ts).
import { join } from 'node:path';
import { causeOf } from '../domain/fs-cause.js';
import { UsageError, WscError } from '../errors.js';
import { makeDirectory } from '../make-dir.js';
import { refuseLink, writeOutFile } from '../out-file.js';
import type { PreviewWorkbook } from './model.js';
import { pngOf } from './png.js';
import { dashboardSvgs } from './svg-files.js';

export interface PictureFile {
  name: string;
  slug: string;
  bytes: string | Buffer;
}

/** The pictures of `workbooks` (against a baseline: the changed ones), SVG then PNG for each. */
export async function pictureFiles(workbooks: readonly PreviewWorkbook[], against?: string): Promise<PictureFile[]> {
  const files: PictureFile[] = [];
  for (const f of dashboardSvgs(workbooks, against)) {
    files.push({ name: f.name, slug: f.slug, bytes: f.text });
    files.push({ name: f.name.replace(/\.svg$/, '.png'), slug: f.slug, bytes: await pngOf(f.text) });
  }
  return files;
}

/**
 * Every file preview writes goes through here: the pictures into `target` (made when missing; named `shown` in
 * messages), or a UsageError that says why not.
 */
export async function writePictures(target: string, shown: string, files: readonly PictureFile[]): Promise<void> {
  try {
    await makeDirectory(target);
    // A link where a picture goes is refused before any is written (and, planted later, at its own write).
    for (const f of files) refuseLink(join(target, f.name));
    for (const f of files) writeOutFile(join(target, f.name), f.bytes);
  } catch (e) {
    if (e instanceof WscError) throw e;
    throw new UsageError(`cannot write the pictures into ${shown}: ${causeOf(e)}.`, {
      code: 'preview_out_dir',
      hint: 'Give --out a directory you can write to (it is created when missing).',
    });
  }
}
