// Where `wsc apply PLANFILE` reads its bundle and which deployment it
// writes to. The file may name the environment of wsc.yaml and the bundle
// directory (inside the working directory); the connection itself (host,
// deployment, token) comes from wsc.yaml, flags and the process environment
// only, and must be the one the plan was made for.
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import type { ApplyOptions } from './options.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { SavedPlan, SavedPlanEnvironment } from '../core/saved-plan.js';
import { CONTROL_CHAR } from '../domain/unsafe-chars.js';
import { UsageError } from '../errors.js';
import { visible } from '../visible.js';
import { configure } from './configure.js';
import type { CommandContext } from './context.js';

/** --dir when given; otherwise the directory the plan records, which must lie inside the working directory. */
export function savedPlanDir(saved: SavedPlan, opts: Pick<ApplyOptions, 'dir' | 'dirGiven'>, cwd: string): string {
  if (opts.dirGiven === true || saved.bundleDir === undefined) return resolve(cwd, opts.dir);
  const rel = saved.bundleDir;
  if (isAbsolute(rel) || rel.split(/[\\/]/).includes('..') || CONTROL_CHAR.test(rel)) {
    throw new UsageError(
      `The saved plan names the bundle directory ${visible(JSON.stringify(rel))}, outside the directory wsc runs in.`,
      {
        code: 'plan_dir_outside',
        hint: 'Give the bundle directory with --dir.',
      },
    );
  }
  // The name stays inside; a symbolic link on the way may not lead out of it.
  const dir = resolve(cwd, rel);
  const [real, base] = [realOrSelf(dir), realOrSelf(cwd)];
  if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep)) {
    throw new UsageError(
      `The saved plan names the bundle directory ${visible(JSON.stringify(rel))}, which resolves to ` +
        `${visible(real)}, outside the directory wsc runs in (a symbolic link on the way).`,
      { code: 'plan_dir_outside', hint: 'Give the bundle directory with --dir.' },
    );
  }
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

function where(e: { embedded: boolean; baseUrl?: string; deploymentId: number }): string {
  return `deployment ${e.deploymentId} ${e.embedded ? 'of the embedded emulator' : `at ${e.baseUrl ?? '(no host)'}`}`;
}

/**
 * The environment of wsc.yaml in `dir` that --env or WSC_ENV names, or else
 * the one the plan names (and the client's settings). A plan whose recorded host, deployment or publicId
 * mode differs from it is refused (exit 3) before anything is sent.
 */
export async function savedPlanEnvironment(
  saved: SavedPlanEnvironment,
  dir: string,
  opts: ApplyOptions,
  ctx: CommandContext,
): Promise<ResolvedConfig> {
  const config = await configure(opts, ctx, { dir, envName: saved.name });
  const env = config.environment;
  const same =
    env.deploymentId === saved.deploymentId &&
    env.embedded === saved.embedded &&
    env.baseUrl === saved.baseUrl &&
    env.publicIds === saved.publicIds;
  if (!same) {
    const mode =
      env.publicIds === saved.publicIds ? '' : ` with publicIds ${saved.publicIds} (this run: ${env.publicIds})`;
    throw new UsageError(
      `The saved plan was made for ${visible(where(saved))} (environment ` +
        `${visible(saved.name)})${mode}, but this run targets ${where(env)} ` +
        `(environment ${env.name}).`,
      {
        code: 'plan_target_mismatch',
        hint:
          'Apply the plan to the deployment it was made for (drop the --env, ' +
          '--base-url or --deployment that differ), or make a new plan for this one.',
      },
    );
  }
  return config;
}
