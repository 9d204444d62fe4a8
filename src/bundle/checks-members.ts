// Members a bundle may hold that this wsc does not know: in a dashboard (the
// draft, its widgets, layout, app) and in a report's `pivotItems`. The API
// takes members it does not describe, and a newer server or the UI may write
// some, so a bundle keeps them and apply sends them as written. Each one is
// named with a warning (and the member it may be a typo of), never refused
// and never dropped. A `jsonQuery` string that is not JSON is the same: sent
// as written, named with a warning. An integer beyond 2^53 is refused: the
// YAML reader has already rounded it, and sending it would make that stick.
import type { Diagnostic } from '../errors.js';
import { Breakpoints, DashboardAppSource, Position, ResponsiveLayouts } from '../domain/wire.js';
import { DashboardDraftSchema, LayoutSchema, WidgetSchema } from '../domain/bundle-schema/dashboard.js';
import { PivotItemsSchema } from '../domain/bundle-schema/report.js';
import { closest } from '../domain/suggest.js';
import { isObject } from '../yaml/issues.js';
import type { Path } from '../yaml/positions.js';
import { posOf, type DocItem } from './checks.js';

const keysOf = (shape: object): readonly string[] => Object.keys(shape);

const DRAFT = keysOf(DashboardDraftSchema.shape);
const WIDGET = keysOf(WidgetSchema.shape);
const LAYOUT = keysOf(LayoutSchema.shape);
const BREAKPOINTS = keysOf(Breakpoints.shape);
const POSITION = keysOf(Position.shape);
const RESPONSIVE = keysOf(ResponsiveLayouts.shape);
const APP = keysOf(DashboardAppSource.shape);
const MANIFEST = ['dependencies', 'version'];
const PIVOT = keysOf(PivotItemsSchema.shape);

function dotted(path: Path): string {
  return path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s === '' ? p : `${s}.${p}`), '');
}

/** A warning per member of `obj` (at `path`) not among `known`. */
function note(item: DocItem, obj: unknown, path: Path, known: readonly string[], out: Diagnostic[]): void {
  if (!isObject(obj)) return;
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    out.push({
      severity: 'warning',
      rule: 'unknown-member',
      message:
        `\`${dotted([...path, key])}\` is not a member this wsc knows` +
        (near ? ` (did you mean \`${near}\`?)` : '') +
        '; it is kept and sent as written',
      pos: posOf(item, [...path, key], 'key'),
      hint: `Known members here: ${known.join(', ')}. A member the server does not take is refused at apply.`,
    });
  }
}

function dashboardMembers(item: DocItem, out: Diagnostic[]): void {
  const meta = item.value['meta'];
  const draft = isObject(meta) ? meta['dashboardDraft'] : undefined;
  if (!isObject(draft)) return;
  const base: Path = ['meta', 'dashboardDraft'];
  note(item, draft, base, DRAFT, out);
  const layout = draft['layout'];
  note(item, layout, [...base, 'layout'], LAYOUT, out);
  if (isObject(layout)) {
    for (const k of ['breakpoints', 'cols'] as const) note(item, layout[k], [...base, 'layout', k], BREAKPOINTS, out);
  }
  const app = draft['app'];
  note(item, app, [...base, 'app'], APP, out);
  if (isObject(app)) note(item, app['manifest'], [...base, 'app', 'manifest'], MANIFEST, out);
  const widgets = draft['widgets'];
  if (!Array.isArray(widgets)) return;
  widgets.forEach((w: unknown, i) => {
    const at: Path = [...base, 'widgets', i];
    note(item, w, at, WIDGET, out);
    if (!isObject(w)) return;
    note(item, w['position'], [...at, 'position'], POSITION, out);
    const rl = w['responsiveLayouts'];
    note(item, rl, [...at, 'responsiveLayouts'], RESPONSIVE, out);
    if (isObject(rl)) for (const bp of RESPONSIVE) note(item, rl[bp], [...at, 'responsiveLayouts', bp], POSITION, out);
  });
}

function reportMembers(item: DocItem, out: Diagnostic[]): void {
  note(item, item.value['pivotItems'], ['pivotItems'], PIVOT, out);
  const q = item.value['jsonQuery'];
  if (typeof q !== 'string') return;
  try {
    JSON.parse(q);
  } catch (e) {
    out.push({
      severity: 'warning',
      rule: 'json-query-not-json',
      message: `\`jsonQuery\` is not valid JSON (${(e as Error).message}); it is kept and sent as written`,
      pos: posOf(item, ['jsonQuery'], 'value'),
      hint: 'The API takes the query as JSON text; write it as a mapping to have it checked here.',
    });
  }
}

/** Every integer beyond 2^53 in a document, as an error at its value. `path` is one stack, copied only on a hit. */
function bigIntegers(item: DocItem, v: unknown, path: (string | number)[], out: Diagnostic[]): void {
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || Number.isSafeInteger(v)) return;
    out.push({
      severity: 'error',
      rule: 'integer-too-large',
      message:
        `\`${dotted(path)}\` is an integer beyond 2^53 (read as ${String(v)}): a JSON number cannot carry it ` +
        'exactly, and wsc does not round silently',
      pos: posOf(item, [...path], 'value'),
      hint: 'Write it as a string (quoted), or as a number within ±9007199254740991.',
    });
    return;
  }
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      bigIntegers(item, v[i], path, out);
      path.pop();
    }
    return;
  }
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    path.push(k);
    bigIntegers(item, (v as Record<string, unknown>)[k], path, out);
    path.pop();
  }
}

/** The warnings of every document that passed its schema, and its integers too large to send exactly. */
export function memberChecks(items: readonly DocItem[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const item of items) {
    bigIntegers(item, item.value, [], out);
    if (item.partial === true) continue;
    if (item.kind === 'Workbook') dashboardMembers(item, out);
    else if (item.kind === 'Report') reportMembers(item, out);
  }
  return out;
}
