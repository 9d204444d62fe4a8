// Commander wiring: every command and only the flags it reads (its help lists
// no flag that does nothing for it), each command loaded lazily so `wsc
// validate` never pays for the HTTP client or the emulator.
import { Command, InvalidArgumentError, Option } from 'commander';
import type {
  ApplyOptions,
  DoctorOptions,
  DriftOptions,
  EmulatorOptions,
  ExportOptions,
  PlanOptions,
  PreviewOptions,
  SchemaOptions,
  ValidateOptions,
} from './command-options.js';
import {
  CONCURRENCY,
  EMULATOR_PORT,
  MAX_DELETES_FLOOR,
  MAX_LIST_BYTES,
  MAX_LIST_ITEMS,
  MAX_RETRIES,
  PAGE_SIZE,
  PAGE_SIZE_MAX,
  PREVIEW_PORT,
  sizeText,
} from './defaults.js';
import { parseBytes } from './env.js';
import { processContext, type CommandContext, type ContextFactory } from './commands/context.js';
import { withHelp } from './help.js';
import { VERSION } from './version.js';

function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected a whole number, got "${value}".`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got ${n}.`);
    return n;
  };
}

/** `--max-list-bytes`: a size as parseBytes reads it. */
function bytesFlag(value: string): number {
  const n = parseBytes(value);
  if (n === undefined) throw new InvalidArgumentError(`expected a size such as 536870912, 512M or 2G, got "${value}".`);
  return n;
}

const MAX_DELETES_HELP =
  `refuse a plan deleting more (default: the larger of ${MAX_DELETES_FLOOR} ` +
  'and a fifth of what the bundle recorded)';

/** `--ui-edits`: plan and apply. */
function uiEditsOption(): Option {
  return new Option(
    '--ui-edits <policy>',
    'for this run, what apply does with fields edited outside wsc: keep them, revert them to the bundle, ' +
      "or block the resource (default: the environment's uiEdits, else keep)",
  ).choices(['keep', 'revert', 'block']);
}

const SKIP_SEMANTIC_HELP = "do not check the members reports and dashboards name against the deployment's data model";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

type Format = 'human' | 'json' | 'markdown';

/** Where the bundle is and which environment of its wsc.yaml: every command that reads a bundle. */
function bundleFlags(cmd: Command): Command {
  return cmd
    .option('--dir <dir>', 'bundle root directory', '.')
    .option('--env <name>', 'environment from wsc.yaml (env: WSC_ENV)');
}

/** The host and deployment an environment is overridden with. */
function targetFlags(cmd: Command): Command {
  return cmd
    .option('--base-url <url>', 'API host, e.g. https://acme.cubecloud.dev (env: WSC_BASE_URL)')
    .option('--deployment <id>', 'deployment id (env: WSC_DEPLOYMENT_ID)', intArg(1));
}

/** How requests are made: only commands that connect (commands/connection.ts reads these). */
function connectionFlags(cmd: Command): Command {
  return cmd
    .option('--verbose', 'trace HTTP requests on stderr (token redacted)', false)
    .option('--concurrency <n>', 'parallel requests', intArg(1, 64), CONCURRENCY)
    .option('--max-retries <n>', 'retries of a retryable request', intArg(0, 20), MAX_RETRIES)
    .option(
      '--page-size <n>',
      `items per list page asked for (env: WSC_PAGE_SIZE; default ${PAGE_SIZE}, less if the server refuses)`,
      intArg(1, PAGE_SIZE_MAX),
    )
    .option(
      '--max-list-items <n>',
      `items one list may have before wsc stops reading it (env: WSC_MAX_LIST_ITEMS; default ${MAX_LIST_ITEMS})`,
      intArg(1),
    )
    .option(
      '--max-list-bytes <size>',
      'bytes of list answers the command reads in all, e.g. 2G ' +
        `(env: WSC_MAX_LIST_BYTES; default ${sizeText(MAX_LIST_BYTES)})`,
      bytesFlag,
    );
}

function outputFlag(cmd: Command, formats: readonly Format[]): Command {
  return cmd.addOption(new Option('--output <format>', 'output format').choices(formats).default('human'));
}

/** The flags of a command that reads the bundle, resolves an environment and connects to it. */
function common(cmd: Command, opts: { output: readonly Format[] }): Command {
  const withOutput = outputFlag(targetFlags(bundleFlags(cmd)), opts.output);
  return connectionFlags(withOutput.option('--no-color', 'disable colour (env: NO_COLOR)'));
}

type Runner<O> = (opts: O, ctx: CommandContext) => Promise<number>;
type Program = Command & { exitCode?: number; context: ContextFactory };

