// A dashboard draft's change as a plan holds it (FieldChange.dashboard):
// widgets matched by id and the dashboard's own members by path.
// plan/dashboard-diff.ts computes it; render/dashboard-diff.ts prints it.
import type { JsonValue } from './json.js';

export interface GridBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * What every widget change says of its widget: its title (the title of the report it charts, a TEXT
 * widget's heading, a FILTER's label) and the line and column of the widget (of the member, for a member
 * change) in the workbook's file; a removed widget has no line.
 */
interface WidgetNamed {
  widget: string;
  title?: string;
  line?: number;
  col?: number;
}

export type WidgetChange = WidgetNamed &
  (
    | { change: 'added'; type?: string; position?: GridBox; reports: string[] }
    | { change: 'removed'; type?: string; position?: GridBox }
    | { change: 'moved'; before: { x: number; y: number }; after: { x: number; y: number } }
    | { change: 'resized'; before: { w: number; h: number }; after: { w: number; h: number } }
    | { change: 'type'; before?: string; after?: string }
    | { change: 'member'; path: string; before?: JsonValue; after?: JsonValue }
  );

export interface MemberChange {
  path: string;
  before?: JsonValue;
  after?: JsonValue;
  /** Its line and column in the workbook's file. */
  line?: number;
  col?: number;
}

export interface DashboardDiff {
  /** Dashboard members other than `widgets`, by dotted path, in path order. */
  members: MemberChange[];
  /** Per widget, in the after draft's order, then the removed ones in the before draft's order. */
  widgets: WidgetChange[];
  /** Titles of the reports named by `{ $report }` in the values above, by bundle publicId. */
  reports: { [publicId: string]: string };
  /** A widget was added, removed, moved or resized, or the grid's columns changed: the layout map is worth drawing. */
  layoutChanged: boolean;
}
