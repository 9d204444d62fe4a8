// Loading a bundle: files -> YAML documents (with positions and variables)
// -> per-kind schema checks -> cross-file checks -> DesiredState. Every
// problem becomes a diagnostic; loadBundle never throws for the bundle's
// content, so `wsc validate` can report all of them in one run.
import { BundleError, type Diagnostic, type SourcePos } from '../errors.js';
import type { DesiredState } from '../core/model.js';
import { SECRET_ENV_RE, type VarLookup } from '../config/variables.js';
import { crossChecks, type DocItem } from './checks.js';
import { buildDesired } from './desired.js';
import { discoverFiles, isDirectory, readBundleFileSync } from './files.js';
import { isObject, issuesToDiagnostics } from './issues.js';
import { KEY_NOTES, KINDS, SCHEMA_OF_KIND, SERVER_OWNED, type Kind } from './schema/index.js';
import { closest } from './suggest.js';
import { compileCheck } from '../zod-fast.js';
import { parseYaml, type VarUse } from './yaml-doc.js';

export interface LoadOptions {
  /** `vars` of the environment, for `${vars.NAME}`. */
  vars: Record<string, unknown>;
  /** The process environment, for `${env.NAME}`. */
  env: Record<string, string | undefined>;
  /** A reference to something not in the bundle is a warning (the target may hold it) rather than an error. */
  mayHoldUnknownRefs: boolean;
}

export interface LoadResult {
  desired: DesiredState;
  diagnostics: Diagnostic[];
}

