// Whether a contract suite runs, skips with a reason, or fails because what it
// needs is missing where it must be installed: Prism (test/e2e/contract.test.ts)
// or the open-source Cube server (test/e2e/cube-contract.test.ts).
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

/** The gate for the open-source Cube server of contract-cube/ (its server script and installed package). */
export function cubeContractGate(
  env: Record<string, string | undefined>,
  paths: { server: string; installed: string },
  exists: (path: string) => boolean = existsSync,
): ContractGate {
  const required = contractRequired(env);
  const missing = !exists(paths.installed)
    ? 'contract-cube/node_modules is missing: run `npm ci --prefix contract-cube` to install the open-source Cube server'
    : !exists(paths.server)
      ? `the Cube server script is missing: ${paths.server}`
      : undefined;
  return { required, missing };
}
