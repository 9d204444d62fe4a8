// What the semantic check of a plan or apply came to, for the renderers and
// the commands: off (and why), nothing to check, the model not readable (what
// was tried, why it failed), or checked (issues, what could not be checked).
import { EXIT, WscError, type Diagnostic } from '../../errors.js';
import type { SemanticResult } from './check.js';

export type SemanticOutcome =
  | { status: 'off'; reason: string }
  | { status: 'none' }
  | { status: 'unavailable'; members: number; tried: string; why: string }
  | { status: 'checked'; cubes: number; result: SemanticResult };

/** The plan header's line: what was checked against what, or why nothing was. */
export function semanticHeadline(o: SemanticOutcome, deploymentId: number): string {
  switch (o.status) {
    case 'off':
      return `Semantic check: off (${o.reason}).`;
    case 'none':
      return 'Semantic check: the bundle names no member of the data model.';
    case 'unavailable':
      return `Semantic check: not done, the data model of deployment ${deploymentId} could not be read (${o.why}).`;
    case 'checked': {
      const r = o.result;
      const issues = r.issues.length === 0 ? 'no error' : `${r.issues.length} refused`;
      const c = r.confirmations;
      const asked =
        c !== undefined && c.asked > 0
          ? `; Cube's planner asked about ${c.asked} quer${c.asked === 1 ? 'y' : 'ies'}` +
            (c.accepted > 0 ? `, ${c.accepted} name(s) not in /v1/meta accepted` : '')
          : '';
      const warned = r.warnings.length > 0 ? `; ${r.warnings.length} not public in /v1/meta and not confirmed` : '';
      const unchecked = r.unchecked.length > 0 ? `; ${r.unchecked.length} reference(s) could not be checked` : '';
      return (
        `Semantic check: ${r.checked} member use(s) checked against the data model of deployment ${deploymentId} ` +
        `(${o.cubes} cubes and views): ${issues}${asked}${warned}${unchecked}.`
      );
    }
  }
}

/** The refusal (exit 3, nothing written) of a plan naming members the model lacks; undefined otherwise. */
export function semanticError(o: SemanticOutcome, withDetails: boolean): WscError | undefined {
  if (o.status !== 'checked' || o.result.issues.length === 0) return undefined;
  const n = o.result.issues.length;
  const details = withDetails
    ? o.result.issues.map((i) => `${i.pos.file}:${i.pos.line}:${i.pos.col}: ${i.message}`)
    : [];
  return new WscError(
    'semantic_check_failed',
    `The bundle holds ${n === 1 ? 'a query' : `${n} queries or members`} the deployment's data model refuses` +
      `${withDetails ? '' : ' (listed above)'}. Nothing was applied.`,
    EXIT.invalid,
    {
      details,
      hint:
        'Fix the names (the suggestions are the closest public members of the model), or deploy the model ' +
        'change first. `--skip-semantic-check` plans without the check.',
    },
  );
}

/** What a saved plan records of its check: apply PLANFILE does not run it again, and says when it was off. */
export function savedSemantic(o: SemanticOutcome): { status: SemanticOutcome['status']; reason?: string } {
  if (o.status === 'off') return { status: 'off', reason: o.reason };
  if (o.status === 'unavailable') return { status: 'unavailable', reason: o.why };
  return { status: o.status };
}

/** Apply PLANFILE's warning for a plan saved without the check, or undefined when it ran. */
export function savedSemanticWarning(s: { status: string; reason?: string } | undefined): string | undefined {
  if (s?.status === 'off')
    return (
      `this plan was saved with the semantic check off (${s.reason ?? 'no reason recorded'}): ` +
      'its queries were not checked against the data model'
    );
  if (s?.status === 'unavailable')
    return (
      'the semantic check did not run when this plan was saved ' +
      `(the data model could not be read: ${s.reason ?? 'no reason recorded'})`
    );
  return undefined;
}

/**
 * `validate --semantic-check`'s diagnostics: each query the model (or Cube's planner) refuses an error at
 * its place, a name the model does not list that Cube could not confirm a warning, a model that could not
 * be read a warning on wsc.yaml.
 */
export function semanticDiagnostics(o: SemanticOutcome): Diagnostic[] {
  if (o.status === 'unavailable') {
    const message = `the data model could not be read, so no member was checked: ${o.why} (tried ${o.tried})`;
    const pos = { file: 'wsc.yaml', line: 1, col: 1 };
    return [{ severity: 'warning', rule: 'data-model-unreadable', message, pos }];
  }
  if (o.status !== 'checked') return [];
  const errors = o.result.issues.map((i): Diagnostic => ({
    severity: 'error',
    rule: i.by === 'cube' ? 'refused-by-cube' : 'refused-by-model',
    message: i.message,
    pos: i.pos,
  }));
  const warnings = o.result.warnings.map((i): Diagnostic => ({
    severity: 'warning',
    rule: 'not-public',
    message: i.message,
    pos: i.pos,
  }));
  return [...errors, ...warnings];
}
