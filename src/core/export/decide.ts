// Export's decisions around the transform, for the command: which of its
// three ways a command line asks for (a new snapshot, a bundle updated in
// place, or only some resources taken into their files), the warnings of the
// items wsc could not read, and which warnings an export `--into` keeps.
import { UsageError } from '../../errors.js';
import type { UnreadableItem } from '../model.js';
import type { ExportWarning } from './types.js';

export interface ExportFlags {
  out?: string | undefined;
  into?: string | undefined;
  workbook: readonly string[];
  only?: readonly string[] | undefined;
}

/** What an export does: `out` a new snapshot, `into` a bundle updated in place, `only` some resources taken in. */
export type ExportWay = 'out' | 'into' | 'only';

/** Exactly one of --out (a new snapshot) and --into (an existing bundle): the way, and the directory. */
export function exportWay(opts: ExportFlags): { way: ExportWay; dir: string } {
  if (opts.out !== undefined && opts.into !== undefined) {
    const why = 'give one of --out and --into: --out writes a new snapshot, --into updates an existing bundle.';
    throw new UsageError(why);
  }
  const dir = opts.out ?? opts.into;
  if (dir === undefined) {
    throw new UsageError('export needs --out DIR (a new snapshot) or --into DIR (an existing bundle).', {
      hint: 'e.g. `wsc export --out dashboards`, or `wsc export --into dashboards` to update a bundle in place.',
    });
  }
  if (opts.into !== undefined && opts.workbook.length > 0) {
    throw new UsageError('--workbook cannot be used with --into: a bundle is updated as a whole (or give --only).');
  }
  // Into the existing files of a bundle, not a snapshot.
  if (opts.only !== undefined && opts.only.length > 0) return { way: 'only', dir };
  return { way: opts.into !== undefined ? 'into' : 'out', dir };
}

/**
 * The refusal of a bundle to update (--into, or --only's bundle) that is not there (`found`: what is there
 * instead, if anything), in the words of the flag given: --only's bundle may still be given with --out, its
 * older spelling.
 */
export function noBundleAt(opts: ExportFlags, shown: string, found: 'nothing' | 'not a directory'): UsageError {
  const flag = opts.into !== undefined ? '--into' : '--out';
  const what = found === 'nothing' ? 'no such directory' : 'not a directory (a file is there)';
  if (opts.only !== undefined && opts.only.length > 0) {
    return new UsageError(`${flag} ${shown}: ${what}. --only takes resources into the files of an existing bundle.`, {
      code: 'export_out_dir',
      hint: 'Give the directory of the bundle that holds them, e.g. `wsc export --only ADDR --into dashboards`.',
    });
  }
  return new UsageError(`${flag} ${shown}: ${what}. --into updates an existing bundle.`, {
    code: 'export_out_dir',
    hint: 'Give the directory of the bundle to update, or write a new one with --out.',
  });
}

/** A warning for each item the server sent that wsc could not read: it is not in the export. */
export function unreadableWarnings(unreadable: readonly UnreadableItem[]): ExportWarning[] {
  return unreadable.map((o) => {
    const id = o.id !== undefined ? ` ${o.id}` : '';
    const name = `${o.kind}${id}${o.identity !== undefined ? ` (${o.identity})` : ''}`;
    return { code: 'resource-skipped', message: `${name} not exported: the server sent ${o.why}.` };
  });
}

/**
 * The warnings of an export `--into`: those of the new files it wrote, and the export's own but the
 * per-deployment one (new reports carry an aliasing adopt).
 */
export function intoWarnings(warnings: readonly ExportWarning[], newFiles: ReadonlySet<string>): ExportWarning[] {
  return warnings.filter((w) => (w.file === undefined ? w.code !== 'per-deployment-ids' : newFiles.has(w.file)));
}
