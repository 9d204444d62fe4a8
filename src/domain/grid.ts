// The dashboard grid's breakpoints and its column counts where a dashboard
// leaves `layout.cols` out (react-grid-layout's usual defaults): the bundle's
// layout check and the planner's grid both count columns by these.

export const BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;
export type Breakpoint = (typeof BREAKPOINTS)[number];

export const DEFAULT_COLS: Record<Breakpoint, number> = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 };
