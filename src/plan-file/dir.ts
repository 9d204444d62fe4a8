// The bundle directory of `wsc apply PLANFILE`: --dir when given, otherwise
// the one the plan names, which must lie inside the working directory, by its
// name (core/saved-plan-apply.ts) and by the real path it leads to.
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { planDirOutside, refusePlanDirName } from '../core/saved-plan-apply.js';

/** --dir when given (`dirGiven`); otherwise the directory the plan records (`bundleDir`, relative to `cwd`). */
export function savedPlanDir(bundleDir: string | undefined, opts: { dir: string; dirGiven?: boolean }, cwd: string) {
  if (opts.dirGiven === true || bundleDir === undefined) return resolve(cwd, opts.dir);
  refusePlanDirName(bundleDir, isAbsolute);
  // The name stays inside; a symbolic link on the way may not lead out of it.
  const dir = resolve(cwd, bundleDir);
  const [real, base] = [realOrSelf(dir), realOrSelf(cwd)];
  if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep)) throw planDirOutside(bundleDir, real);
  return dir;
}

/** The real path, or the path itself when it does not exist (the command says so later). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
