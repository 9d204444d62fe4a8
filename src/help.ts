// What `wsc CMD --help` prints after the flags: a few examples and the exit
// codes of that command. Kept apart from the wiring in cli.ts so the words
// can be read (and changed) in one place; docs/commands.md says the same.
import type { Command } from 'commander';

export type CommandName =
  'validate' | 'plan' | 'apply' | 'drift' | 'export' | 'doctor' | 'emulator' | 'preview' | 'schema';

interface CommandHelp {
  examples: readonly string[];
  /** [code, meaning] */
  exitCodes: readonly (readonly [number | string, string])[];
}

const INVALID: readonly [number, string] = [
  3,
  'invalid input (usage, wsc.yaml, bundle, a member the data model lacks); nothing was written',
];

export const HELP: Record<CommandName, CommandHelp> = {
  validate: {
    examples: [
      'wsc validate',
      'wsc validate --dir dashboards --env prod',
      'wsc validate --strict --output json',
      'wsc validate --env prod --semantic-check',
    ],
    exitCodes: [
      [0, 'the bundle is valid (warnings do not fail)'],
      [
        3,
        'the bundle or wsc.yaml has errors (with --strict: also a reference outside the bundle; with ' +
          '--semantic-check: a member the data model lacks), or a usage error',
      ],
    ],
  },
  plan: {
    examples: [
      'wsc plan --env staging',
      'wsc plan --output markdown --detailed-exitcode',
      'wsc plan --target report/revMrrTrnd01 --out plan.json',
      'wsc plan --output markdown --pictures dashboard-pictures',
      'wsc plan --output markdown --pictures dashboard-pictures --with-data',
      'wsc plan --skip-semantic-check',
      'wsc plan --ui-edits revert',
    ],
    exitCodes: [
      [0, 'planned (with --detailed-exitcode: apply would send nothing and nothing is blocked)'],
      [1, 'the API, the network or a list bound failed'],
      [2, 'with --detailed-exitcode only: changes pending (ownership records alone to write too: apply sends them)'],
      INVALID,
      [5, 'with --detailed-exitcode only: a resource is blocked (apply would exit 5)'],
    ],
  },
  apply: {
    examples: [
      'wsc apply',
      'wsc apply --env prod --auto-approve',
      'wsc apply plan.json',
      'wsc apply --overwrite-ui-edits report/revMrrTrnd01',
    ],
    exitCodes: [
      [0, 'applied, or nothing to change'],
      [1, 'failed before any change was applied, cancelled at the prompt, or a stale saved plan'],
      INVALID,
      [4, 'partly applied: some changes applied, some failed (the summary says whether running again converges)'],
      [5, 'nothing failed, but something was blocked (a UI edit, an ownership record); the summary says how to go on'],
      ['130, 143', 'a second SIGINT or SIGTERM during the writes'],
    ],
  },
  drift: {
    examples: ['wsc drift --env prod', 'wsc drift --env prod --output markdown --detailed-exitcode'],
    exitCodes: [
      [0, 'compared (with --detailed-exitcode: nothing differs)'],
      [1, 'the API, the network or a list bound failed'],
      [2, 'with --detailed-exitcode only: something differs'],
      [3, 'invalid input (usage, wsc.yaml, bundle); nothing was read'],
    ],
  },
  export: {
    examples: [
      'wsc export --out dashboards',
      'wsc export --into dashboards --env prod',
      'wsc export --only report/revMrrTrnd01 --into dashboards',
    ],
    exitCodes: [
      [0, 'exported (with --into/--only: lines marked ! name what was left for a hand merge)'],
      [1, 'the API, the network or a write failed (files written are whole)'],
      [3, 'invalid input (usage, wsc.yaml, an unsafe output directory, a bundle that --into cannot read)'],
    ],
  },
  doctor: {
    examples: ['wsc doctor', 'wsc doctor --env prod --output json', 'wsc doctor --env prod --deep'],
    exitCodes: [
      [0, 'every check passed'],
      [1, 'a check failed (each failed one has a hint; the checks that need it are not run)'],
      [3, 'invalid configuration (wsc.yaml, environment, token)'],
    ],
  },
  emulator: {
    examples: [
      'wsc emulator',
      'wsc emulator --port 0 --state emulator.json',
      'wsc emulator --ui-made --latency 10-40 --faults "429=0.05"',
      'wsc emulator --core-data-api-url http://127.0.0.1:4000/cubejs-api/v1 --cube-api-secret local-secret',
    ],
    exitCodes: [
      [0, 'stopped by SIGINT or SIGTERM'],
      [1, 'stopped, but the --state file could not be written: the changes since its last write are lost'],
      [3, 'invalid flags, the port is in use, or the --state file cannot be loaded or written'],
    ],
  },
  preview: {
    examples: [
      'wsc preview',
      'wsc preview --dir dashboards --port 0',
      'wsc preview --out previews',
      'wsc preview --out pictures --against git:main',
      'wsc preview --out pictures --against git:main --with-data',
      'wsc preview --against env:production',
    ],
    exitCodes: [
      [0, 'served until stopped, or the pictures written'],
      [1, 'with --against env:, the deployment could not be read'],
      [3, 'invalid flags or --against, an unknown git ref, or (with --out) the bundle has errors'],
    ],
  },
  schema: {
    examples: ['wsc schema', 'wsc schema --out dashboards/schemas', 'wsc schema --check'],
    exitCodes: [
      [0, 'written, or (with --check) up to date'],
      [1, 'with --check: the files are stale'],
      [3, 'the directory cannot be read (with --check) or written'],
    ],
  },
};

/** The text shown after a command's flags. */
export function helpAfter(name: CommandName): string {
  const h = HELP[name];
  const width = Math.max(...h.exitCodes.map(([c]) => String(c).length));
  const codes = h.exitCodes.map(([c, what]) => `  ${String(c).padEnd(width)}  ${what}`);
  return `\nExamples:\n${h.examples.map((e) => `  $ ${e}`).join('\n')}\n\nExit codes:\n${codes.join('\n')}\n`;
}

export function withHelp(cmd: Command, name: CommandName): Command {
  return cmd.addHelpText('after', helpAfter(name));
}
