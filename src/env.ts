// The environment variables wsc reads: one table, used by the code and
// printed in docs/commands.md (a test keeps the two in step). Precedence:
// flags > environment variables > wsc.yaml > defaults.
export interface EnvVarDoc {
  name: string;
  description: string;
}

export const ENV_VARS: readonly EnvVarDoc[] = [
  { name: 'WSC_ENV', description: 'Environment of wsc.yaml to use (like `--env`).' },
  {
    name: 'WSC_BASE_URL',
    description:
      'Base URL of the API host, e.g. `https://acme.cubecloud.dev` (like `--base-url`); `/api/v1` is appended.',
  },
  { name: 'WSC_DEPLOYMENT_ID', description: 'Numeric deployment id (like `--deployment`).' },
  {
    name: 'WSC_TOKEN',
    description: 'API token, used when the environment names none. Never printed nor written to a file.',
  },
  {
    name: 'WSC_AUTH_SCHEME',
    description:
      '`bearer` (default: `Authorization: Bearer <token>`), `api-key` (`Api-Key <token>`) or `raw` (the token alone).',
  },
  {
    name: 'WSC_REQUEST_TIMEOUT',
    description: 'Seconds to wait for one HTTP response before it counts as failed (default 30).',
  },
  {
    name: 'WSC_DOCTOR_TIMEOUT',
    description:
      'Seconds `wsc doctor` may take for all its checks (default 45); a check has at most 12 s of it ' +
      '(the round trip 40 s), and what is left when it runs out is shown as not checked.',
  },
  {
    name: 'WSC_PAGE_SIZE',
    description:
      'Items per list page wsc asks for (like `--page-size`; default 500). A ' +
      'list whose server refuses it or answers shorter pages gets smaller ones for ' +
      'the rest of the run, that list only (`--verbose` says so).',
  },
  {
    name: 'WSC_MAX_LIST_ITEMS',
    description:
      'Items one list may have (like `--max-list-items`; default 200000). A ' +
      'list also stops at the count its first page gave plus a margin (10%, ' +
      'at least 1000): past either, the command stops with exit 1 and writes ' +
      'nothing, instead of reading a server that pages forever.',
  },
  {
    name: 'WSC_MAX_LIST_BYTES',
    description:
      'Bytes of list answers one command reads in all (like `--max-list-bytes`; ' +
      'default 512M; `K`, `M`, `G` are powers of 1024). Past it the command ' +
      'stops with exit 1 and writes nothing, instead of holding whatever a server sends.',
  },
  {
    name: 'WSC_TIMINGS',
    description:
      'When set, wsc prints at exit, on stderr, the wall and CPU time of ' +
      'each phase (start-up, bundle, read deployment, plan, apply, export, output).',
  },
  { name: 'NO_COLOR', description: 'Any non-empty value turns colour off (like `--no-color`).' },
  { name: 'CI', description: 'When set, no spinners and no interactive prompts.' },
  {
    name: 'COLUMNS',
    description:
      "Width the plan's layout map is drawn for when stdout is not a terminal " +
      "(a terminal's own width wins; default 100).",
  },
  {
    name: 'GITHUB_STEP_SUMMARY',
    description:
      'When set (GitHub Actions), `wsc plan` appends its markdown plan to ' +
      'that file (one it cannot add to gives a warning, not a failure).',
  },
] as const;

/** Reads one of the variables above; an empty string counts as unset. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}
