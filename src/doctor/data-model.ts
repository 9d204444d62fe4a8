// `wsc doctor`'s data-model check: whether the deployment's model compiles
// (`data-model/validate`), whether plan's semantic check can read it (the
// environments' `rest` url, a deployment token, `/v1/meta`), and how many of
// the bundle's member uses it checked. Minting the token is the one request
// doctor makes that is not a GET: the check needs it, and it changes no content.
import { readDataModel, validateDataModel } from '../api/data-model.js';
import { bundleMembers, checkMembers } from '../core/semantic/check.js';
import { indexModel } from '../core/semantic/model-index.js';
import type { DataModelValidation } from '../domain/data-model.js';
import type { CheckResult, DoctorCheck } from './types.js';

/** The first errors of a model that does not compile, shown in the line. */
const ERRORS_SHOWN = 3;

function compiled(v: DataModelValidation | Error): { ok: boolean; text: string } {
  if (v instanceof Error) return { ok: true, text: `its compile check could not be asked (${v.message})` };
  if (v.valid) return { ok: true, text: `the model is valid with ${v.cubesCount ?? '?'} cubes` };
  const first = v.errors.slice(0, ERRORS_SHOWN).map((e) => (e.fileName ? `${e.fileName}: ${e.message}` : e.message));
  const more = v.errors.length > ERRORS_SHOWN ? ` (and ${v.errors.length - ERRORS_SHOWN} more)` : '';
  return { ok: false, text: `the model does not compile: ${first.join('; ') || 'no error given'}${more}` };
}

export const dataModel: DoctorCheck = {
  name: 'data model',
  needs: ['deployment'],
  async run(ctx): Promise<CheckResult> {
    const [validation, read] = await Promise.all([
      validateDataModel(ctx.client, ctx.deploymentId).catch((e: unknown) =>
        e instanceof Error ? e : new Error(String(e)),
      ),
      readDataModel(ctx.client, ctx.deploymentId),
    ]);
    const model = compiled(validation);
    const off = ctx.env.semanticCheck === false ? ' (plan does not check it: semanticCheck: false in wsc.yaml)' : '';
    if (!read.ok) {
      const hint =
        'Plan and apply warn and skip the semantic check while the model cannot be read. ' +
        'Check that the deployment has a production environment with REST API credentials.';
      return { ok: false, detail: `${model.text}; not readable: ${read.why} (tried ${read.tried})`, hint };
    }
    // Doctor reads `/v1/meta` alone: what only Cube's planner can decide is counted, not asked.
    await read.core.close();
    const index = indexModel(read.meta);
    const readable = `readable (${index.cubes.size} cubes and views at ${read.restUrl})${off}`;
    if (!('desired' in ctx.bundle))
      return { ok: model.ok, detail: `${model.text}; ${readable}; the bundle was not loaded` };
    const { result, pending } = checkMembers(bundleMembers(ctx.bundle.desired), index);
    const unknown = result.issues.length;
    const unlisted = pending.reduce((n, p) => n + p.uses.length, 0);
    const members =
      `${result.checked} member use(s) of the bundle checked: ` +
      (unknown === 0
        ? 'no error'
        : `${unknown} refused, first ${result.issues[0]!.pos.file}:${result.issues[0]!.pos.line}:` +
          `${result.issues[0]!.pos.col} ${result.issues[0]!.message}`) +
      (unlisted > 0 ? `; ${unlisted} not public in /v1/meta (plan asks Cube's planner about them)` : '');
    const detail = `${model.text}; ${readable}; ${members}`;
    if (!model.ok)
      return { ok: false, detail, hint: 'Fix the data model: plan checks members against what it compiles to.' };
    if (unknown > 0)
      return {
        ok: false,
        detail,
        hint: `Run \`${ctx.commands.plan}\` to see every refused member with its suggestion.`,
      };
    return { ok: true, detail };
  },
};
