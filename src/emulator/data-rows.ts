// The rows the emulator's Core Data API answers: made up, but the same for
// the same query every time (no clock, no randomness: a hash of the member
// and the row), shaped as Cube shapes them. A time dimension with a
// granularity is a series of periods ending at a fixed month (or over the
// query's own `dateRange` when it gives two dates), a string dimension five
// categories, a number dimension five values, a boolean two; the rows are
// their product, cut at the query's limit. Measures are numbers written as
// strings, as Cube's drivers give them: counts whole, rates below 1,
// amounts with two decimals. Reads the model through `memberOf` alone.
import type { MetaAnswer } from '../domain/data-model.js';

/** What the emulator reads of a member: its role and type, its title and (measures) its aggregation. */
export interface ModelMember {
  role: 'measure' | 'dimension' | 'segment';
  type: string;
  title: string;
  agg?: string;
  /** The names of a time dimension's custom granularities. */
  granularities: string[];
}

type Loose = { name: string; title?: string | null; type?: string | null; [k: string]: unknown };

/** The member `name` of the model (cubes and views alike), or undefined. */
export function memberOf(model: MetaAnswer, name: string): ModelMember | undefined {
  const cube = model.cubes.find((c) => c.name === name.split('.')[0]);
  if (cube === undefined) return undefined;
  const lists: [ModelMember['role'], readonly Loose[] | null | undefined][] = [
    ['measure', cube.measures],
    ['dimension', cube.dimensions],
    ['segment', cube.segments],
  ];
  for (const [role, list] of lists) {
    const m = (list ?? []).find((x) => x.name === name);
    if (m === undefined) continue;
    const agg = typeof m['aggType'] === 'string' ? m['aggType'] : (m.type ?? undefined);
    const grans = Array.isArray(m['granularities']) ? (m['granularities'] as { name?: unknown }[]) : [];
    return {
      role,
      // Measures are numbers whatever they aggregate (Cube's `/v1/meta` says `number`).
      type: role === 'measure' ? 'number' : (m.type ?? 'string'),
      title: m.title ?? name,
      ...(role === 'measure' && agg !== undefined ? { agg } : {}),
      granularities: grans.flatMap((g) => (typeof g.name === 'string' ? [g.name] : [])),
    };
  }
  return undefined;
}

export function hasCube(model: MetaAnswer, cube: string): boolean {
  return model.cubes.some((c) => c.name === cube);
}

export const STANDARD_GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

/** One column of the rows: a dimension's values (or a time series), or a measure. */
export interface Axis {
  /** The key of the value in a row (`orders.created_at.month` for a time dimension with a granularity). */
  key: string;
  /** A second key with the same value (a time dimension's plain name beside its granularity's). */
  alias?: string;
  values: string[];
}

/** 32-bit FNV-1a of a text: the seed of every made-up value. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

const unit = (s: string) => hash(s) / 4294967296;

const CATEGORY = ['North', 'South', 'East', 'West', 'Central'];

/** The five values of a string dimension: its title's last word and a place name, the same every time. */
function categories(name: string, title: string): string[] {
  const word = title.split(' ').pop() ?? name;
  const start = hash(name) % CATEGORY.length;
  return CATEGORY.map((_, i) => `${word} ${CATEGORY[(start + i) % CATEGORY.length]}`);
}

const PERIODS: Record<string, number> = { second: 10, minute: 10, hour: 24, day: 14, week: 12, month: 12 };
/** The last period of every series when the query gives no dates: a fixed day, so answers never move. */
const ANCHOR = Date.UTC(2026, 9, 1);