export async function loadBundle(dir: string, opts: LoadOptions): Promise<LoadResult> {
  const diagnostics: Diagnostic[] = [];
  const empty: DesiredState = { workbooks: [], reports: [], userAttributes: [] };
  if (!(await isDirectory(dir))) {
    diagnostics.push({ severity: 'error', rule: 'bundle-dir', message: 'bundle directory not found', pos: { file: '.', line: 1, col: 1 } });
    return { desired: empty, diagnostics };
  }
  const { files, diagnostics: found } = await discoverFiles(dir);
  diagnostics.push(...found);
  if (files.length === 0) {
    diagnostics.push({
      severity: 'warning',
      rule: 'empty-bundle',
      message: 'no bundle files (*.yaml, *.yml) in this directory',
      pos: { file: '.', line: 1, col: 1 },
      hint: 'Add workbooks/<slug>.yaml, reports/<name>.yaml, ... or run `wsc export --out DIR`.',
    });
  }

  const lookup = variableLookup(opts);
  const items: DocItem[] = [];
  let incomplete = false;
  for (const f of files) {
    const read = readBundleFileSync(f);
    if (!read.ok) {
      diagnostics.push(read.diagnostic);
      incomplete = true;
      continue;
    }
    const parsed = parseYaml(f.rel, read.text, { lookup });
    diagnostics.push(...parsed.diagnostics);
    diagnostics.push(...parsed.varProblems.map((u) => varDiagnostic(f.rel, u, opts.vars)));
    if (parsed.incomplete) incomplete = true;
    for (const doc of parsed.docs) {
      const start: SourcePos = { file: f.rel, ...doc.positions.start };
      if (!isObject(doc.value)) {
        diagnostics.push({ severity: 'error', rule: 'document-shape', message: 'a bundle document must be a mapping with a `kind`', pos: start });
        incomplete = true;
        continue;
      }
      const kindValue = doc.value['kind'];
      if (kindValue === undefined) {
        diagnostics.push({ severity: 'error', rule: 'missing-kind', message: `missing \`kind\` (one of ${KINDS.join(', ')})`, pos: start });
        incomplete = true;
        continue;
      }
      if (typeof kindValue !== 'string' || !(KINDS as readonly string[]).includes(kindValue)) {
        const near = typeof kindValue === 'string' ? closest(kindValue, KINDS) : undefined;
        const p = doc.positions.find(['kind'], 'value');
        diagnostics.push({
          severity: 'error',
          rule: 'unknown-kind',
          message: `unknown kind ${JSON.stringify(kindValue)}${near ? ` (did you mean \`${near}\`?)` : ''}; expected one of ${KINDS.join(', ')}`,
          pos: { file: f.rel, ...p },
        });
        incomplete = true;
        continue;
      }
      const kind = kindValue as Kind;
      const schema = SCHEMA_OF_KIND[kind];
      // The compiled check vouches for nearly every document; zod runs for
      // the rest, and its issues are the diagnostics (zod-fast.ts).
      const result = compileCheck(schema)(doc.value) ? undefined : schema.safeParse(doc.value);
      if (result !== undefined && !result.success) {
        diagnostics.push(
          ...issuesToDiagnostics(result.error.issues, {
            file: f.rel,
            positions: doc.positions,
            schema,
            data: doc.value,
            rootKeyNotes: KEY_NOTES[kind],
            serverOwned: SERVER_OWNED,
            skipPaths: new Set(parsed.varProblems.filter((u) => u.doc === doc.index).map((u) => JSON.stringify(u.path))),
          }),
        );
        incomplete = true;
        continue;
      }
      items.push({ kind, file: f.rel, positions: doc.positions, value: doc.value });
    }
  }
  // With documents unread, a reference to them would be reported as unknown: skip that check then.
  diagnostics.push(...crossChecks(items, { mayHoldUnknownRefs: opts.mayHoldUnknownRefs, checkRefs: !incomplete }));
  return { desired: buildDesired(items), diagnostics };
}

/** loadBundle, then a BundleError (exit 3) if any diagnostic is an error. */
export async function loadValidBundle(dir: string, opts: LoadOptions): Promise<{ desired: DesiredState; warnings: Diagnostic[] }> {
  const { desired, diagnostics } = await loadBundle(dir, opts);
  if (diagnostics.some((d) => d.severity === 'error')) throw new BundleError(diagnostics);
  return { desired, warnings: diagnostics };
}

export function countResources(d: DesiredState): { workbooks: number; reports: number; userAttributes: number } {
  return { workbooks: d.workbooks.length, reports: d.reports.length, userAttributes: d.userAttributes.length };
}

function variableLookup(opts: LoadOptions): VarLookup {
  return (ns, name) => {
    if (ns === 'vars') return Object.hasOwn(opts.vars, name) ? { found: true, value: opts.vars[name] } : { found: false };
    if (SECRET_ENV_RE.test(name)) return { found: false, refused: 'it looks like a secret' };
    const v = Object.hasOwn(opts.env, name) ? opts.env[name] : undefined;
    return v === undefined ? { found: false } : { found: true, value: v };
  };
}

function varDiagnostic(file: string, use: VarUse, vars: Record<string, unknown>): Diagnostic {
  const pos = { file, line: use.pos.line, col: use.pos.col };
  const p = use.problem;
  if (p.kind === 'malformed') {
    return {
      severity: 'error',
      rule: 'bad-variable',
      message: `\`${p.ref}\` is not a variable reference`,
      pos,
      hint: 'Use ${vars.NAME} or ${env.NAME}; write $${ for a literal ${.',
    };
  }
  if (p.kind === 'refused') {
    return {
      severity: 'error',
      rule: 'secret-variable',
      message: `\`${p.ref}\` cannot be used in a bundle: ${p.reason}`,
      pos,
      hint: 'Values in bundle files reach dashboards and printed plans; secrets belong in wsc.yaml `token:` only.',
    };
  }
  if (p.ns === 'vars') {
    const near = closest(p.name!, Object.keys(vars));
    return {
      severity: 'error',
      rule: 'undefined-variable',
      message: `undefined variable \`${p.ref}\`${near ? ` (did you mean \`\${vars.${near}}\`?)` : ''}`,
      pos,
      hint: `Define \`${p.name}\` under \`vars:\` of the environment in wsc.yaml.`,
    };
  }
  return {
    severity: 'error',
    rule: 'undefined-variable',
    message: `undefined variable \`${p.ref}\`: the environment variable ${p.name} is not set`,
    pos,
    hint: `Set ${p.name} in the environment wsc runs in.`,
  };
}
