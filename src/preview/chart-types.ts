// What a CHART card draws with data, as plain data: the picture (or why
// there is none) and what it is drawn from. Shared by the model, the SVG and
// the drawing (charts.ts) without their depending on each other.
import type { GlyphKind } from './glyphs.js';

export interface CardChart {
  /** The picture (SVG, its ids prefixed), drawn at `width`×`height`. */
  svg?: string;
  width?: number;
  height?: number;
  /** Said under the picture: rows left out. */
  note?: string;
  /** Cube refused the query: its message. */
  error?: string;
  /** Why there is no picture (not an error of the query). */
  why?: string;
  /** The picture of the baseline's report or visualization, when either changed (`--against`). */
  before?: CardChart;
}

/** What a card is drawn from: its report's query and how it is shown. */
export interface ChartInput {
  jsonQuery?: string;
  sqlQuery?: string;
  kind: GlyphKind;
  visualization?: string;
  format?: unknown;
  stacked?: boolean;
}
