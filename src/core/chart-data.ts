// A report's data as the charts read it: columns (measure, time, number or
// category, with the title Cube gives them) and rows of parsed values. Cube
// answers numbers as strings (the driver's own text): they are parsed here,
// once, from what the answer's annotation (`/v1/load`) or schema
// (`/v1/cubesql`) says each column is. Pure: the client hands over the
// answer, the pictures read this.

type ColumnKind = 'measure' | 'time' | 'number' | 'category';

export interface DataColumn {
  key: string;
  title: string;
  kind: ColumnKind;
}

/** A value: a number (measures, numbers, times as epoch ms), a text, or null. */
export type Cell = number | string | null;

/** A read of a report's data: its table, or why not (`refused`: Cube refused the query, `why` its message). */
export type DataRead = { ok: true; table: DataTable } | { ok: false; why: string; refused?: boolean };

export interface DataTable {
  columns: DataColumn[];
  rows: Cell[][];
  /** The answer held more rows than were kept (the row limit). */
  truncated: boolean;
}

type Annotated = Record<string, { title?: unknown; shortTitle?: unknown; type?: unknown } | undefined>;

function parseCell(v: unknown, kind: ColumnKind): Cell {
  if (v === null || v === undefined) return null;
  if (kind === 'time') {
    // Cube's local time text has no zone: read as UTC, as every picture draws it.
    const s = String(v);
    const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
    return Number.isFinite(t) ? t : s;
  }
  if (kind === 'measure' || kind === 'number') {
    const n = typeof v === 'number' ? v : Number(String(v));
    return Number.isFinite(n) && String(v).trim() !== '' ? n : null;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const titleOf = (a: { title?: unknown; shortTitle?: unknown } | undefined, key: string) =>
  typeof a?.shortTitle === 'string' && a.shortTitle !== ''
    ? a.shortTitle
    : typeof a?.title === 'string' && a.title !== ''
      ? a.title
      : key;

/**
 * The table of a `/v1/load` answer: its dimensions first, in the query's order (a time dimension by the key
 * with its granularity), then its measures; at most `limit` rows.
 */
export function tableOfLoad(
  answer: { data: Record<string, unknown>[]; annotation?: Record<string, unknown> },
  query: Record<string, unknown>,
  limit: number,
): DataTable {
  const ann = (answer.annotation ?? {}) as Record<string, Annotated | undefined>;
  const columns: DataColumn[] = [];
  const seen = new Set<string>();
  const add = (key: string, kind: ColumnKind, a: Annotated[string]) => {
    if (seen.has(key)) return;
    seen.add(key);
    columns.push({ key, title: titleOf(a, key), kind });
  };
  const list = (k: string) =>
    Array.isArray(query[k]) ? (query[k] as unknown[]).filter((x) => typeof x === 'string') : [];
  const tds = Array.isArray(query['timeDimensions']) ? (query['timeDimensions'] as Record<string, unknown>[]) : [];
  for (const td of tds) {
    const dim = td?.['dimension'];
    const g = td?.['granularity'];
    if (typeof dim === 'string' && typeof g === 'string')
      add(`${dim}.${g}`, 'time', ann['timeDimensions']?.[`${dim}.${g}`]);
  }
  for (const d of list('dimensions')) {
    const a = ann['dimensions']?.[d] ?? ann['timeDimensions']?.[d];
    const type = a?.type;
    add(d, type === 'time' ? 'time' : type === 'number' ? 'number' : 'category', a);
  }
  for (const m of list('measures')) add(m, 'measure', ann['measures']?.[m]);
  const rows = answer.data.slice(0, limit).map((r) => columns.map((c) => parseCell(r[c.key], c.kind)));
  return { columns, rows, truncated: answer.data.length > limit };
}

const NUMERIC = /^(double|float|real|int|integer|int\d+|uint\d+|decimal|numeric|bigint|smallint|number)/i;

/** The table of a `/v1/cubesql` answer (newline-delimited JSON: a schema line, then data lines). */
export function tableOfSql(text: string, limit: number): DataTable {
  let schema: { name: string; column_type?: string }[] | undefined;
  const raw: unknown[][] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const o = JSON.parse(line) as { schema?: unknown; data?: unknown; error?: unknown };
    if (typeof o.error === 'string') throw new Error(o.error);
    if (Array.isArray(o.schema)) schema = o.schema as { name: string; column_type?: string }[];
    if (Array.isArray(o.data)) for (const r of o.data) if (Array.isArray(r)) raw.push(r);
  }
  if (schema === undefined) throw new Error('the answer has no schema line');
  const columns = schema.map((c): DataColumn => {
    const t = c.column_type ?? '';
    const kind: ColumnKind = /timestamp|date/i.test(t) ? 'time' : NUMERIC.test(t) ? 'measure' : 'category';
    return { key: String(c.name), title: String(c.name), kind };
  });
  const rows = raw.slice(0, limit).map((r) => columns.map((c, i) => parseCell(r[i], c.kind)));
  return { columns, rows, truncated: raw.length > limit };
}
