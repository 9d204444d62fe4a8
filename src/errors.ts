// One small error hierarchy for the whole CLI. Every error a user can meet is
// a WscError with a stable `code` (for scripts and tests), a message, an
// optional hint (what to do next) and its exit code (docs/errors.md). main.ts is
// the only place that turns them into output and an exit status; a known
// error prints no stack trace.

export const EXIT = {
  ok: 0,
  failure: 1,
  changes: 2,
  invalid: 3,
  partial: 4,
  /** apply: nothing failed, but a resource was left alone (blocked by a UI edit, a missing record, another bundle). */
  blocked: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * Every stable error code, in groups by the class that carries it and the
 * exit code it ends with. Scripts and tests match on these; docs/errors.md
 * lists them, and test/errors.test.ts holds this list, the codes thrown in
 * src/ and that page's table equal.
 */
export const ERROR_CODES = {
  /** UsageError: flags, arguments or command usage; nothing was sent. */
  usage: {
    exit: EXIT.invalid,
    codes: [
      'usage',
      'bad_only_address',
      'bundle_name_required',
      'confirmation_required',
      'export_out_dir',
      'export_unsafe_path',
      'output_link',
      'plan_dir_outside',
      'plan_file_unreadable',
      'plan_out_unwritable',
      'plan_target_mismatch',
      'preview_against',
      'preview_git',
      'preview_model',
      'preview_out_dir',
      'preview_port',
      'saved_plan_differs',
      'saved_plan_invalid',
      'schema_out_dir',
      'target_with_plan',
      'ui_edits_with_plan',
      'unknown_target',
      'with_data_without_pictures',
    ],
  },
  /** ConfigError: wsc.yaml, environment, token, base URL, connection settings; nothing was sent. */
  config: {
    exit: EXIT.invalid,
    codes: [
      'auth_scheme_invalid',
      'base_url_credentials',
      'base_url_insecure',
      'base_url_invalid',
      'base_url_missing',
      'bundle_dir_missing',
      'config_secret',
      'config_variable',
      'deployment_invalid',
      'deployment_missing',
      'doctor_timeout_invalid',
      'env_no_target',
      'env_required',
      'env_unknown',
      'env_var_unset',
      'max_list_bytes_invalid',
      'max_list_items_invalid',
      'page_size_invalid',
      'request_timeout_invalid',
      'semantic_timeout_invalid',
      'state_file_unusable',
      'token_invalid',
      'token_missing',
    ],
  },
  /** BundleError: the bundle has errors (each diagnostic names its own rule). */
  bundle: { exit: EXIT.invalid, codes: ['bundle_invalid'] },
  /** WscError: the bundle asks for what the deployment does not allow, known once it is read; nothing was written. */
  refused: {
    exit: EXIT.invalid,
    codes: [
      'adopt_public_id_elsewhere',
      'adopt_public_id_set',
      'create_only_change',
      'folder_look_alike',
      'semantic_check_failed',
      'unknown_reference',
    ],
  },
  /** ApiError: an answer wsc refuses, besides `http_<status>` (an error status as it came). */
  api: {
    exit: EXIT.failure,
    codes: [
      'bad_pagination',
      'bad_response',
      'list_too_long',
      'lists_too_large',
      'not_api',
      'public_id_placeholder',
      'public_id_taken',
      'public_id_write_once',
      'response_too_large',
      'user_attribute_type_differs',
    ],
  },
  /** NetworkError: no HTTP answer. */
  network: { exit: EXIT.failure, codes: ['network'] },
  /** WscError: the deployment is not as the bundle needs. */
  target: {
    exit: EXIT.failure,
    codes: [
      'adopt_target_has_slug',
      'adopt_target_missing',
      'ambiguous_public_id',
      'ambiguous_slug',
      'draft_changed',
      'live_value_unknown',
      'prune_still_charted',
      'too_many_deletes',
      'user_attribute_missing',
    ],
  },
  /** WscError: export cannot write what it read. */
  export: {
    exit: EXIT.failure,
    codes: [
      'export_changed',
      'export_file_too_large',
      'export_id_clash',
      'export_unknown_workbook',
      'export_unwritable',
      'export_write_failed',
      'only_doc_missing',
      'only_not_live',
    ],
  },
  /** StalePlanError: a saved plan no longer matches the deployment. */
  stale: { exit: EXIT.failure, codes: ['plan_stale'] },
  /** WscError: an emulator's state file could not be written after changes (they end with the process). */
  state: { exit: EXIT.failure, codes: ['state_not_saved'] },
  /** InternalError: a bug in wsc, printed with its stack. */
  internal: { exit: EXIT.failure, codes: ['internal'] },
} as const;

type CodesOf<K extends keyof typeof ERROR_CODES> = (typeof ERROR_CODES)[K]['codes'][number];
export type UsageCode = CodesOf<'usage'>;
export type ConfigCode = CodesOf<'config'>;
/** An error status as the server sent it: `http_404`. */
type HttpCode = `http_${number}`;
export type ApiCode = CodesOf<'api'> | HttpCode;
/** Codes of the plan's own checks against the deployment (exit 1). */
export type TargetCode = CodesOf<'target'>;
/** Every code a WscError can carry. */
export type ErrorCode = CodesOf<keyof typeof ERROR_CODES> | HttpCode;

export interface WscErrorOptions {
  hint?: string;
  cause?: unknown;
  /** Extra lines printed under the message (e.g. one per drifted resource). */
  details?: string[];
}

export class WscError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly hint?: string;
  readonly details: string[];

  constructor(code: ErrorCode, message: string, exitCode: ExitCode, opts: WscErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.hint = opts.hint;
    this.details = opts.details ?? [];
  }
}