function startOf(t: number, g: string): number {
  const d = new Date(t);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  if (g === 'year') return Date.UTC(y, 0, 1);
  if (g === 'quarter') return Date.UTC(y, m - (m % 3), 1);
  if (g === 'month') return Date.UTC(y, m, 1);
  if (g === 'week') return Date.UTC(y, m, d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (g === 'day') return Date.UTC(y, m, d.getUTCDate());
  const ms = g === 'hour' ? 3_600_000 : g === 'minute' ? 60_000 : 1000;
  return Math.floor(t / ms) * ms;
}

function step(t: number, g: string, n: number): number {
  const d = new Date(t);
  const months = g === 'year' ? 12 : g === 'quarter' ? 3 : g === 'month' ? 1 : 0;
  if (months > 0) return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n * months, 1);
  const ms = { week: 604_800_000, day: 86_400_000, hour: 3_600_000, minute: 60_000 }[g] ?? 1000;
  return t + n * ms;
}

/** Cube's local time text: `2026-01-01T00:00:00.000`. */
const cubeTime = (t: number) => new Date(t).toISOString().replace(/Z$/, '');

/** The periods of a series: over `[from, to]` when given (at most 60), else the last few up to the anchor. */
export function timeSeries(granularity: string, dateRange: unknown): string[] {
  const g = STANDARD_GRANULARITIES.includes(granularity) ? granularity : 'month';
  if (Array.isArray(dateRange) && dateRange.length === 2) {
    const [from, to] = dateRange.map((s) => Date.parse(String(s)));
    if (Number.isFinite(from) && Number.isFinite(to) && from! <= to!) {
      const out: string[] = [];
      for (let t = startOf(from!, g); t <= to! && out.length < 60; t = step(t, g, 1)) out.push(cubeTime(t));
      return out;
    }
  }
  const n = PERIODS[g] ?? (g === 'quarter' ? 8 : 5);
  const last = startOf(ANCHOR, g);
  return Array.from({ length: n }, (_, i) => cubeTime(step(last, g, i - n + 1)));
}

/** The values of a dimension without a granularity. */
export function dimensionValues(name: string, m: ModelMember): string[] {
  if (m.type === 'boolean') return ['false', 'true'];
  if (m.type === 'number') return [10, 20, 30, 40, 50].map((n) => String(n + (hash(name) % 10)));
  if (m.type === 'time') return timeSeries('month', undefined).slice(-5);
  return categories(name, m.title);
}

/** A measure's value in the row `key`: a trend over the row's place in a series, the same every time. */
function measureValue(name: string, m: ModelMember, key: string, index: number): string {
  const base = unit(`${name}|${key.replace(/\d{4}-\d\d-\d\dT[\d:.]+/g, '')}`);
  const wobble = unit(`${name}|${key}`) - 0.5;
  const grow = 1 + 0.04 * index + 0.08 * wobble;
  if (m.agg === 'count' || m.agg === 'countDistinct' || m.agg === 'countDistinctApprox' || /count$/.test(name)) {
    return String(Math.round((40 + base * 900) * grow));
  }
  if (/rate|retention|ratio|percent|share/.test(name)) return (0.05 + base * 0.9 + 0.03 * wobble).toFixed(4);
  return ((1000 + base * 99_000) * grow).toFixed(2);
}

/** The rows of the product of `axes` (the first varies slowest), each with every measure; at most `limit`. */
export function rowsOf(
  axes: readonly Axis[],
  measures: readonly { key: string; member: ModelMember }[],
  limit: number,
): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  const total = axes.reduce((n, a) => n * Math.max(1, a.values.length), 1);
  for (let i = 0; i < total && rows.length < limit; i++) {
    const row: Record<string, string> = {};
    let rest = i;
    let seriesIndex = 0;
    for (let a = axes.length - 1; a >= 0; a--) {
      const axis = axes[a]!;
      const n = Math.max(1, axis.values.length);
      const at = rest % n;
      rest = Math.floor(rest / n);
      const v = axis.values[at] ?? '';
      row[axis.key] = v;
      if (axis.alias !== undefined) {
        row[axis.alias] = v;
        seriesIndex = at;
      }
    }
    const key = axes.map((a) => row[a.key]).join('|');
    for (const m of measures) row[m.key] = measureValue(m.key, m.member, key, seriesIndex);
    rows.push(row);
  }
  return rows;
}
