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

/** The run's flags that chose the deployment, each with a leading space. */
function target(r: RunFlags): string {
  return (
    (r.env !== undefined ? ` --env ${r.env}` : '') +
    (r.baseUrl !== undefined ? ` --base-url ${r.baseUrl}` : '') +
    (r.deployment !== undefined ? ` --deployment ${r.deployment}` : '')
  );
}

/** `wsc export --only ADDR --into DIR`: a resource's live values taken into its file of the run's bundle. */
export function exportOnly(address: string, r: RunFlags = {}): string {
  return `wsc export --only ${address} --into ${r.dir ?? '.'}${target(r)}`;
}

/** The run's `--dir`, when not the working directory, with a leading space. */
const dirFlag = (r: RunFlags) => (r.dir === undefined || r.dir === '.' || r.dir === '' ? '' : ` --dir ${r.dir}`);

/** `wsc validate` of the run's bundle with its environment's variables: an invalid bundle's errors again. */
export function validateCommand(r: RunFlags): string {
  return `wsc validate${dirFlag(r)}${r.env !== undefined ? ` --env ${r.env}` : ''}`;
}

/** `wsc apply` with `flags` (an `--overwrite-ui-edits`, a `--take-over`, none) for the run's bundle and deployment. */
export function applyWith(flags: string, r: RunFlags = {}): string {
  return `wsc apply${flags === '' ? '' : ` ${flags}`}${dirFlag(r)}${target(r)}`;
}
