// The options each command receives from commander (src/cli.ts parses them; the
// commands read them): here, so that the commands never import the wiring, and
// outside commands/, which holds the adapters alone.

export interface CommonOptions {
  dir: string;
  env?: string;
  baseUrl?: string;
  deployment?: number;
  output: 'human' | 'json' | 'markdown';
  color: boolean;
  verbose: boolean;
  concurrency: number;
  maxRetries: number;
  /** `--page-size`: `first` of list requests (else WSC_PAGE_SIZE, else 500; smaller when the server refuses it). */
  pageSize?: number;
  /** `--max-list-items`: items one list may have at most (else WSC_MAX_LIST_ITEMS, else 200,000). */
  maxListItems?: number;
  /** `--max-list-bytes`: bytes of list answers the command reads in all (else WSC_MAX_LIST_BYTES, else 512 MiB). */
  maxListBytes?: number;
}
/** validate connects to nothing: no connection flags. */
export interface ValidateOptions extends Pick<
  CommonOptions,
  'dir' | 'env' | 'baseUrl' | 'deployment' | 'output' | 'color'
> {
  /** References the bundle cannot resolve offline are errors (CI). */
  strict?: boolean;
  /** `--semantic-check`: also read the environment's data model and check the members the bundle names. */
  semanticCheck?: boolean;
}
export interface PlanOptions extends CommonOptions {
  out?: string;
  detailedExitcode: boolean;
  target: string[];
  prune?: boolean;
  maxDeletes?: number;
  compact?: boolean;
  showUnmanaged?: boolean;
  /** `--pictures DIR`: the changed dashboards drawn into DIR (as `preview --out DIR --against env:ENV`), named. */
  pictures?: string;
  /** `--with-data`: the pictures are drawn with the environment's data (as preview's). */
  withData?: boolean;
  /** `--skip-semantic-check` (commander's `--no-semantic-check` form would read as a negated default). */
  skipSemanticCheck?: boolean;
  /** `--ui-edits`: this run's policy for edits made outside wsc. */
  uiEdits?: 'keep' | 'revert' | 'block';
}
export interface ApplyOptions extends CommonOptions {
  skipSemanticCheck?: boolean;
  compact?: boolean;
  showUnmanaged?: boolean;
  autoApprove: boolean;
  target: string[];
  /** --dir was given (a saved plan otherwise names its bundle directory). */
  dirGiven?: boolean;
  prune?: boolean;
  maxDeletes?: number;
  /** true: every resource edited outside wsc; a list: those addresses. */
  overwriteUiEdits?: boolean | string[];
  /** `--take-over ADDR...`: resources recorded for another bundle that this one takes. */
  takeOver?: string[];
  /** `--ui-edits`: this run's policy for edits made outside wsc. */
  uiEdits?: 'keep' | 'revert' | 'block';
}
/** `wsc drift`: reads and compares only. */
export interface DriftOptions extends CommonOptions {
  /** Exit 2 when anything differs. */
  detailedExitcode: boolean;
}
export interface ExportOptions extends CommonOptions {
  /** A new snapshot (one of out and into is required). */
  out?: string;
  /** An existing bundle, updated in place. */
  into?: string;
  /** --dir was given (--into otherwise reads the environment from the bundle it updates). */
  dirGiven?: boolean;
  workbook: string[];
  /** `KIND/ID` addresses: only these, into their existing files under --out. */
  only?: string[];
}
export interface DoctorOptions extends Omit<CommonOptions, 'output'> {
  output: 'human' | 'json';
  /** Export in memory and plan that against the same deployment. */
  deep?: boolean;
}
export interface EmulatorOptions {
  port: number;
  host: string;
  state?: string;
  seed?: string;
  /** Seed deployment 1 with content made in the UI (emulator/seed-ui.ts). */
  uiMade: boolean;
  latency?: string;
  faults?: string;
  workbookListing: 'all' | 'root-only';
  /** The data model served (a `/v1/meta` answer in a JSON file). */
  model?: string;
  /** `/v1/meta` as Cube's dev mode answers it: hidden members listed. */
  devMode: boolean;
  /** The `rest` url the environments answer with: another Core Data API (a local Cube). */
  coreDataApiUrl?: string;
  /** Deployment tokens are HS256 JWTs signed with this (Cube's CUBEJS_API_SECRET). */
  cubeApiSecret?: string;
  color: boolean;
}
export interface PreviewOptions {
  dir: string;
  env?: string;
  /** A `/v1/meta` answer (JSON file): the report cards show their members' titles. */
  model?: string;
  port: number;
  out?: string;
  /** `git:<ref>` or `env:<name>`: the baseline whose change is marked. */
  against?: string;
  /** `--with-data`: the files of --out carry the charts' data. */
  withData?: boolean;
  /** `--no-data`: the page draws the charts as boxes. */
  data?: boolean;
  color: boolean;
}
export interface SchemaOptions {
  out: string;
  check: boolean;
  color: boolean;
}