function action<O extends { color: boolean }>(program: Program, load: () => Promise<{ run: Runner<O> }>) {
  return async function (this: Command) {
    const opts = this.opts<O>();
    const args = this.args;
    const { run } = await load();
    const ctx = program.context({ noColor: !opts.color });
    const dirGiven = this.getOptionValueSource('dir') === 'cli';
    program.exitCode = await run({ ...opts, args, dirGiven }, ctx);
  };
}

/** The program; its commands run with the contexts `context` makes (the process's by default). */
export function buildCli(context: ContextFactory = processContext): Command & { exitCode?: number } {
  const program = new Command() as Program;
  program.context = context;
  program
    .name('wsc')
    .description('Dashboards as code for the Workspace Content API: validate, plan, apply and export.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run `wsc --help` for usage)')
    .showSuggestionAfterError(true)
    .exitOverride();

  // Offline: no connection flags. --base-url and --deployment still choose (and check) the environment.
  outputFlag(targetFlags(bundleFlags(withHelp(program.command('validate'), 'validate'))), ['human', 'json'])
    .option('--no-color', 'disable colour (env: NO_COLOR)')
    .option('--strict', 'a reference the bundle cannot resolve offline is an error, not a warning (for CI)')
    .option('--semantic-check', "also check the members reports and dashboards name against --env's data model")
    .description('check the bundle offline and print every problem found')
    .action(action<ValidateOptions>(program, () => import('./commands/validate.js')));

  common(withHelp(program.command('plan'), 'plan'), { output: ['human', 'json', 'markdown'] })
    .description('show what apply would change in the target deployment (never writes)')
    .option('--out <file>', 'save the plan to FILE, for `wsc apply FILE`')
    .option(
      '--detailed-exitcode',
      'exit 0 when apply would send nothing, 2 when it would, 5 when a resource is blocked, 1 on error',
      false,
    )
    .option('--target <address>', 'limit to a resource, e.g. report/revqZ1x8Kp0a (repeatable)', collect, [])
    .option('--prune', 'plan deleting what this bundle recorded as its own and no longer holds')
    .option('--max-deletes <n>', MAX_DELETES_HELP, intArg(0))
    .addOption(uiEditsOption())
    .option('--compact', 'addresses and changed field names only (the default for large plans)')
    .option('--no-compact', 'show every value, however many resources change')
    .option('--show-unmanaged', 'list the live resources the bundle does not manage (kind, id, name)')
    .option(
      '--pictures <dir>',
      'draw the changed dashboards into DIR as SVG and PNG (as `wsc preview --out DIR --against env:ENV`) ' +
        'and name them in the markdown plan',
    )
    .option('--with-data', "--pictures: draw the charts with the environment's data (files leave the machine)")
    .option('--skip-semantic-check', SKIP_SEMANTIC_HELP)
    .action(action<PlanOptions>(program, () => import('./commands/plan.js')));

  common(withHelp(program.command('apply'), 'apply'), { output: ['human', 'json'] })
    .description('apply the bundle (or a saved plan) to the target deployment')
    .argument('[planfile]', 'a plan saved by `wsc plan --out`')
    .option('--auto-approve', 'do not ask for confirmation (required without a terminal)', false)
    .option('--target <address>', 'limit to a resource (repeatable)', collect, [])
    .option('--prune', 'delete what this bundle recorded as its own and no longer holds')
    .option('--max-deletes <n>', MAX_DELETES_HELP, intArg(0))
    .addOption(uiEditsOption())
    .option(
      '--overwrite-ui-edits [address...]',
      "--ui-edits revert for these addresses (none named: all): the bundle's values are written over edits made " +
        'outside wsc',
    )
    .option('--take-over <address...>', 'take these resources over from the bundle whose record they carry')
    .option('--compact', 'addresses and changed field names only (the default for large plans)')
    .option('--no-compact', 'show every value, however many resources change')
    .option('--show-unmanaged', 'list the live resources the bundle does not manage (kind, id, name)')
    .option('--skip-semantic-check', SKIP_SEMANTIC_HELP)
    .action(action<ApplyOptions>(program, () => import('./commands/apply.js')));

  common(withHelp(program.command('drift'), 'drift'), { output: ['human', 'json', 'markdown'] })
    .description(
      'show what differs between the live deployment and the bundle, whoever changed it (read and compare only)',
    )
    .option('--detailed-exitcode', 'exit 0 when nothing differs, 2 when something does, 1 on error', false)
    .action(action<DriftOptions>(program, () => import('./commands/drift.js')));

  common(withHelp(program.command('export'), 'export'), { output: ['human', 'json'] })
    .description('snapshot a deployment into bundle files')
    .option('--out <dir>', 'directory to write a new snapshot of the bundle into')
    .option(
      '--into <dir>',
      'merge the deployment into the bundle in DIR: take what changed outside wsc since the last apply, keep the rest',
    )
    .option('--workbook <slug>', 'export only this workbook and its reports (repeatable; with --out)', collect, [])
    .option('--only <address...>', 'only these (report/ID, workbook/SLUG), merged into their existing files')
    .action(action<ExportOptions>(program, () => import('./commands/export.js')));

  common(withHelp(program.command('doctor'), 'doctor'), { output: ['human', 'json'] })
    .description(
      'check an environment before the first plan: host, token, deployment, page size, access, ' +
        "the tenant's own API description (read-only)",
    )
    .option('--deep', 'also export the deployment in memory and plan that against it: what would not round-trip', false)
    .action(action<DoctorOptions>(program, () => import('./commands/doctor.js')));

  withHelp(program.command('emulator'), 'emulator')
    .description('run the local Workspace Content API server')
    .option('--port <port>', 'port to listen on (0 = any free port)', intArg(0, 65535), EMULATOR_PORT)
    .option('--host <host>', 'loopback address to bind', '127.0.0.1')
    .option('--state <file>', 'persist state to this JSON file')
    .option('--seed <file>', 'seed state from this JSON file')
    .option('--model <file>', 'serve this data model (a /v1/meta answer as JSON) from the Core Data API')
    .option('--dev-mode', "answer /v1/meta as Cube's dev mode: hidden members listed with isVisible: false", false)
    .option(
      '--core-data-api-url <url>',
      "the Core Data API the environments point at (their `rest` url), e.g. a local Cube's http://127.0.0.1:4000/cubejs-api/v1",
    )
    .option(
      '--cube-api-secret <secret>',
      "mint deployment tokens as HS256 JWTs signed with this secret (the Cube server's CUBEJS_API_SECRET)",
    )
    .option(
      '--ui-made',
      'seed deployment 1 with content made in the UI: slugless workbooks, legacy reports, every widget shape',
      false,
    )
    .option('--latency <ms>', 'added latency per request: N or MIN-MAX')
    .option('--faults <spec>', 'fault injection, e.g. "409=0.1,429=0.05,reset-after=0.02,garbled-after=0.01"')
    .addOption(
      new Option(
        '--workbook-listing <mode>',
        'what GET /workbooks without folderId lists: every workbook, or the root level only',
      )
        .choices(['all', 'root-only'])
        .default('all'),
    )
    .option('--no-color', 'disable colour')
    .action(action<EmulatorOptions>(program, () => import('./commands/emulator.js')));

  withHelp(program.command('preview'), 'preview')
    .description(
      "draw the bundle's dashboards: a live page on loopback, or SVG files with --out; " +
        '--against marks the change against a git ref or the live deployment (read only)',
    )
    .option('--dir <dir>', 'bundle root directory', '.')
    .option('--env <name>', 'environment whose variables and data (read only) the charts use (env: WSC_ENV)')
    .option('--port <port>', 'port of the page on 127.0.0.1 (0 = any free port)', intArg(0, 65535), PREVIEW_PORT)
    .option('--out <dir>', 'write one SVG per dashboard and breakpoint into DIR instead of serving the page')
    .option(
      '--against <ref>',
      'mark the change against git:<ref> (the bundle as committed there) or env:<name> (live, read only)',
    )
    .option('--model <file>', "the data model (GET /v1/meta's answer, JSON): report cards show member titles")
    .addOption(
      // `--no-data` sets `data`: the two ask for opposite things.
      new Option(
        '--with-data',
        "--out: draw the charts with the environment's data (files leave the machine)",
      ).conflicts('data'),
    )
    .option('--no-data', 'the page draws the charts as boxes, without reading data')
    .option('--no-color', 'disable colour')
    .action(action<PreviewOptions>(program, () => import('./commands/preview.js')));

  withHelp(program.command('schema'), 'schema')
    .description('write the JSON Schemas of the bundle files (for editors)')
    .option('--out <dir>', 'directory to write into', 'schemas')
    .option('--check', 'fail (exit 1) when the files there are not up to date; write nothing', false)
    .option('--no-color', 'disable colour')
    .action(action<SchemaOptions>(program, () => import('./commands/schema.js')));

  // A usage error names the help that shows the command's flags (`wsc --help` lists only the commands).
  for (const sub of program.commands) sub.showHelpAfterError(`(run \`wsc ${sub.name()} --help\` for usage)`);
  return program;
}
