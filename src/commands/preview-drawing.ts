// The drawing of a preview, shared by `wsc preview` (the page, `--out`) and
// `plan --pictures` (the files of `preview --out DIR --against env:<env>`):
// the bundle read through the loader as validate reads it, the baseline of
// `--against` made once (git:<ref>: the bundle as committed, bundle/at-ref.ts;
// env:<name>: the live deployment, read once through the live-read path plan
// uses, list requests only), and where the charts' data comes from: the
// environment's Core Data API (its token found as every networked command
// finds it; the minted deployment token alone goes to the Core Data API), or
// boxes that say why. The page draws with data by default when a token is
// there (`--no-data`: boxes); files carry data only with `--with-data`,
// because they are meant to leave the machine (README, Security). Nothing is
// ever written to the API. The model and its marks are src/preview's.
import { resolve } from 'node:path';
import { connect } from '../api/connect.js';
import { openDataReader } from '../api/data-load.js';
import { requireBundleDir } from '../bundle-dir.js';
import { bundleAtRef, removeBundleCopy } from '../bundle/at-ref.js';
import type { DesiredState, LiveState } from '../core/model.js';
import { ownershipOf } from '../core/plan/ownership-flags.js';
import { CONCURRENCY, MAX_RETRIES } from '../defaults.js';
import { BundleError, type Diagnostic } from '../errors.js';
import {
  gitBaselines,
  liveBaselines,
  markedAgainst,
  parseAgainst,
  plannedReportsOnly,
  type Against,
} from '../preview/baselines.js';
import { dataFrom, noData, type DataPlan } from '../preview/data-plan.js';
import { readModelFile } from '../preview/model-file.js';
import { previewModel, type PreviewModel } from '../preview/model.js';
import { writeDrawn } from '../preview/picture-files.js';
import { checkPicturesDir } from '../preview/pictures-dir.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import type { PreviewOptions } from '../command-options.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { Prepared } from './prepare.js';
import { bundleOf, planOf, readLive, sayReading } from './steps.js';

const EMPTY: DesiredState = { workbooks: [], reports: [], userAttributes: [] };

/** How the charts' data is read, by the preview and by plan --pictures alike. */
const DATA_READS = { maxRetries: 2 };

/** Why files are drawn as boxes: they are meant to leave the machine (README, Security). */
const FILES_WITHOUT_DATA = 'files carry data only with --with-data';

/** A bundle as a preview draws it: what is valid, and every diagnostic. */
type Loaded = { desired: DesiredState; diagnostics: Diagnostic[] };

/** The bundle at `dir` with the environment's variables, every diagnostic kept (what is valid is drawn). */
async function loadDesired(dir: string, envName: string | undefined, ctx: CommandContext): Promise<Loaded> {
  try {
    const { environment: env } = await configure({ env: envName }, ctx, { dir, connects: false });
    return await bundleOf(dir, env, ctx, false);
  } catch (e) {
    // wsc.yaml itself is invalid: nothing to draw, its diagnostics to show.
    if (!(e instanceof BundleError)) throw e;
    return { desired: EMPTY, diagnostics: e.diagnostics };
  }
}

/** The live deployment of environment `name`, read once; each reload of the bundle planned against it. */
async function envBaselines(name: string, dir: string, desired: DesiredState, ctx: CommandContext): Promise<Against> {
  const { environment: env, client } = await configure({ env: name }, ctx, { dir });
  // preview has no connection flags: their defaults.
  const flags = { verbose: false, concurrency: CONCURRENCY, maxRetries: MAX_RETRIES };
  const conn = await connect(env, connectOptions(flags, client, ctx));
  let live: LiveState;
  try {
    sayReading(env, ctx);
    live = await readLive(conn, desired);
  } finally {
    await conn.close();
  }
  return againstLive(desired, live, env);
}

/**
 * The live deployment `live` as the baseline, each reload of the bundle planned against it as `wsc plan` plans
 * it (ownership and the environment's uiEdits, never a prune), so that the picture agrees with the plan.
 */
function againstLive(
  desired: DesiredState,
  live: LiveState,
  env: ResolvedEnvironment,
  targets: string[] = [],
): Against {
  const own = env.bundle !== undefined ? { ownership: ownershipOf(env.bundle, {}, { ...env, prune: false }) } : {};
  const planNow = (now: DesiredState) => planOf(now, live, env, { ...own, targets });
  if (targets.length === 0) return liveBaselines(desired, live, env, planNow);
  // Limited by --target: what the plan does not change is drawn unchanged, its charts' reports too. The bundle
  // as loaded is planned once, for both.
  const first = planNow(desired);
  const against = liveBaselines(desired, live, env, (now) => (now === desired ? first : planNow(now)));
  const planned = new Set(first.changes.flatMap((c) => (c.kind === 'report' ? [c.address] : [])));
  return plannedReportsOnly(against, desired, planned);
}

/** The baseline of `--against`, made once: the bundle at a commit, or the live deployment read once. */
async function baselinesOf(
  against: string,
  dir: string,
  envName: string | undefined,
  ctx: CommandContext,
): Promise<{ against: Against; now?: Loaded }> {
  const ref = parseAgainst(against);
  if (ref.kind === 'env') {
    // The bundle now, loaded to know what to read: the first drawing draws it, not a second load.
    const now = await loadDesired(dir, envName, ctx);
    return { against: await envBaselines(ref.name, dir, now.desired, ctx), now };
  }
  const { copy, skipped } = await bundleAtRef(dir, ref.ref);
  for (const s of skipped)
    ctx.err(`${ctx.style.c.yellow('warning')} ${against}: ${s.path}: ${s.why}; not read, the baseline is without it\n`);
  try {
    // The committed bundle as it loads: its problems are not this run's (only its dashboards are drawn from).
    return { against: gitBaselines((await loadDesired(copy, envName, ctx)).desired) };
  } finally {
    await removeBundleCopy(copy);
  }
}

