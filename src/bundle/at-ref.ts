// A bundle as committed at a git ref (`wsc preview --against git:<ref>`),
// read with `git ls-tree` and `git cat-file` (no checkout; the working tree
// and index are left alone) into a temporary directory, from which the
// loader reads it like any bundle.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../errors.js';
import { makeDirectory } from '../make-dir.js';
import { overFileLimit } from '../yaml/read.js';

const run = promisify(execFile);

/**
 * What `git` answered, or the error of `--against git:<ref>` in words: no git, no repository (`step` 'repository':
 * finding it), no such ref (`step` 'ref': resolving it), else git's own words.
 */
async function git(dir: string, args: string[], ref: string, step?: 'repository' | 'ref'): Promise<string> {
  try {
    return (await run('git', ['-C', dir, ...args], { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' })).stdout;
  } catch (e) {
    const err = e as { stderr?: string; code?: string | number };
    const said = (err.stderr ?? String(e)).trim().split('\n')[0];
    if (err.code !== 'ENOENT' && step === 'ref')
      throw new UsageError(`--against git:${ref}: the repository has no commit, branch or tag \`${ref}\`.`, {
        code: 'preview_git',
        hint:
          'Name one it has (`git branch -a`, `git tag` list them). A shallow CI checkout holds its own commit alone: ' +
          'fetch the base first (`git fetch --depth=1 origin +refs/heads/<branch>:refs/remotes/origin/<branch>`), ' +
          'then name it (`git:origin/<branch>`).',
      });
    const why =
      err.code === 'ENOENT'
        ? 'git is not installed'
        : step === 'repository'
          ? `no git repository holds ${dir} (${said})`
          : said;
    throw new UsageError(`--against git:${ref} cannot read the repository: ${why}.`, {
      code: 'preview_git',
      hint: 'Run wsc preview inside a git clone holding the bundle, and name a commit, branch or tag it has.',
    });
  }
}

/** The blobs' contents by object id, read by one `git cat-file --batch`. */
function catFiles(dir: string, ids: string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', dir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', () => {
      const all = Buffer.concat(chunks);
      const out = new Map<string, Buffer>();
      let at = 0;
      while (at < all.length) {
        const nl = all.indexOf(10, at);
        const [id, , size] = all.subarray(at, nl).toString('utf8').split(' ');
        const n = Number(size);
        out.set(id!, all.subarray(nl + 1, nl + 1 + n));
        at = nl + 1 + n + 1;
      }
      resolve(out);
    });
    child.stdin.end(`${ids.join('\n')}\n`);
  });
}

/** A bundle file at a ref that is not read: over the size of a bundle file (its size from `ls-tree -l`). */
export interface SkippedBlob {
  path: string;
  why: string;
}

/**
 * The bundle directory `dir` as committed at `ref`, written into a new temporary directory (the
 * caller removes it): its YAML files only, which is all a bundle is. A blob over the limit of a
 * bundle file is never read (`skipped`), as the same file in the working tree would not be.
 */
export async function bundleAtRef(dir: string, ref: string): Promise<{ copy: string; skipped: SkippedBlob[] }> {
  const top = (await git(dir, ['rev-parse', '--show-toplevel'], ref, 'repository')).trim();
  const prefix = (await git(dir, ['rev-parse', '--show-prefix'], ref)).trim();
  const commit = (await git(dir, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], ref, 'ref')).trim();
  const listing = await git(top, ['ls-tree', '-r', '-l', '-z', commit, '--', prefix === '' ? '.' : prefix], ref);
  const files = listing
    .split('\0')
    .filter((l) => l !== '')
    .map((l) => {
      const [meta, path] = [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)];
      const [mode, type, id, size] = meta.split(/ +/);
      return { mode: mode!, type: type!, id: id!, size: Number(size), path: path.slice(prefix.length) };
    })
    .filter((f) => f.type === 'blob' && f.mode !== '120000' && /\.ya?ml$/i.test(f.path))
    .filter((f) => !f.path.split('/').some((p) => p === '..' || p.startsWith('.wsc')));
  const skipped: SkippedBlob[] = [];
  const read = files.filter((f) => {
    const why = Number.isFinite(f.size) ? overFileLimit(f.size) : 'its size is unknown';
    if (why !== undefined) skipped.push({ path: f.path, why });
    return why === undefined;
  });
  const blobs = await catFiles(
    top,
    read.map((f) => f.id),
  );
  const out = await mkdtemp(join(tmpdir(), 'wsc-against-'));
  for (const f of read) {
    const target = join(out, f.path);
    await makeDirectory(dirname(target));
    await writeFile(target, blobs.get(f.id) ?? Buffer.alloc(0));
  }
  return { copy: out, skipped };
}

/** Removes a directory made by bundleAtRef. */
export async function removeBundleCopy(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
