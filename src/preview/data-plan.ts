// Where a preview's charts get their data: from a reader of the Core Data API
// opened for each drawing (a page open for hours outlives a minted token), or
// nowhere, the cards drawn as boxes and the page saying why. The reader is
// opened by the command (api/data-load.ts), given here as `open`.
import type { DataRead } from '../core/chart-data.js';
import { ChartDrawer, drawCharts, type ChartSource } from './charts.js';
import type { PreviewModel } from './model.js';

export interface DataPlan {
  /** Draws the model's charts with data, or marks it with why not. */
  draw(model: PreviewModel): Promise<PreviewModel>;
  close(): Promise<void>;
}

/** A reader of the Core Data API: where it reads (its `rest` url), and its end. */
export interface DataReading extends ChartSource {
  readonly restUrl: string;
  close(): Promise<void>;
}

/** Cards drawn as boxes, the reason said once. */
export function noData(why: string): DataPlan {
  return { draw: (model) => Promise.resolve({ ...model, data: { off: why } }), close: () => Promise.resolve() };
}

/**
 * The charts drawn with the data of environment `name`: `open` gives a reader per drawing, or why there is
 * none; `close` ends the connection it reads through.
 */
export function dataFrom(
  name: string,
  open: () => Promise<{ ok: true; reader: DataReading } | { ok: false; why: string }>,
  close: () => Promise<void>,
): DataPlan {
  // The page's reloads (a file saved) read each query once: a query runs in the customer's warehouse.
  const reads = new Map<string, Promise<DataRead>>();
  return {
    async draw(model) {
      const opened = await open();
      if (!opened.ok) return { ...model, data: { off: `the Core Data API of ${name} cannot be read: ${opened.why}` } };
      const { reader } = opened;
      try {
        const drawn = await drawCharts(model, new ChartDrawer(reader, reads));
        return { ...drawn, data: { from: `${name} (${new URL(reader.restUrl).host})` } };
      } finally {
        await reader.close();
      }
    },
    close,
  };
}
