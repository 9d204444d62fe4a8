// Bundles committed in git repositories of their own, for what reads git:
// `--against git:REF` and the GitHub Action's checkouts.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root, tempDir } from './index.js';

/** git in cwd, as a committer with a name and an address (a fresh machine has none). */
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/**
 * fixtures/example committed as the first commit of branch main of a new repository (`repo`, a new temporary
 * directory by default), at `under` in it (its root by default); `beforeCommit` may change the bundle first.
 * Returns the repository and the bundle's folder in it.
 */
export function exampleRepo(opts: { under?: string; beforeCommit?: (bundle: string) => void; repo?: string } = {}): {
  repo: string;
  bundle: string;
} {
  const repo = opts.repo ?? tempDir('wsc-git-');
  const bundle = join(repo, opts.under ?? '.');
  cpSync(join(root, 'fixtures/example'), bundle, { recursive: true });
  opts.beforeCommit?.(bundle);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'dashboards');
  return { repo, bundle };
}

/** The SVG pictures in dir, by name. */
export const svgsIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.svg'))
    .sort();
