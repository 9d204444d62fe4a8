// `wsc validate --semantic-check`: the one networked part of validate, asked
// for explicitly. The environment's data model is read as plan reads it, and
// each query it (or Cube's planner) refuses becomes an error diagnostic at
// its place, a name it does not list that Cube could not confirm a warning; a
// model that cannot be read is a warning. Loaded only when asked, so a plain validate
// never loads the HTTP client.
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState } from '../core/model.js';
import type { Diagnostic } from '../errors.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { startSemanticCheck } from './semantic.js';
import { connect } from '../api/connect.js';
import type { ClientLimits } from '../config/resolve.js';

export async function semanticDiagnostics(
  desired: DesiredState,
  env: ResolvedEnvironment,
  client: ClientLimits,
  ctx: CommandContext,
): Promise<Diagnostic[]> {
  const connOpts = connectOptions({ verbose: false, concurrency: 2, maxRetries: 2 }, client, ctx);
  const conn = await connect(env, connOpts);
  try {
    // Asked for by name: also where wsc.yaml turns it off for plan.
    const { semanticCheck: _off, ...asked } = env;
    // No plan: every resource is asked about (bounded as plan's are).
    const o = await startSemanticCheck(desired, asked, {}, conn, connOpts).finish(() => true);
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
  } finally {
    await conn.close();
  }
}
