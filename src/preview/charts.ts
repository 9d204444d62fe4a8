// Each CHART card of a preview drawn with its report's data: the data read
// once per distinct query (a `jsonQuery` through `/v1/load`, a `sqlQuery`
// through the SQL API), then drawn at the size the card gives it at each
// breakpoint (once per size). A card says why when it is not drawn: a kind
// wsc does not draw with data, a query that is not JSON, no rows, a read that
// failed; a query Cube refuses shows Cube's own message, so a broken query is
// seen before it is merged. With a baseline (`--against`), a card whose
// report's query or visualization changed gets the baseline's picture too.
// The reading is given (`ChartSource`); the drawing is chart-spec.ts and
// chart-render.ts.
import type { DataRead } from '../core/chart-data.js';
import { chartSpec, isDrawn, type DrawnKind } from './chart-spec.js';
import { renderChart } from './chart-render.js';
import type { CardChart, ChartInput } from './chart-types.js';
import type { GlyphKind } from './glyphs.js';
import type { PreviewCard, PreviewGrid, PreviewModel } from './model.js';
import { chartArea } from './svg.js';

/** Where the data comes from: a reader of the Core Data API (or a stand-in in tests). */
export interface ChartSource {
  load(query: Record<string, unknown>): Promise<DataRead>;
  sql(text: string): Promise<DataRead>;
}

const NOT_DRAWN: Partial<Record<GlyphKind, string>> = {
  pivot: 'a pivot table is drawn as a box: wsc draws lines, areas, bars, pies, KPIs and tables with data',
  map: 'a map is drawn as a box: wsc draws lines, areas, bars, pies, KPIs and tables with data',
};

function inputOf(c: PreviewCard): ChartInput | undefined {
  if (c.type !== 'CHART' || c.report === undefined) return undefined;
  const r = c.report;
  return {
    ...(r.jsonQuery !== undefined ? { jsonQuery: r.jsonQuery } : {}),
    ...(r.sqlQuery !== undefined ? { sqlQuery: r.sqlQuery } : {}),
    kind: c.glyph ?? 'generic',
    ...(c.visualization !== undefined ? { visualization: c.visualization } : {}),
    ...(r.format !== undefined ? { format: r.format } : {}),
    ...(r.stacked ? { stacked: true } : {}),
  };
}

/** The key of the data an input reads (the same query read once). */
function dataKey(i: ChartInput): string | undefined {
  if (i.jsonQuery !== undefined) return `json:${i.jsonQuery}`;
  if (i.sqlQuery !== undefined) return `sql:${i.sqlQuery}`;
  return undefined;
}

/** Draws the charts of a model: reads are shared by query, pictures by query, kind and size. */
export class ChartDrawer {
  private readonly pictures = new Map<string, Promise<CardChart>>();
  private count = 0;

  /** `reads`: the reads of earlier drawings (a page's reloads read a query once; a failed read again). */
  constructor(
    private readonly source: ChartSource,
    private readonly reads = new Map<string, Promise<DataRead>>(),
  ) {}

  private read(i: ChartInput): Promise<DataRead> | string {
    const key = dataKey(i);
    if (key === undefined) return 'the report has neither a jsonQuery nor a sqlQuery';
    let query: Record<string, unknown> | undefined;
    if (i.jsonQuery !== undefined) {
      try {
        const q: unknown = JSON.parse(i.jsonQuery);
        if (q === null || typeof q !== 'object' || Array.isArray(q)) return 'its jsonQuery is not a JSON object';
        query = q as Record<string, unknown>;
      } catch {
        return 'its jsonQuery is not JSON';
      }
    }
    let read = this.reads.get(key);
    if (read === undefined) {
      read = query !== undefined ? this.source.load(query) : this.source.sql(i.sqlQuery!);
      this.reads.set(key, read);
      // A failed read is read again next time (Cube's refusal is not). A source is not meant to reject;
      // one that does is forgotten the same way, and its picture says why (picture()), not a crash.
      const forget = () => this.reads.delete(key);
      void read.then((r) => (!r.ok && r.refused !== true ? forget() : undefined), forget);
    }
    return read;
  }

  /** The picture of `input` at `width`×`height` pixels. */
  draw(input: ChartInput, width: number, height: number): Promise<CardChart> {
    const kind = input.kind;
    if (!isDrawn(kind)) {
      const why =
        NOT_DRAWN[kind] ??
        `visualization ${JSON.stringify(input.visualization ?? '(none)')} is not one wsc draws with data`;
      return Promise.resolve({ why });
    }
    const key = JSON.stringify([
      dataKey(input),
      kind,
      input.format,
      input.stacked,
      Math.round(width),
      Math.round(height),
    ]);
    let p = this.pictures.get(key);
    if (p === undefined) {
      p = this.picture(input, kind, width, height);
      this.pictures.set(key, p);
    }
    return p;
  }

  private async picture(input: ChartInput, kind: DrawnKind, width: number, height: number): Promise<CardChart> {
    const read = this.read(input);
    if (typeof read === 'string') return { why: read };
    const data = await read.catch((e: unknown): DataRead => ({
      ok: false,
      why: e instanceof Error ? e.message : String(e),
    }));
    if (!data.ok) return data.refused === true ? { error: data.why } : { why: `no data: ${data.why}` };
    const spec = chartSpec({
      kind,
      table: data.table,
      width,
      height,
      ...(input.format !== undefined ? { format: input.format as never } : {}),
      ...(input.stacked ? { stacked: true } : {}),
    });
    if ('why' in spec) return { why: spec.why };
    const svg = await renderChart(spec.spec, `ch${++this.count}`);
    const note = data.table.truncated ? `first ${data.table.rows.length} rows` : undefined;
    return { svg, width, height, ...(note !== undefined ? { note } : {}) };
  }
}

/** The model with each CHART card's picture at every breakpoint, and what it drew before where that changed. */
export async function drawCharts(model: PreviewModel, drawer: ChartDrawer): Promise<PreviewModel> {
  const grid = async (g: PreviewGrid): Promise<PreviewGrid> => {
    const cards = await Promise.all(
      g.cards.map(async (c): Promise<PreviewCard> => {
        const input = inputOf(c);
        if (input === undefined) return c;
        const area = chartArea(c, g, c.was !== undefined);
        if (area === undefined) return { ...c, chart: { why: 'the card is too small for a picture' } };
        const chart = { ...(await drawer.draw(input, area.w, area.h)) };
        if (c.was !== undefined) chart.before = await drawer.draw(c.was, area.w, area.h);
        return { ...c, chart };
      }),
    );
    return { ...g, cards };
  };
  const workbooks = await Promise.all(
    model.workbooks.map(async (wb) => ({ ...wb, grids: await Promise.all(wb.grids.map(grid)) })),
  );
  return { ...model, workbooks };
}
