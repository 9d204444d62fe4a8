// `meta.dashboardDraft` in the bundle: the API's DashboardConfig (spec,
// "DashboardConfig" and below; wire.ts). Its objects take members this wsc
// does not know, as the API's do (a newer server's, or one a UI adds): they
// are carried to the API as written, never dropped. `wsc validate` names
// each one with a warning (bundle/checks-members.ts), so a typo is still
// seen. One difference from the API: every widget needs an `id`, because an
// id the server assigns would show as a change on the next plan.
import * as z from 'zod';
import { Breakpoints, DashboardAppSource, DashboardConfigDraftInput, DashboardLayout, WidgetType } from '../wire.js';
import { FreeForm, ReportRefSchema } from './common.js';

const int = () => z.int();

export const PositionSchema = z
  .looseObject({ x: int(), y: int(), w: int(), h: int() })
  // An id makes the JSON Schema define it once (`definitions.position`) instead of inline six times.
  .meta({ id: 'position', description: 'Grid position: column x, row y, width w, height h (all required integers).' });

const BreakpointsSchema = z.looseObject(Breakpoints.shape);

const ResponsiveLayoutsSchema = z.looseObject({
  lg: PositionSchema.nullish(),
  md: PositionSchema.nullish(),
  sm: PositionSchema.nullish(),
  xs: PositionSchema.nullish(),
  xxs: PositionSchema.nullish(),
});

export const LayoutSchema = z.looseObject({
  ...DashboardLayout.shape,
  breakpoints: BreakpointsSchema.nullish(),
  cols: BreakpointsSchema.nullish(),
});

const AppSourceSchema = z.looseObject({
  ...DashboardAppSource.shape,
  manifest: z.looseObject(DashboardAppSource.shape.manifest.unwrap().unwrap().shape).nullish(),
});

export const WidgetSchema = z
  .looseObject({
    id: z
      .string()
      .regex(/\S/, 'must not be empty')
      .max(128)
      .describe(
        'Widget id, unique within the dashboard. Required in a bundle: a ' +
          'server-assigned id would show as a change on every plan.',
      ),
    type: WidgetType,
    position: PositionSchema,
    responsiveLayouts: ResponsiveLayoutsSchema.nullish(),
    config: FreeForm.nullish().describe(
      'Free-form widget configuration; ids may be references, e.g. `reportId: { $report: <publicId> }`.',
    ),
    reportId: z
      .union([int(), ReportRefSchema], { error: 'expected a report id (integer) or `{ $report: <publicId> }`' })
      .nullish()
      .describe('The report of a chart, where a server keeps it on the widget itself rather than in `config`.'),
    style: FreeForm.nullish(),
  })
  .meta({ id: 'widget', description: 'A dashboard widget.' });

export const DashboardDraftSchema = z
  .looseObject({
    ...DashboardConfigDraftInput.shape,
    app: AppSourceSchema.nullish(),
    layout: LayoutSchema.nullish(),
    widgets: z.array(WidgetSchema).nullish(),
  })
  .describe('The draft dashboard (DashboardConfig).');
