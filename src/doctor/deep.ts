// `wsc doctor --deep`: the deployment exported in memory, the export loaded
// back as a bundle, and planned against the same deployment. What a team
// adopting wsc would meet on its first export → apply, found before anyone
// applies anything: items wsc could not read, content it could not carry into
// a file or back, and anything the plan would change.
import type { ApiClient } from '../api/client.js';
import { hintsFor, readLiveState } from '../api/live.js';
import { MemorySink } from '../bundle/memory-sink.js';
import { loadBundleTexts } from '../bundle/load.js';
import type { ResolvedEnvironment } from '../config/types.js';
import { exportDeployment, type ExportSource } from '../core/export/index.js';
import type { UnreadableItem } from '../core/model.js';
import type { ResourceChange } from '../core/plan-model.js';
import { plan } from '../core/plan/index.js';
import { ApiError, isWscError, NetworkError } from '../errors.js';
import { pass, type DeepFindings, type DoctorCheck } from './types.js';

export interface DeepInput {
  client: ApiClient;
  deploymentId: number;
  env: ResolvedEnvironment;
  /** The export's reads (api/export-source.ts), collecting what it cannot read into `unreadable`. */
  source: ExportSource;
  unreadable: UnreadableItem[];
}

const unreadableLine = (o: UnreadableItem) =>
  `${o.kind}${o.id !== undefined ? ` ${o.id}` : ''}${o.identity !== undefined ? ` (${o.identity})` : ''}: ${o.why}`;

function changeLine(c: ResourceChange): string {
  const fields = c.changes.map((f) => f.path);
  const shown = fields.length > 5 ? [...fields.slice(0, 5), `${fields.length - 5} more`] : fields;
  return `${c.address}: ${c.actions.join(', ')}${shown.length > 0 ? ` (${shown.join(', ')})` : ''}`;
}

export async function deepRoundTrip(a: DeepInput): Promise<DeepFindings> {
  const sink = new MemorySink();
  const { env } = a;
  const summary = await exportDeployment(a.source, sink, {
    deploymentId: a.deploymentId,
    workbooks: [],
    publicIds: env.publicIds,
  });
  const notRoundTripped = summary.warnings.map((w) => `${w.file !== undefined ? `${w.file}: ` : ''}${w.message}`);
  // Folders alike in the deployment are exported as they are: both are wanted there.
  const loaded = loadBundleTexts(sink.files, {
    vars: {},
    env: {},
    mayHoldUnknownRefs: false,
    folderLookAlikes: 'allow',
  });
  for (const d of loaded.diagnostics) {
    if (d.severity !== 'error') continue;
    notRoundTripped.push(
      `${d.pos.file}:${d.pos.line}:${d.pos.col}: the exported file does not load back: ${d.message}`,
    );
  }
  const wouldChange: string[] = [];
  try {
    const live = await readLiveState(a.client, a.deploymentId, hintsFor(loaded.desired));
    const ctx = { environment: env.name, deploymentId: a.deploymentId, publicIds: env.publicIds, targets: [] };
    const planned = plan(loaded.desired, live, { ...ctx, fingerprints: false });
    for (const c of planned.changes) if (c.requests.length > 0) wouldChange.push(changeLine(c));
  } catch (e) {
    // The API's own failures are the other checks' business; a plan that refuses the export is a finding.
    if (!isWscError(e) || e instanceof ApiError || e instanceof NetworkError) throw e;
    notRoundTripped.push(`the export cannot be planned: ${e.message} [${e.code}]`);
  }
  return {
    unreadable: a.unreadable.map(unreadableLine),
    notRoundTripped,
    wouldChange,
    exported: summary.files,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const deepCheck: DoctorCheck = {
  name: 'export round trip',
  needs: ['deployment'],
  // It reads the whole deployment twice: more time than one request's check.
  budgetMs: 40_000,
  async run(ctx) {
    if (ctx.deep === undefined) return pass('not asked for (--deep)');
    const f = await ctx.deep();
    const x = f.exported;
    const what =
      `${plural(x.workbooks, 'workbook')}, ${plural(x.reports, 'report')}, ` +
      plural(x.userAttributes, 'user attribute');
    const groups: [string, string[]][] = [
      ['could not read', f.unreadable],
      ['could not round-trip', f.notRoundTripped],
      ['would change', f.wouldChange],
    ];
    const found = groups.filter(([, list]) => list.length > 0);
    if (found.length === 0)
      return pass(`exported ${what} in memory; a plan of that export against this deployment is empty`);
    const items = found.flatMap(([label, list]) => list.map((l) => `${label}: ${l}`));
    const counts = found.map(([label, list]) => `${list.length} ${label}`).join(', ');
    return {
      ok: false,
      detail: `exported ${what} in memory and planned it against this deployment: ${counts}`,
      hint:
        'These would be lost or changed by `wsc export` then `wsc apply` as things stand; ' +
        `\`${ctx.commands.exportOut}\` then \`wsc plan --dir DIR\` shows the same in full.`,
      items,
    };
  },
};
