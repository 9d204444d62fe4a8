// The members of the data model a bundle names: in a report's `jsonQuery`
// (measures, dimensions, time dimensions, segments, filter members through
// nested and/or, order keys in both forms), its `pivotItems`, its `sqlQuery`
// (sql.ts), and the member-holding keys of dashboard widgets. Each use keeps
// the path of its value in the document, so that the bundle can place it at
// file:line:col; a use inside a string (a jsonQuery or sqlQuery written as
// text) also says which appearance of the name in that string it is. What
// cannot be checked is returned as such, never guessed.
import type { JsonValue } from '../json.js';
import { sqlMembers } from './sql.js';
import { widgetLabel } from '../widget-identity.js';

export type MemberRole =
  | 'measure'
  | 'dimension'
  | 'timeDimension'
  | 'segment'
  | 'filter'
  | 'order'
  | 'pivot'
  | 'widget'
  | 'sql-measure'
  | 'sql-column'
  /** A table a report's SQL reads: a cube's or view's name. */
  | 'sql-table'
  /** The query's format itself (Cube's checks before planning), not one member. */
  | 'query';

export type DocPath = (string | number)[];

export interface MemberUse {
  /** As written: `orders.count`, `orders.created_at.month` (a pivot's granularity). */
  member: string;
  role: MemberRole;
  /** The value's path in the document (`['jsonQuery', 'measures', 0]`). */
  path: DocPath;
  /** The key rather than the value holds the member (jsonQuery `order: { member: asc }`). */
  atKey?: true;
  /** Inside a string at `path`: which raw appearance of `member` in it (0 = the first). */
  inText?: number;
  /**
   * Where, in words (`widget region-filter config.member`, `sqlQuery MEASURE(x.y)`); absent: the path of
   * the value inside the resource (`at`) says it, put in words only for what is reported (`whereOf`).
   */
  where?: string;
  /** The value's full path in the document when `path` stops at a string holding it. */
  at?: DocPath;
  /** A time dimension's `granularity` (timeDimensions[]), as written, and its value's path. */
  granularity?: { value: string; path: DocPath };
  /** A widget's member: the widget's type and the config key that holds it. */
  widget?: { type: string; key: string };
}

/** A reference that looks like it may name the model but cannot be checked, with the reason. */
interface UncheckedRef {
  text: string;
  why: string;
  path: DocPath;
  inText?: number;
  where?: string;
  at?: DocPath;
}

/** Where a use or reference is, in words: `jsonQuery.filters[0].and[1].member`. */
export function whereOf(u: { where?: string; at?: DocPath; path: DocPath }): string {
  return u.where ?? pathText(u.at ?? u.path);
}

export interface Extracted {
  uses: MemberUse[];
  unchecked: UncheckedRef[];
}

/** A pivot list's stand-in for "the measures here", not a member. */
const PIVOT_MEASURES = 'measures';

/** Widget types whose config names members, and the keys that do (a name, or a list of names). */
const WIDGET_MEMBER_KEYS: Readonly<Record<string, readonly string[]>> = {
  FILTER: ['member', 'members', 'dimension', 'dimensions'],
  TIME_GRAIN: ['member', 'members', 'dimension', 'dimensions', 'timeDimension'],
  FIELD: ['member', 'members', 'dimension', 'dimensions', 'measure', 'measures'],
};

const isObj = (v: unknown): v is { [k: string]: JsonValue } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `jsonQuery.filters[0].and[1].member` from a path inside the query. */
function pathText(path: readonly (string | number)[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? p : `.${p}`;
  return s;
}

/** A name's raw appearances in text: not inside a longer name (letters, digits, `_`, `.` on either side). */
export function rawOccurrences(text: string, name: string): number[] {
  const out: number[] = [];
  if (name === '') return out;
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + 1)) {
    const before = i > 0 ? text[i - 1]! : '';
    const after = text[i + name.length] ?? '';
    if (!/[\w.$]/.test(before) && !/[\w.]/.test(after)) out.push(i);
  }
  return out;
}

/** Collects uses within one field; for a field written as text, counts each name's appearances in walk order. */
class Collector {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly out: Extracted,
    private readonly field: string,
    private readonly asText: boolean,
  ) {}

  use(member: JsonValue | undefined, role: MemberRole, sub: DocPath, atKey = false): MemberUse | undefined {
    if (typeof member !== 'string') {
      if (member !== undefined && member !== null)
        this.unchecked(JSON.stringify(member), 'not a member name (a string)', sub);
      return undefined;
    }
    const path = [this.field, ...sub];
    const use: MemberUse = this.asText ? { member, role, path: [this.field], at: path } : { member, role, path };
    if (atKey && !this.asText) use.atKey = true;
    if (this.asText) use.inText = this.next(member);
    this.out.uses.push(use);
    return use;
  }

  unchecked(text: string, why: string, sub: DocPath): void {
    const path = [this.field, ...sub];
    const ref: UncheckedRef = this.asText ? { text, why, path: [this.field], at: path } : { text, why, path };
    if (this.asText) ref.inText = this.next(text);
    this.out.unchecked.push(ref);
  }

  private next(name: string): number {
    const n = this.seen.get(name) ?? 0;
    this.seen.set(name, n + 1);
    return n;
  }
}

function each(v: JsonValue | undefined, f: (x: JsonValue, i: number) => void): void {
  if (Array.isArray(v)) v.forEach(f);
}

