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

/** A piece a suite needs: where it is, and what the gate says when it is not there. */
type Need = [path: string, missing: string];

/** The gate over what a suite needs, in order: the first piece missing is what it says. */
export function contractGate(
  env: Record<string, string | undefined>,
  needs: Need[],
  exists: (path: string) => boolean = existsSync,
): ContractGate {
  return { required: contractRequired(env), missing: needs.find(([path]) => !exists(path))?.[1] };
}

/** What the Prism suite needs: Prism at `paths.prism`, the API description at `paths.description`. */
export const prismNeeds = (paths: { prism: string; description: string }): Need[] => [
  [paths.prism, 'contract/node_modules is missing: run `npm ci --prefix contract` to install Prism'],
  [paths.description, `the API description is missing: ${paths.description}`],
];

/** What the Cube suite needs: the open-source Cube server of contract-cube/ installed, and its server script. */
export const cubeNeeds = (paths: { server: string; installed: string }): Need[] => [
  [
    paths.installed,
    'contract-cube/node_modules is missing: run `npm ci --prefix contract-cube` to install the open-source Cube server',
  ],
  [paths.server, `the Cube server script is missing: ${paths.server}`],
];
