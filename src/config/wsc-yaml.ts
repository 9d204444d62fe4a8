// Reading wsc.yaml: same reader as the bundle (positions, limits, UTF-8,
// no prototype keys), validated as written. `${env.NAME}` is interpolated
// later, only for the selected environment, so that an unset variable of an
// environment not in use never fails a run.
import { listSome } from '../domain/suggest.js';
import { join } from 'node:path';
import type { Diagnostic } from '../errors.js';
import { issuesToDiagnostics, isObject } from '../yaml/issues.js';
import type { LineCol, PositionIndex } from '../yaml/positions.js';
import { parseYaml } from '../yaml/parse.js';
import { CONFIG_FILE, readBundleFileSync } from '../yaml/read.js';
import { addSecret } from '../redact.js';
import { WscConfigSchema, type WscConfig } from './schema.js';

export interface LoadedConfig {
  config?: WscConfig;
  positions?: PositionIndex;
  diagnostics: Diagnostic[];
  /** Every variable a `token:` of any environment reads (valid or not). */
  tokenVariables: string[];
}

const TOKEN_VAR_RE = /\$\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}/g;

/**
 * The `token:` values of every environment, as written, before any check:
 * a literal token is registered as a secret (so not even the error that
 * refuses it shows it), and the variables they read are returned.
 */
function tokenSources(value: unknown): string[] {
  const names = new Set<string>();
  const envs = isObject(value) ? value['environments'] : undefined;
  if (!isObject(envs)) return [];
  for (const env of Object.values(envs)) {
    const token = isObject(env) ? env['token'] : undefined;
    if (typeof token !== 'string') continue;
    const refs = [...token.matchAll(TOKEN_VAR_RE)];
    for (const m of refs) names.add(m[1]!);
    if (refs.length === 0 || token.replace(TOKEN_VAR_RE, '').trim() !== '') addSecret(token.trim());
  }
  return [...names];
}

/** undefined when the directory has no wsc.yaml. */
export function loadWscConfig(dir: string): LoadedConfig | undefined {
  const read = readBundleFileSync({ rel: CONFIG_FILE, abs: join(dir, CONFIG_FILE) });
  if (!read.ok) {
    if (read.diagnostic.rule === 'file-unreadable' && /ENOENT/.test(read.diagnostic.message)) return undefined;
    return { diagnostics: [read.diagnostic], tokenVariables: [] };
  }
  const parsed = parseYaml(CONFIG_FILE, read.text);
  const diagnostics = [...parsed.diagnostics];
  const error = (rule: string, message: string, at: LineCol, hint?: string) =>
    diagnostics.push({
      severity: 'error',
      rule,
      message,
      pos: { file: CONFIG_FILE, ...at },
      ...(hint ? { hint } : {}),
    });
  if (parsed.incomplete) return { diagnostics, tokenVariables: [] };
  const doc = parsed.docs[0];
  const tokenVariables = tokenSources(doc?.value);
  if (parsed.docs.length > 1) {
    error('document-shape', 'wsc.yaml holds one document', parsed.docs[1]!.positions.start);
    return { diagnostics, tokenVariables };
  }
  if (!doc || !isObject(doc.value)) {
    const start = doc?.positions.start ?? { line: 1, col: 1 };
    error('document-shape', 'wsc.yaml must be a mapping with `environments:`', start);
    return { diagnostics, tokenVariables };
  }
  const result = WscConfigSchema.safeParse(doc.value);
  if (!result.success) {
    diagnostics.push(
      ...issuesToDiagnostics(result.error.issues, {
        file: CONFIG_FILE,
        positions: doc.positions,
        schema: WscConfigSchema,
        data: doc.value,
      }),
    );
    return { diagnostics, tokenVariables };
  }
  const config = result.data;
  const def = config.defaultEnvironment;
  if (def !== undefined && !Object.hasOwn(config.environments, def)) {
    const names = listSome(Object.keys(config.environments)) || 'none';
    const at = doc.positions.find(['defaultEnvironment'], 'value');
    error('unknown-environment', `defaultEnvironment \`${def}\` is not one of the environments (${names})`, at);
    return { diagnostics, tokenVariables };
  }
  const envs = Object.entries(config.environments);
  const keyAt = (name: string, key: string) => doc.positions.find(['environments', name, key], 'key');
  for (const [name, env] of envs) {
    if (env.embedded === true && env.baseUrl !== undefined) {
      const message = `environment \`${name}\` is embedded and cannot have a baseUrl`;
      error('environment-conflict', message, keyAt(name, 'baseUrl'));
    }
  }
  for (const [name, env] of envs) {
    if (env.prune === true && config.bundle === undefined) {
      error(
        'bundle-name-required',
        `environment \`${name}\` has \`prune: true\`, which needs the bundle's name`,
        keyAt(name, 'prune'),
        "Add `bundle: <name>` at the top of wsc.yaml (for example the repository's name); " +
          'wsc records it on everything it writes and prunes only what carries it.',
      );
    }
    if (env.uiEdits !== undefined && config.bundle === undefined) {
      error(
        'bundle-name-required',
        `environment \`${name}\` has \`uiEdits: ${env.uiEdits}\`, which needs the bundle's name`,
        keyAt(name, 'uiEdits'),
        "Add `bundle: <name>` at the top of wsc.yaml: wsc tells an edit made outside wsc from the bundle's " +
          'own change by the ownership record it writes under that name.',
      );
    }
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics, tokenVariables };
  // Keep key order as written (zod rebuilds records in input order, but `vars` values must stay the raw values).
  return { config, positions: doc.positions, diagnostics, tokenVariables };
}
