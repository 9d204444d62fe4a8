// The environment a command runs against, after wsc.yaml, environment
// variables and flags have been merged (flags > env vars > wsc.yaml > defaults).
import type { PublicIdMode } from '../core/model.js';
import type { AuthScheme } from '../env.js';

export type { AuthScheme };

export interface ResolvedEnvironment {
  /** Environment name (`local` for the implicit embedded one). */
  name: string;
  /** true: an in-process emulator, state in `stateFile`; no baseUrl, token `dev-token`. */
  embedded: boolean;
  /** Absolute path of the embedded emulator's state file (embedded only). */
  stateFile?: string;
  /** Host URL without `/api/v1` and without a trailing slash (remote only). */
  baseUrl?: string;
  deploymentId: number;
  /** Never printed, never written to a file. */
  token?: string;
  /** Where the token came from (`WSC_TOKEN`, or the variable wsc.yaml's `token:` names, at its place), for messages. */
  tokenSource?: string;
  authScheme: AuthScheme;
  publicIds: PublicIdMode;
  /** `vars` of the environment, for `${vars.NAME}`. */
  vars: Record<string, unknown>;
  /** Whether the target may hold resources the bundle references but does not define (not embedded, or has state). */
  mayHoldUnknownRefs: boolean;
  /** The environment variables any environment's `token:` reads: never readable by the bundle. */
  tokenVariables?: readonly string[];
  /** wsc.yaml `bundle:`: the name ownership records carry. */
  bundle?: string;
  /** The environment's `prune: true`. */
  prune?: boolean;
  /** wsc.yaml `folderLookAlikes: allow`: folder paths alike but for case, white space or letters are wanted. */
  folderLookAlikes?: 'allow';
  /** The environment's `uiEdits:` (what apply does with edits made outside wsc; default keep). */
  uiEdits?: 'keep' | 'revert' | 'block';
  /** The environment's `semanticCheck: false`: plan and apply do not read the data model. */
  semanticCheck?: false;
}
