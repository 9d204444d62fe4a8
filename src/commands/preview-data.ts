// Where `wsc preview` reads the charts' data: the environment's Core Data API
// (its token from wsc.yaml or the variables, as every networked command
// finds it; the minted deployment token alone goes to the Core Data API).
// The page draws with data by default when a token is there (`--no-data`:
// boxes); files (`--out`) carry data only with `--with-data`, because they
// are meant to leave the machine (README, Security). Without a token or a
// Core Data API the cards are drawn as boxes and the page says why. Reads
// only: environments, a token, then `/v1/load` and `/v1/cubesql`.
import { connect, type Connection } from '../api/connect.js';
import { openDataReader, type DataReader } from '../api/data-load.js';
import type { DataRead } from '../core/chart-data.js';
import { ChartDrawer, drawCharts } from '../preview/charts.js';
import type { PreviewModel } from '../preview/model.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';

export interface DataPlan {
  /** Draws the model's charts with data, or marks it with why not. */
  draw(model: PreviewModel): Promise<PreviewModel>;
  close(): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Cards drawn as boxes, the reason said once. */
function off(why: string): DataPlan {
  return { draw: (model) => Promise.resolve({ ...model, data: { off: why } }), close: () => Promise.resolve() };
}

/**
 * The data of the charts, or why there is none: `wanted` false gives boxes that say `offWhy`; else the
 * environment's Core Data API is read, and when it cannot be, the boxes say why.
 */
export async function dataPlan(
  wanted: boolean,
  offWhy: string,
  envName: string | undefined,
  dir: string,
  ctx: CommandContext,
): Promise<DataPlan> {
  if (!wanted) return off(offWhy);
  let conn: Connection;
  let name: string;
  try {
    const { environment: env, client } = await configure({ env: envName }, ctx, { dir });
    name = env.name;
    // An embedded deployment's data comes from its model alone: its state file is neither read nor written.
    const { stateFile: _state, ...stateless } = env;
    conn = await connect(stateless, connectOptions({ verbose: false, concurrency: 4, maxRetries: 3 }, client, ctx));
  } catch (e) {
    return off(`no connection to read data with: ${message(e)}`);
  }
  // The page's reloads (a file saved) read each query once: a query runs in the customer's warehouse.
  const reads = new Map<string, Promise<DataRead>>();
  return {
    async draw(model) {
      // A token per drawing: a page open for hours outlives a minted token.
      const opened = await openDataReader(conn.client, conn.deploymentId, { maxRetries: 2 });
      if (!opened.ok) return { ...model, data: { off: `the Core Data API of ${name} cannot be read: ${opened.why}` } };
      const reader: DataReader = opened.reader;
      try {
        const drawn = await drawCharts(model, new ChartDrawer(reader, reads));
        return { ...drawn, data: { from: `${name} (${new URL(reader.restUrl).host})` } };
      } finally {
        await reader.close();
      }
    },
    close: () => conn.close(),
  };
}
