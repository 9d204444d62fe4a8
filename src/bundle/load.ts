// Loading a bundle: files -> YAML documents (with positions and variables)
// -> per-kind schema checks -> cross-file checks -> DesiredState. Every
// problem becomes a diagnostic; loadBundle never throws for the bundle's
// content, so `wsc validate` can report all of them in one run.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BundleError, type Diagnostic, type SourcePos } from '../errors.js';
import type { DesiredState } from '../core/model.js';
import { SECRET_ENV_RE, type VarLookup } from '../yaml/variables.js';
import { holdsSecret } from '../redact.js';
import { crossChecks, type DocItem } from './checks.js';
import { safetyChecks } from './checks-safety.js';
import { memberChecks } from './checks-members.js';
import { partialItem } from './partial.js';
import { buildDesired } from './desired.js';
import { BUNDLE_DIR_MISSING, isDirectory } from '../bundle-dir.js';
import { discoverFiles } from './files.js';
import { isObject, issuesToDiagnostics } from '../yaml/issues.js';
import { KEY_NOTES, KINDS, SCHEMA_OF_KIND, SERVER_OWNED, type Kind } from '../domain/bundle-schema/index.js';
import { closest } from '../domain/suggest.js';
import { folderNearMisses } from './checks-folders.js';
import { folderDepth } from './checks-folder-depth.js';
import { parseYaml, type ParsedDoc, type VarUse } from '../yaml/parse.js';
import { readBundleFileSync, type BundleFile, type ReadResult } from '../yaml/read.js';

export interface LoadOptions {
  /** `vars` of the environment, for `${vars.NAME}`. */
  vars: Record<string, unknown>;
  /** The process environment, for `${env.NAME}`. */
  env: Record<string, string | undefined>;
  /** A reference to something not in the bundle is a warning (the target may hold it) rather than an error. */
  mayHoldUnknownRefs: boolean;
  /** `validate --strict`: a reference not in the bundle is an error whatever the environment, and says why. */
  strict?: boolean;
  /** Variables a `token:` of wsc.yaml reads: refused whatever their names. */
  tokenVariables?: readonly string[];
  /** wsc.yaml `folderLookAlikes`: folder paths alike but for case, white space or letters: an error unless `allow`. */
  folderLookAlikes?: 'allow' | 'error';
  /** wsc.yaml could not be read: `${vars.NAME}` is taken as defined, its value unknown (no diagnostic of its own). */
  varsUnknown?: boolean;
}

export interface LoadResult {
  desired: DesiredState;
  diagnostics: Diagnostic[];
}

export async function loadBundle(dir: string, opts: LoadOptions): Promise<LoadResult> {
  return loadFound(await findBundleFiles(dir), opts);
}

/** The bundle's files, found (plain data: a loader on another thread takes it, see load-off-thread.ts). */
export interface FoundFiles {
  files: BundleFile[];
  diagnostics: Diagnostic[];
}

