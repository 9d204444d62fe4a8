// Whether the contract suite (test/e2e/contract.test.ts) runs, skips with a
// reason, or fails because Prism is missing where it must be installed.
// `CI` alone does not decide: a CI that never ran `npm ci --prefix contract`
// skips like a laptop; WSC_REQUIRE_CONTRACT=1 (.ci/run sets it) turns the
// skip into a failure.
import { existsSync } from 'node:fs';

export interface ContractGate {
  /** What is missing, so the proxy suite cannot run; undefined when it runs. */
  missing: string | undefined;
  /** Whether WSC_REQUIRE_CONTRACT asks for the suite: a missing piece is then a failure, not a skip. */
  required: boolean;
}

/** Reads WSC_REQUIRE_CONTRACT: unset, empty, `0` or `false` is off; `1` or `true` is on; anything else is refused. */
export function contractRequired(env: Record<string, string | undefined>): boolean {
  const v = (env['WSC_REQUIRE_CONTRACT'] ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new Error(`WSC_REQUIRE_CONTRACT: expected 1 or 0, got ${JSON.stringify(env['WSC_REQUIRE_CONTRACT'])}`);
}

/** The gate for Prism at `paths.prism` and the API description at `paths.description`. */
export function contractGate(
  env: Record<string, string | undefined>,
  paths: { prism: string; description: string },
  exists: (path: string) => boolean = existsSync,
): ContractGate {
  const required = contractRequired(env);
  const missing = !exists(paths.prism)
    ? 'contract/node_modules is missing: run `npm ci --prefix contract` to install Prism'
    : !exists(paths.description)
      ? `the API description is missing: ${paths.description}`
      : undefined;
  return { required, missing };
}