/** Bad flags, arguments or command usage. Nothing was sent to the API. */
export class UsageError extends WscError {
  declare readonly code: UsageCode;
  constructor(message: string, opts: WscErrorOptions & { code?: UsageCode } = {}) {
    super(opts.code ?? 'usage', message, EXIT.invalid, opts);
  }
}

/** wsc.yaml, environment selection, tokens, base URLs. Nothing was sent. */
export class ConfigError extends WscError {
  declare readonly code: ConfigCode;
  constructor(code: ConfigCode, message: string, opts: WscErrorOptions = {}) {
    super(code, message, EXIT.invalid, opts);
  }
}

/** A source position, 1-based, as printed `file:line:col`. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

type Severity = 'error' | 'warning';

/** One finding about the bundle, printed as `file:line:col severity message`. */
export interface Diagnostic {
  severity: Severity;
  /** Stable identifier of the rule, e.g. `unknown-key`, `duplicate-slug`. */
  rule: string;
  message: string;
  pos: SourcePos;
  hint?: string;
}

/**
 * The bundle has errors. Carries every diagnostic found in one run. `validate`: the command that shows them again
 * (the run's own --dir and --env: commands/steps.ts validateAgain).
 */
export class BundleError extends WscError {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[], validate = 'wsc validate') {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super('bundle_invalid', `The bundle has ${errors} error${errors === 1 ? '' : 's'}.`, EXIT.invalid, {
      hint: `Fix the errors above and run \`${validate}\` again.`,
    });
    this.diagnostics = diagnostics;
  }
}

/** The API answered with an error status, or with something that is not the API. */
export class ApiError extends WscError {
  declare readonly code: ApiCode;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The `code` member of the error body, e.g. `upsert_branch_changed`. */
  readonly apiCode?: string;
  readonly serverMessage?: string;
  /** The error answer's body was JSON (the API's errors are; a web server's or a gateway's page is not). */
  readonly jsonBody?: boolean;

  constructor(
    init: {
      method: string;
      path: string;
      status: number;
      apiCode?: string;
      serverMessage?: string;
      code?: ApiCode;
      jsonBody?: boolean;
    },
    message: string,
    opts: WscErrorOptions = {},
  ) {
    super(init.code ?? `http_${init.status}`, message, EXIT.failure, opts);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.serverMessage = init.serverMessage;
    if (init.jsonBody !== undefined) this.jsonBody = init.jsonBody;
  }
}

/** The request never got an HTTP answer: refused, reset, timed out, DNS. */
export class NetworkError extends WscError {
  readonly method: string;
  readonly path: string;
  constructor(method: string, path: string, message: string, opts: WscErrorOptions = {}) {
    super('network', message, EXIT.failure, opts);
    this.method = method;
    this.path = path;
  }
}

/** A saved plan no longer matches the live deployment. */
export class StalePlanError extends WscError {
  constructor(message: string, details: string[], opts: WscErrorOptions = {}) {
    super('plan_stale', message, EXIT.failure, { ...opts, details });
  }
}

/** A bug in wsc. Printed with its stack so it can be reported. */
export class InternalError extends WscError {
  constructor(message: string, opts: WscErrorOptions = {}) {
    super('internal', message, EXIT.failure, opts);
  }
}

export function isWscError(e: unknown): e is WscError {
  return e instanceof WscError;
}
