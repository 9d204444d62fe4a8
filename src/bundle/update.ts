// The bundle updated in place by `export --into` and `--only`: the decisions
// are core/export's (into.ts, only.ts), made from the files' documents as
// written (documents.ts, the one interface to them); here they are carried
// out: each merge's edits made in its file's text, every other line left as
// it is, and `--into`'s new resources written as new files beside the
// bundle's, never over one of them.
import type { MemorySink } from '../core/export/into.js';
import { fitInto, type IntoOutcome } from '../core/export/into.js';
import { liveSides, onlyMerges, type OnlyOutcome } from '../core/export/only.js';
import type { DesiredState, LiveState, PublicIdMode } from '../core/model.js';
import type { ResourceChange } from '../core/plan-model.js';
import { bundleDocuments } from './documents.js';
import { discoverFiles } from './files.js';
import { DirSink } from './write-files.js';

/** The bundle, the deployment read once and the plan of one against the other: what an update decides from. */
export interface UpdateInput {
  desired: DesiredState;
  live: LiveState;
  changes: readonly ResourceChange[];
  /** wsc.yaml's `bundle:` name, whose ownership records the merge reads. */
  bundle: string | undefined;
}

/** `export --into`: the export (held in memory) fitted into the bundle at `root`, edits made and new files written. */
export async function updateInto(
  root: string,
  exported: MemorySink['docs'],
  input: UpdateInput,
  perDeployment: number | undefined,
): Promise<IntoOutcome> {
  const taken = new Set((await discoverFiles(root)).files.map((f) => f.rel.toLowerCase()));
  const docs = bundleDocuments(root, input.desired);
  const sides = { ...liveSides(input.live, input.changes, input.bundle), raw: docs.raw };
  const outcome = fitInto(exported, input, { perDeployment, taken, sides });
  for (const e of outcome.edits) docs.edit(e);
  if (outcome.created.length > 0) {
    const files = await DirSink.open(root, { createDirs: false });
    for (const c of outcome.created) await files.writeDoc(c.kind, c.rel, c.doc);
  }
  return outcome;
}

/** `export --only`: the deployment's values of the named resources taken into their files of the bundle at `root`. */
export function updateOnly(
  root: string,
  only: readonly string[],
  input: UpdateInput,
  env: { deploymentId: number; publicIds: PublicIdMode },
): OnlyOutcome[] {
  const docs = bundleDocuments(root, input.desired);
  const sides = { ...liveSides(input.live, input.changes, input.bundle), raw: docs.raw };
  const outcomes = onlyMerges(only, input.desired, input.live, input.changes, sides, env);
  for (const o of outcomes) if (o.edit !== undefined) docs.edit(o.edit);
  return outcomes;
}