/** The files of the bundle at `dir`, and what is to be said of them (no directory, no file, unreadable ones). */
export async function findBundleFiles(dir: string): Promise<FoundFiles> {
  const diagnostics: Diagnostic[] = [];
  if (!(await isDirectory(dir))) {
    diagnostics.push({
      severity: 'error',
      rule: 'bundle-dir',
      message: BUNDLE_DIR_MISSING,
      pos: { file: '.', line: 1, col: 1 },
    });
    return { files: [], diagnostics };
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
  return { files, diagnostics };
}

/** The bundle of files found by findBundleFiles: read, parsed and checked, in one turn of the event loop. */
export function loadFound(found: FoundFiles, opts: LoadOptions): LoadResult {
  const { files } = found;
  const diagnostics = [...found.diagnostics];
  // A directory that is not there has no bundle to check further.
  if (diagnostics.some((d) => d.rule === 'bundle-dir')) {
    return { desired: { workbooks: [], reports: [], userAttributes: [] }, diagnostics };
  }
  // Every file is read before any is parsed: the system calls then run one
  // after another, with the kernel's code and data still in the CPU's caches
  // (docs/performance.md). The texts are all kept anyway (positions re-read them).
  const reads = new Array<ReadResult>(files.length);
  for (let i = 0; i < files.length; i++) reads[i] = readBundleFileSync(files[i]!);
  return loadReads(files, reads, opts, diagnostics);
}

/** A bundle whose files are texts in memory (an export, checked by `wsc doctor --deep`), by path from its root. */
export function loadBundleTexts(texts: ReadonlyMap<string, string>, opts: LoadOptions): LoadResult {
  const files = [...texts.keys()].sort().map((rel) => ({ rel, abs: rel }));
  const reads = files.map((f): ReadResult => ({ ok: true, text: texts.get(f.rel)! }));
  return loadReads(files, reads, opts, []);
}

function loadReads(files: BundleFile[], reads: ReadResult[], opts: LoadOptions, diagnostics: Diagnostic[]): LoadResult {
  const loader = fileLoader(opts, diagnostics);
  for (let i = 0; i < files.length; i++) loader.add(files[i]!, reads[i]!);
  return loader.finish();
}

/**
 * How long the loader works before it lets the event loop run (loadFoundInTurns). Short: a page of 500 reports
 * (some 900 KB) comes in a dozen reads of the socket, one per turn of the loop when the loop is busy, and each
 * turn of the loader delays the next (a few milliseconds a turn held the page for tens); a yield costs some
 * microseconds.
 */
const TURN_MS = 1;

/**
 * loadFound in turns of about a millisecond, each file read as it comes, the event loop let run between turns
 * (`onItem`: told of each valid document as it is loaded): for plan and apply, whose deployment reads are under
 * way meanwhile (commands/prepare.ts). A list's next page is asked for when its page arrives, so the loader
 * delays the reads' cursor chains by its turns only, where loading the whole bundle in one turn would hold every
 * answer until the bundle is done. The result is loadFound's.
 */
export async function loadFoundInTurns(
  found: FoundFiles,
  opts: LoadOptions,
  onItem?: (item: DocItem) => void,
): Promise<LoadResult> {
  const diagnostics = [...found.diagnostics];
  if (diagnostics.some((d) => d.rule === 'bundle-dir')) {
    return { desired: { workbooks: [], reports: [], userAttributes: [] }, diagnostics };
  }
  const loader = fileLoader(opts, diagnostics, onItem);
  let turn = performance.now();
  for (const f of found.files) {
    loader.add(f, readBundleFileSync(f));
    if (performance.now() - turn >= TURN_MS) {
      await nextTurn();
      turn = performance.now();
    }
  }
  return loader.finish();
}

/** The bundle's files' documents, checked one file at a time; the checks across files once all are in. */
function fileLoader(opts: LoadOptions, diagnostics: Diagnostic[], onItem?: (item: DocItem) => void) {
  const lookup = variableLookup(opts);
  const items: DocItem[] = [];
  // Every document the cross-file checks see, in file order: the valid ones and what passed of the others.
  const checked: DocItem[] = [];
  let incomplete = false;
  return {
    add(f: BundleFile, read: ReadResult): void {
      const before = items.length;
      if (!loadFile(f, read, lookup, opts, diagnostics, items, checked)) incomplete = true;
      if (onItem) for (let i = before; i < items.length; i++) onItem(items[i]!);
    },
    finish(): LoadResult {
      // With documents unread, a reference to them would be reported as unknown: skip that check then.
      const strict = opts.strict === true;
      const mayHoldUnknownRefs = opts.mayHoldUnknownRefs && !strict;
      diagnostics.push(...crossChecks(checked, { mayHoldUnknownRefs, strict, checkRefs: !incomplete }));
      diagnostics.push(...safetyChecks(items, opts.folderLookAlikes ?? 'error'));
      diagnostics.push(...folderNearMisses(checked));
      diagnostics.push(...folderDepth(items));
      diagnostics.push(...memberChecks(items));
      return { desired: buildDesired(items), diagnostics };
    },
  };
}

/**
 * One file's documents, checked against their kind's schema, into `items`
 * (and `checked`); false when some document could not be read or its identity
 * is not known. (A function per file rather than a loop body: V8 compiles it
 * once, small, instead of compiling the whole of loadBundle for the hot loop.)
 */
function loadFile(
  f: BundleFile,
  read: ReadResult,
  lookup: VarLookup,
  opts: LoadOptions,
  diagnostics: Diagnostic[],
  items: DocItem[],
  checked: DocItem[],
): boolean {
  if (!read.ok) {
    diagnostics.push(read.diagnostic);
    return false;
  }
  const parsed = parseYaml(f.rel, read.text, { lookup });
  let complete = !parsed.incomplete;
  for (const d of parsed.diagnostics) diagnostics.push(d);
  for (const u of parsed.varProblems) {
    // Without a valid wsc.yaml the values of `vars` are not known: not an error of this file.
    if (opts.varsUnknown && u.problem.kind === 'undefined' && u.problem.ns === 'vars') continue;
    diagnostics.push(varDiagnostic(f.rel, u, opts.vars));
  }
  for (const doc of parsed.docs)
    if (!loadDocument(f.rel, doc, read.text, parsed.varProblems, diagnostics, items, checked)) complete = false;
  return complete;
}

/**
 * A document of `file`, checked, into `items` and `checked`; when it fails
 * its schema (diagnostics), what passed of it into `checked` only. False when
 * the document's identity is not known.
 */
function loadDocument(
  file: string,
  doc: ParsedDoc,
  text: string,
  varProblems: readonly VarUse[],
  diagnostics: Diagnostic[],
  items: DocItem[],
  checked: DocItem[],
): boolean {
  const start: SourcePos = { file, ...doc.positions.start };
  if (!isObject(doc.value)) {
    diagnostics.push({
      severity: 'error',
      rule: 'document-shape',
      message: 'a bundle document must be a mapping with a `kind`',
      pos: start,
    });
    return false;
  }
  const kindValue = doc.value['kind'];
  if (kindValue === undefined) {
    diagnostics.push({
      severity: 'error',
      rule: 'missing-kind',
      message: `missing \`kind\` (one of ${KINDS.join(', ')})`,
      pos: start,
    });
    return false;
  }
  if (typeof kindValue !== 'string' || !(KINDS as readonly string[]).includes(kindValue)) {
    const near = typeof kindValue === 'string' ? closest(kindValue, KINDS) : undefined;
    const p = doc.positions.find(['kind'], 'value');
    diagnostics.push({
      severity: 'error',
      rule: 'unknown-kind',
      message:
        `unknown kind ` +
        `${JSON.stringify(kindValue)}${near ? ` (did you mean \`${near}\`?)` : ''}; ` +
        `expected one of ${KINDS.join(', ')}`,
      pos: { file, ...p },
    });
    return false;
  }
  const kind = kindValue as Kind;
  const schema = SCHEMA_OF_KIND[kind];
  // zod's output is not kept: the document stays as written (key order, no defaults added).
  const result = schema.safeParse(doc.value);
  if (!result.success) {
    diagnostics.push(
      ...issuesToDiagnostics(result.error.issues, {
        file,
        positions: doc.positions,
        schema,
        data: doc.value,
        rootKeyNotes: KEY_NOTES[kind],
        serverOwned: SERVER_OWNED,
        skipPaths: new Set(varProblems.filter((u) => u.doc === doc.index).map((u) => JSON.stringify(u.path))),
      }),
    );
    const partial = partialItem(kind, file, doc.positions, doc.value);
    if (partial !== undefined) checked.push(partial);
    return partial !== undefined;
  }
  const item: DocItem = { kind, file, positions: doc.positions, value: doc.value, text, index: doc.index };
  items.push(item);
  checked.push(item);
  return true;
}

/** loadBundle (or `load`), then a BundleError (exit 3) if any diagnostic is an error. */
export async function loadValidBundle(
  dir: string,
  opts: LoadOptions,
  load: (dir: string, opts: LoadOptions) => Promise<LoadResult> = loadBundle,
): Promise<{ desired: DesiredState; warnings: Diagnostic[] }> {
  const { desired, diagnostics } = await load(dir, opts);
  if (diagnostics.some((d) => d.severity === 'error')) throw new BundleError(diagnostics);
  return { desired, warnings: diagnostics };
}

export function countResources(d: DesiredState): { workbooks: number; reports: number; userAttributes: number } {
  return { workbooks: d.workbooks.length, reports: d.reports.length, userAttributes: d.userAttributes.length };
}

function variableLookup(opts: LoadOptions): VarLookup {
  return (ns, name) => {
    if (ns === 'vars') {
      if (!Object.hasOwn(opts.vars, name)) return { found: false };
      const value = opts.vars[name];
      // wsc.yaml refuses such a value already; vars given by a caller other than wsc.yaml meet the same rule.
      if (holdsSecret(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')))
        return { found: false, refused: 'its value holds an API token wsc uses' };
      return { found: true, value };
    }
    if (opts.tokenVariables?.includes(name)) return { found: false, refused: 'wsc.yaml reads the API token from it' };
    if (SECRET_ENV_RE.test(name)) return { found: false, refused: 'it looks like a secret' };
    const v = Object.hasOwn(opts.env, name) ? opts.env[name] : undefined;
    if (v !== undefined && holdsSecret(v)) return { found: false, refused: 'its value holds an API token wsc uses' };
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
