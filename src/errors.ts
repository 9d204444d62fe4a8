// One small error hierarchy for the whole CLI. Every error a user can meet is
// a WscError with a stable `code` (for scripts and tests), a message, an
// optional hint (what to do next) and its exit code (README, Exit codes). main.ts is
// the only place that turns them into output and an exit status; a known
// error prints no stack trace.

export const EXIT = {
  ok: 0,
  failure: 1,
  changes: 2,
  invalid: 3,
  partial: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface WscErrorOptions {
  hint?: string;
  cause?: unknown;
  /** Extra lines printed under the message (e.g. one per drifted resource). */
  details?: string[];
}

export class WscError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly hint?: string;
  readonly details: string[];

  constructor(code: string, message: string, exitCode: ExitCode, opts: WscErrorOptions = {}) {
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
  constructor(message: string, opts: WscErrorOptions & { code?: string } = {}) {
    super(opts.code ?? 'usage', message, EXIT.invalid, opts);
  }
}

/** wsc.yaml, environment selection, tokens, base URLs. Nothing was sent. */
export class ConfigError extends WscError {
  constructor(code: string, message: string, opts: WscErrorOptions = {}) {
    super(code, message, EXIT.invalid, opts);
  }
}

/** A source position, 1-based, as printed `file:line:col`. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

export type Severity = 'error' | 'warning';

/** One finding about the bundle, printed as `file:line:col severity message`. */
export interface Diagnostic {
  severity: Severity;
  /** Stable identifier of the rule, e.g. `unknown-key`, `duplicate-slug`. */
  rule: string;
  message: string;
  pos: SourcePos;
  hint?: string;
}

/** The bundle has errors. Carries every diagnostic found in one run. */
export class BundleError extends WscError {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super('bundle_invalid', `The bundle has ${errors} error${errors === 1 ? '' : 's'}.`, EXIT.invalid, {
      hint: 'Fix the errors above and run `wsc validate` again.',
    });
    this.diagnostics = diagnostics;
  }
}

/** The API answered with an error status, or with something that is not the API. */
export class ApiError extends WscError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The `code` member of the error body, e.g. `upsert_branch_changed`. */
  readonly apiCode?: string;
  readonly serverMessage?: string;

  constructor(
    init: { method: string; path: string; status: number; apiCode?: string; serverMessage?: string; code?: string },
    message: string,
    opts: WscErrorOptions = {},
  ) {
    super(init.code ?? `http_${init.status}`, message, EXIT.failure, opts);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.serverMessage = init.serverMessage;
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

/** Apply made some changes and failed others. Re-running converges. */
export class PartialApplyError extends WscError {
  constructor(message: string, details: string[], opts: WscErrorOptions = {}) {
    super('apply_partial', message, EXIT.partial, { ...opts, details });
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
