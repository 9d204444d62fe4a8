// What every check of `wsc doctor` gets and gives: the context (the
// connection, the bundle, the reads shared between checks) and one line.
import type { ApiClient } from '../api/client.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { ApiError, NetworkError, type WscError } from '../errors.js';
import type { TenantSpec } from './tenant-spec.js';

export interface CheckResult {
  ok: boolean;
  /** What was found, in a few words. */
  detail: string;
  /** What to do about it, when it did not pass. */
  hint?: string;
  /** Lines under the check: each thing it found (the deep check's findings). */
  items?: string[];
}

export interface CheckLine extends CheckResult {
  name: string;
  /** False when the check did not run: a check it needs failed, or doctor's time ran out. */
  checked: boolean;
}

/** `wsc plan` of this run's bundle and deployment; `wsc export --out DIR` of its deployment. */
export interface DoctorCommands {
  plan: string;
  exportOut: string;
}

export interface DoctorContext {
  env: ResolvedEnvironment;
  client: ApiClient;
  deploymentId: number;
  /** The bundle, or why it could not be loaded. */
  bundle: { desired: DesiredState } | { error: WscError };
  /** The commands the hints name, with this run's --dir and deployment flags. */
  commands: DoctorCommands;
  /** The first list request, made once and shared by the checks that read its outcome. */
  probe(): Promise<unknown>;
  /** The tenant's API description (read once). */
  spec(): Promise<TenantSpec>;
  /** A plan of the bundle against the deployment (read once). */
  plan(): Promise<Plan>;
  /** `--deep`: the deployment exported in memory and planned against itself; absent without the flag. */
  deep?: () => Promise<DeepFindings>;
}

/** What `--deep` found: each a line naming the resource and what is wrong. */
export interface DeepFindings {
  /** Items the server sent that this wsc cannot read (left out of plan and export). */
  unreadable: string[];
  /** What export could not carry into a file, or wrote so that the file does not load back. */
  notRoundTripped: string[];
  /** What a plan of the export against the same deployment would change. */
  wouldChange: string[];
  /** What the export holds. */
  exported: { workbooks: number; reports: number; userAttributes: number };
}

export interface DoctorCheck {
  name: string;
  /** Checks that must have passed for this one to mean anything; else it is shown as not checked. */
  needs?: readonly string[];
  /** Its own time, when it needs more than the others (it reads a whole deployment). */
  budgetMs?: number;
  run(ctx: DoctorContext): Promise<CheckResult>;
}

export const fail = (detail: string, hint?: string): CheckResult => ({
  ok: false,
  detail,
  ...(hint !== undefined ? { hint } : {}),
});
export const pass = (detail: string): CheckResult => ({ ok: true, detail });

/** The outcome of a request: the error it failed with, or undefined. */
export async function failure(p: Promise<unknown>): Promise<WscError | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    if (e instanceof ApiError || e instanceof NetworkError) return e;
    throw e;
  }
}
