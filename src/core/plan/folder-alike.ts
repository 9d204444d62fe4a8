// A folder the plan would create beside a live folder whose name a reader
// takes for the same (`finance/revenue analytics` beside `Finance/Revenue
// analytics`, a Cyrillic `а` for a Latin `a`): to the API a second folder, so
// apply would build a twin tree and move workbooks into it. Refused (exit 3,
// the input is wrong, nothing was written) with a did-you-mean naming both,
// unless wsc.yaml says `folderLookAlikes: allow`.
import { EXIT, WscError } from '../../errors.js';
import { formatFolderPath } from '../../domain/folder-path.js';
import type { DesiredState } from '../model.js';
import { at } from '../where.js';

export interface LookAlike {
  /** The folder path the bundle writes, up to the folder to create. */
  path: readonly string[];
  /** The live folder's path, as the bundle would write it. */
  live: string;
  /** The live folder's id. */
  id: number;
  /** What differs: `case or white space`, `look-alike letters`. */
  how: string;
}

/** The first resource whose `folder:` goes through `path`: its path as written and where. */
function firstWriter(path: readonly string[], desired: DesiredState): { folder: string[]; where: string } | undefined {
  const key = formatFolderPath(path);
  for (const r of [...desired.workbooks, ...desired.reports]) {
    if (r.folder === undefined || r.folder.length < path.length) continue;
    if (formatFolderPath(r.folder.slice(0, path.length)) !== key) continue;
    return { folder: r.folder, where: at(r.locate?.(['folder']) ?? r.pos) };
  }
  return undefined;
}

/** The refusal, one line per folder; `spell`: a path as the live tree spells it (for the did-you-mean). */
export function lookAlikeError(
  alike: readonly LookAlike[],
  desired: DesiredState,
  spell: (path: readonly string[]) => string[],
): WscError {
  const lines = alike.map((a) => {
    const writer = firstWriter(a.path, desired);
    const written = writer?.folder ?? a.path;
    return (
      `${writer?.where ?? ''}folder \`${formatFolderPath(written)}\`: \`${formatFolderPath(a.path)}\` differs from ` +
      `the live folder \`${a.live}\` (id ${a.id}) only in ${a.how}, so apply would create a second folder beside ` +
      `it. Did you mean \`${formatFolderPath(spell(written))}\`?`
    );
  });
  return new WscError('folder_look_alike', lines.join('\n'), EXIT.invalid, {
    hint:
      'Write the live folder path as it is; or, if the bundle really wants both folders, say so with ' +
      '`folderLookAlikes: allow` in wsc.yaml.',
  });
}
