// The one check that the bundle directory is there, before a command reads it
// or makes anything in its place (an embedded environment's state directory):
// `wsc validate`, `preview`, the environment's resolution and the loader ask
// here, so the message and its hint are the same from every command.
import { stat } from 'node:fs/promises';
import { ConfigError } from './errors.js';

/** `p` is a directory, or a link to one. */
export async function isDirectory(p: string): Promise<boolean> {
  return (await pathKind(p)) === 'directory';
}

/** What is at `p` (a link followed): a directory, something else, or nothing that can be reached. */
export async function pathKind(p: string): Promise<'directory' | 'not a directory' | 'nothing'> {
  const st = await stat(p).catch(() => undefined);
  return st === undefined ? 'nothing' : st.isDirectory() ? 'directory' : 'not a directory';
}

/** What is said of a bundle directory that is not there (the loader's diagnostic says it too). */
export const BUNDLE_DIR_MISSING = 'bundle directory not found';

/** Refuses a bundle directory that is not there, or not a directory (`bundle_dir_missing`); `shown` names it. */
export async function requireBundleDir(dir: string, shown: string = dir): Promise<void> {
  const found = await pathKind(dir);
  if (found === 'directory') return;
  // Something else is there (a file where the bundle was meant): said, so "not found" does not puzzle.
  const what = found === 'nothing' ? '' : ' (a file is there, not a directory)';
  throw new ConfigError('bundle_dir_missing', `${BUNDLE_DIR_MISSING}: ${shown}${what}`, {
    hint: 'Pass the directory that holds wsc.yaml and the bundle files with --dir.',
  });
}