/** A filter and its nested `and`/`or` groups. */
function filterMembers(c: Collector, f: JsonValue, sub: DocPath): void {
  if (!isObj(f)) return;
  for (const group of ['and', 'or'] as const)
    if (Object.hasOwn(f, group)) each(f[group], (x, i) => filterMembers(c, x, [...sub, group, i]));
  for (const key of ['member', 'dimension'] as const) if (Object.hasOwn(f, key)) c.use(f[key], 'filter', [...sub, key]);
}

/** The members of a query (the jsonQuery's parsed value). */
function queryMembers(c: Collector, q: JsonValue): void {
  if (!isObj(q)) return;
  const lists = [
    ['measures', 'measure'],
    ['dimensions', 'dimension'],
    ['segments', 'segment'],
  ] as const;
  for (const [key, role] of lists) each(q[key], (m, i) => c.use(m, role, [key, i]));
  each(q['timeDimensions'], (td, i) => {
    if (!isObj(td)) return;
    const use = c.use(td['dimension'], 'timeDimension', ['timeDimensions', i, 'dimension']);
    const grain = td['granularity'];
    if (use !== undefined && typeof grain === 'string')
      use.granularity = { value: grain, path: [...(use.at ?? use.path).slice(0, -1), 'granularity'] };
  });
  each(q['filters'], (f, i) => filterMembers(c, f, ['filters', i]));
  const order = q['order'];
  if (isObj(order)) for (const k of Object.keys(order)) c.use(k, 'order', ['order', k], true);
  else
    each(order, (o, i) => {
      if (Array.isArray(o)) c.use(o[0], 'order', ['order', i, 0]);
      else if (isObj(o)) c.use(o['id'] ?? o['member'], 'order', ['order', i, Object.hasOwn(o, 'id') ? 'id' : 'member']);
    });
}

/**
 * The members a report's fields name. `jsonQuery` as the bundle wrote it: a
 * mapping, or JSON text (then each use is found in the text).
 */
export function reportMembers(fields: {
  jsonQuery?: JsonValue | undefined;
  sqlQuery?: JsonValue | undefined;
  pivotItems?: JsonValue | undefined;
}): Extracted {
  const out: Extracted = { uses: [], unchecked: [] };
  const jq = fields.jsonQuery;
  if (typeof jq === 'string') {
    let parsed: JsonValue | undefined;
    try {
      parsed = JSON.parse(jq) as JsonValue;
    } catch {
      parsed = undefined;
    }
    queryMembers(new Collector(out, 'jsonQuery', true), parsed ?? null);
  } else if (jq !== undefined && jq !== null) queryMembers(new Collector(out, 'jsonQuery', false), jq);
  const sql = typeof fields.sqlQuery === 'string' ? fields.sqlQuery : undefined;
  if (sql !== undefined) {
    const found = sqlMembers(sql);
    for (const u of found.uses) {
      const inText = rawOccurrences(sql, u.member).filter((i) => i < u.offset).length;
      out.uses.push({ member: u.member, role: u.role, path: ['sqlQuery'], inText, where: u.where });
    }
    for (const r of found.unchecked) {
      const inText = rawOccurrences(sql, r.text).filter((i) => i < r.offset).length;
      out.unchecked.push({ text: r.text, why: r.why, path: ['sqlQuery'], inText, where: 'sqlQuery' });
    }
  }
  pivotMembers(out, fields.pivotItems, sql !== undefined && (jq === undefined || jq === null));
  return out;
}

/**
 * A pivot's lists. In a report made of SQL alone they name the columns of
 * the result: a dotted name is taken as the member it selects, an undotted
 * one is a column alias, listed as not checked.
 */
function pivotMembers(out: Extracted, pivot: JsonValue | undefined, sqlOnly: boolean): void {
  if (!isObj(pivot)) return;
  const c = new Collector(out, 'pivotItems', false);
  for (const key of ['columns', 'rows', 'measures', 'filters'] as const)
    each(pivot[key], (m, i) => {
      if (m === PIVOT_MEASURES) return;
      if (sqlOnly && typeof m === 'string' && !m.includes('.'))
        c.unchecked(m, 'a column of the SQL result, not a member', [key, i]);
      else c.use(m, 'pivot', [key, i]);
    });
}

/** The members a dashboard's widgets name (`meta.dashboardDraft` of a workbook). */
export function dashboardMembers(meta: JsonValue | undefined): Extracted {
  const out: Extracted = { uses: [], unchecked: [] };
  const draft = isObj(meta) ? meta['dashboardDraft'] : undefined;
  const widgets = isObj(draft) ? draft['widgets'] : undefined;
  each(widgets, (w, i) => {
    if (!isObj(w) || typeof w['type'] !== 'string') return;
    const keys = WIDGET_MEMBER_KEYS[w['type']];
    const config = w['config'];
    if (keys === undefined || !isObj(config)) return;
    const id = widgetLabel(w, i);
    const base: DocPath = ['meta', 'dashboardDraft', 'widgets', i, 'config'];
    for (const key of keys) {
      const v = config[key];
      const one = (m: JsonValue, sub: DocPath) => {
        const where = `widget ${id} config.${pathText(sub)}`;
        const widget = { type: w['type'] as string, key };
        if (typeof m === 'string') out.uses.push({ member: m, role: 'widget', path: [...base, ...sub], where, widget });
        else if (m !== null)
          out.unchecked.push({ text: JSON.stringify(m), why: 'not a member name', path: [...base, ...sub], where });
      };
      if (Array.isArray(v)) v.forEach((m, j) => one(m, [key, j]));
      else if (v !== undefined) one(v, [key]);
    }
  });
  return out;
}
