// The files of `preview --out DIR` (and `plan --pictures DIR`): each
// dashboard as SVG and PNG per breakpoint, written into DIR through the one
// link-safe writer (out-file.ts).
import { join, resolve } from 'node:path';
import { WscError } from '../errors.js';
import { makeDirectory } from '../make-dir.js';
import { refuseLink, writeOutFile } from '../out-file.js';
import type { PreviewModel, PreviewWorkbook } from './model.js';
import { pngOf } from './png.js';
import { dashboardSvgs } from './svg-files.js';
import { dirRefusal, type DirFlag } from './pictures-dir.js';

interface PictureFile {
  name: string;
  slug: string;
  bytes: string | Buffer;
}

/** The pictures of `workbooks` (against a baseline: the changed ones), SVG then PNG for each. */
async function pictureFiles(workbooks: readonly PreviewWorkbook[], against?: string): Promise<PictureFile[]> {
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
async function writePictures(target: string, shown: string, flag: DirFlag, files: readonly PictureFile[]) {
  try {
    await makeDirectory(target);
    // A link where a picture goes is refused before any is written (and, planted later, at its own write).
    for (const f of files) refuseLink(join(target, f.name));
    for (const f of files) writeOutFile(join(target, f.name), f.bytes);
  } catch (e) {
    if (e instanceof WscError) throw e;
    throw dirRefusal(shown, flag, e);
  }
}

/**
 * The pictures of a model drawn, written into `out` (relative to `cwd`; `flag` named it): each file's name
 * (in `out`) and the workbook it draws. `warn` is told when data was asked for and the pictures have none.
 */
export async function writeDrawn(
  model: PreviewModel,
  opts: { out: string; flag: DirFlag; against?: string | undefined; withData?: boolean | undefined },
  cwd: string,
  warn: (line: string) => void,
): Promise<{ name: string; slug: string }[]> {
  if (opts.withData === true && model.data !== undefined && 'off' in model.data)
    warn(`wsc: the pictures are drawn without data: ${model.data.off}.\n`);
  const files = await pictureFiles(model.workbooks, opts.against);
  await writePictures(resolve(cwd, opts.out), opts.out, opts.flag, files);
  return files.map(({ name, slug }) => ({ name, slug }));
}
