// The commands a way forward prints, for the bundle and the deployment the run acted on: its --dir (when not
// the working directory) and the flags that chose the deployment (--env, --base-url, --deployment), as typed.
// Followed as printed, from where the run started, they act on the same bundle and deployment, whatever the
// default environment (a pull request's plan of `--dir dashboards --env production` says so in its comment).

/** How a run named its bundle and its deployment, as typed (none: the working directory and the default). */
export interface RunFlags {
  dir?: string | undefined;
  env?: string | undefined;
  baseUrl?: string | undefined;
  deployment?: number | undefined;
}

/**
 * A value as a shell reads it back: as typed when it holds nothing a shell splits or expands, else in single
 * quotes (a directory `My dashboards`, a target `folder/Finance/Revenue analytics`, a plan file's path).
 */
export function shellArg(v: string): string {
  return /^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replaceAll("'", `'\\''`)}'`;
}

/** The run's flags that chose the deployment, each with a leading space. */
function target(r: RunFlags): string {
  return (
    (r.env !== undefined ? ` --env ${shellArg(r.env)}` : '') +
    (r.baseUrl !== undefined ? ` --base-url ${shellArg(r.baseUrl)}` : '') +
    (r.deployment !== undefined ? ` --deployment ${r.deployment}` : '')
  );
}

/** `wsc export --only ADDR --into DIR`: a resource's live values taken into its file of the run's bundle. */
export function exportOnly(address: string, r: RunFlags = {}): string {
  return `wsc export --only ${shellArg(address)} --into ${shellArg(r.dir ?? '.')}${target(r)}`;
}

/** The run's `--dir`, when not the working directory, with a leading space. */
const dirFlag = (r: RunFlags) =>
  r.dir === undefined || r.dir === '.' || r.dir === '' ? '' : ` --dir ${shellArg(r.dir)}`;

/** `wsc validate` of the run's bundle with its environment's variables: an invalid bundle's errors again. */
export function validateCommand(r: RunFlags): string {
  return `wsc validate${dirFlag(r)}${r.env !== undefined ? ` --env ${shellArg(r.env)}` : ''}`;
}

/**
 * `wsc apply` with `flags` (an `--overwrite-ui-edits`, a `--take-over`, none) for the run's bundle and deployment,
 * and what the run planned (a targeted run's way forward stays targeted: it applies no more than the run would).
 */
export function applyWith(flags: string, r: PlanFlags = {}): string {
  return `wsc apply${shape(r)}${flags === '' ? '' : ` ${flags}`}${dirFlag(r)}${target(r)}`;
}

/** The flags of a plan or apply run that shape what it plans, as typed, beside its bundle's and deployment's. */
export interface PlanFlags extends RunFlags {
  target?: readonly string[] | undefined;
  prune?: boolean | undefined;
  maxDeletes?: number | undefined;
  uiEdits?: string | undefined;
  skipSemanticCheck?: boolean | undefined;
}

/** The flags that shape the plan, each with a leading space: the printed plan is the run's, not a wider one. */
function shape(p: PlanFlags): string {
  return (
    (p.target ?? []).map((t) => ` --target ${shellArg(t)}`).join('') +
    (p.prune === true ? ' --prune' : '') +
    (p.maxDeletes !== undefined ? ` --max-deletes ${p.maxDeletes}` : '') +
    (p.uiEdits !== undefined ? ` --ui-edits ${shellArg(p.uiEdits)}` : '') +
    (p.skipSemanticCheck === true ? ' --skip-semantic-check' : '')
  );
}

/** `wsc plan` with `flags` (an `--output`, an `--out FILE`, none) planning what the run planned. */
export function planCommand(flags: string, r: PlanFlags = {}): string {
  return `wsc plan${shape(r)}${flags === '' ? '' : ` ${flags}`}${dirFlag(r)}${target(r)}`;
}

/** `wsc drift` with `flags` for the run's bundle and deployment. */
export function driftCommand(flags: string, r: RunFlags = {}): string {
  return `wsc drift${flags === '' ? '' : ` ${flags}`}${dirFlag(r)}${target(r)}`;
}

/** An apply run's flags as typed: what it plans, and what it writes over or takes besides. */
export interface ApplyFlags extends PlanFlags {
  overwriteUiEdits?: boolean | readonly string[] | undefined;
  takeOver?: readonly string[] | undefined;
}

/**
 * The ways forward of an apply that cannot ask (no terminal): the run's plan to review, the same run with
 * `--auto-approve`, and (when the plan alone says what apply writes) a saved plan, which names its bundle and
 * deployment. `--overwrite-ui-edits` and `--take-over` write more than a saved plan holds: not offered then.
 */
export function confirmWaysForward(a: ApplyFlags): string {
  const over = a.overwriteUiEdits;
  const extra =
    (over === true ? ' --overwrite-ui-edits' : '') +
    (Array.isArray(over) && over.length > 0 ? ` --overwrite-ui-edits ${over.map(shellArg).join(' ')}` : '') +
    ((a.takeOver ?? []).length > 0 ? ` --take-over ${a.takeOver!.map(shellArg).join(' ')}` : '');
  const apply = applyWith(`${extra} --auto-approve`.trim(), a);
  const review = `Review the changes with \`${planCommand('', a)}\`, then run \`${apply}\``;
  if (extra !== '') return `${review}.`;
  return (
    `${review}; or save a reviewed plan with \`${planCommand('--out plan.json', a)}\` and apply exactly that ` +
    'with `wsc apply plan.json`.'
  );
}

/** A refused saved plan's way forward: the plan made again as it was (its flags), into the same file, then applied. */
export function planAgain(planFile: string, r: PlanFlags): string {
  const file = shellArg(planFile);
  return `Run \`${planCommand(`--out ${file}`, r)}\` again, review it, and apply the new plan: \`wsc apply ${file}\`.`;
}

/** The commands doctor's hints name: the plan of the run's bundle, and an export of its deployment into DIR. */
export function doctorCommands(r: RunFlags): { plan: string; exportOut: string } {
  return { plan: planCommand('', r), exportOut: `wsc export --out DIR${target(r)}` };
}