/** The charts' data: `wanted` false gives boxes that say `offWhy`; else the environment's Core Data API. */
async function dataPlan(
  wanted: boolean,
  offWhy: string,
  envName: string | undefined,
  dir: string,
  ctx: CommandContext,
) {
  if (!wanted) return noData(offWhy);
  try {
    const { environment: env, client } = await configure({ env: envName }, ctx, { dir });
    // An embedded deployment's data comes from its model alone: its state file is neither read nor written.
    const { stateFile: _state, ...stateless } = env;
    const flags = { verbose: false, concurrency: 4, maxRetries: 3 };
    const conn = await connect(stateless, connectOptions(flags, client, ctx));
    return dataFrom(
      env.name,
      () => openDataReader(conn.client, conn.deploymentId, DATA_READS),
      () => conn.close(),
    );
  } catch (e) {
    return noData(`no connection to read data with: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The bundle's model as drawn now, marked against the baseline when there is one, its charts with or without data. */
export type Loader = () => Promise<{ model: PreviewModel; diagnostics: Diagnostic[] }>;

/** The drawing of a preview: a loader of the model (called on each reload), and the data's connection to close. */
export async function previewLoader(opts: PreviewOptions, ctx: CommandContext) {
  const dir = resolve(ctx.cwd, opts.dir);
  await requireBundleDir(dir, opts.dir);
  // Against an environment, its variables are the ones the bundle is drawn with, unless --env says otherwise.
  const envName = opts.env ?? (opts.against?.startsWith('env:') ? opts.against.slice(4) : undefined);
  const index = opts.model !== undefined ? await readModelFile(resolve(ctx.cwd, opts.model), opts.model) : undefined;
  const base = opts.against === undefined ? undefined : await baselinesOf(opts.against, dir, envName, ctx);
  const against = base?.against;
  // `--out` draws once, the bundle as just loaded; the page loads it afresh each time it draws.
  let loaded = opts.out !== undefined ? base?.now : undefined;
  const data: DataPlan =
    opts.out !== undefined
      ? await dataPlan(opts.withData === true, FILES_WITHOUT_DATA, envName, dir, ctx)
      : await dataPlan(opts.data !== false, '--no-data: the charts are drawn as boxes', envName, dir, ctx);
  const load: Loader = async () => {
    const { desired, diagnostics } = loaded ?? (await loadDesired(dir, envName, ctx));
    loaded = undefined;
    const model = previewModel(desired, diagnostics, index);
    const marked = against !== undefined ? markedAgainst(model, desired, against, opts.against!) : model;
    return { model: await data.draw(marked), diagnostics };
  };
  return { load, close: () => data.close() };
}

/**
 * `preview --out DIR`: each dashboard (against a baseline, each changed one) as SVG and PNG, per breakpoint,
 * written into DIR through the one link-safe writer. Also the step of `plan --pictures DIR` (the same
 * pictures as `preview --out DIR --against env:<the plan's environment>`). Returns each picture's file name
 * (in the directory given) and the workbook it draws.
 */
export async function writePreviewPictures(opts: PreviewOptions & { out: string }, ctx: CommandContext) {
  await checkPicturesDir(resolve(ctx.cwd, opts.out), opts.out, '--out');
  const { load, close } = await previewLoader(opts, ctx);
  let drawn;
  try {
    drawn = await load();
  } finally {
    await close();
  }
  const { model, diagnostics } = drawn;
  if (diagnostics.length > 0) ctx.err(renderDiagnostics(diagnostics, ctx.style));
  return {
    written: await writeDrawn(model, { ...opts, flag: '--out' }, ctx.cwd, (line) => ctx.err(line)),
    diagnostics,
  };
}

/** What a plan read and made, for its pictures. */
type PlanRead = Pick<Prepared, 'env' | 'desired' | 'warnings' | 'live' | 'conn'>;

/**
 * `plan --pictures DIR`: the pictures of `preview --out DIR --against env:<the plan's environment>`, drawn
 * from what the plan itself read: its bundle, the deployment as it read it (so wherever its flags pointed:
 * --base-url, --deployment) and, with --with-data, the charts' data through its connection. Nothing is read
 * twice, and the pictures show the state the plan was made against. The plan has shown the bundle's warnings.
 */
export async function writePlanPictures(
  read: PlanRead,
  opts: { out: string; withData: boolean; targets: string[] },
  ctx: CommandContext,
) {
  const { env, desired, warnings, live, conn } = read;
  const against = `env:${env.name}`;
  const data = opts.withData
    ? // The plan's connection: the plan closes it.
      dataFrom(
        env.name,
        () => openDataReader(conn.client, conn.deploymentId, DATA_READS),
        () => Promise.resolve(),
      )
    : noData(FILES_WITHOUT_DATA);
  const baseline = againstLive(desired, live, env, opts.targets);
  const model = markedAgainst(previewModel(desired, warnings), desired, baseline, against);
  const drawn = await data.draw(model);
  return writeDrawn(drawn, { out: opts.out, flag: '--pictures', withData: opts.withData, against }, ctx.cwd, (line) =>
    ctx.err(line),
  );
}
