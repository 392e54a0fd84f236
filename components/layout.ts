/**
 * Row and column budgets for the app's live (non-<Static>) area. Pure, so resizing is only
 * "compute again". The live area stays below the terminal height: when Ink's output reaches it,
 * Ink clears the screen on every frame (flicker) and re-prints the whole history.
 */
export type LayoutInput = {
  columns: number;
  rows: number;
  sidebar: boolean;
  drawerOpen: boolean;
  drawerFull: boolean;
  /** A panel (help, grants, policy, mcp) is open above the prompt. */
  panel: boolean;
  /** The audit browser is open (full screen). */
  browser: boolean;
};

export type Layout = {
  /** Rows the whole live area may use. */
  budget: number;
  leftWidth: number;
  sidebar: { placement: 'side' | 'below' | 'hidden'; width: number; rows: number };
  drawerRows: number;
  panelRows: number;
  liveRows: number;
  browserRows: number;
};

export const STATUS_ROWS = 1;
export const PROMPT_ROWS = 2;
const SIDEBAR_WIDTH = 40;
/** Below this width a side column would squeeze the prompt; the sidebar goes under it instead. */
const SIDE_MIN_COLUMNS = 80;

export function computeLayout(input: LayoutInput): Layout {
  const columns = Math.max(20, input.columns);
  const budget = Math.max(4, input.rows - 1);
  const browserRows = budget - STATUS_ROWS;
  const showSidebar = input.sidebar && !(input.browser && !input.drawerOpen) && !input.drawerFull;
  const placement = !showSidebar ? 'hidden' : columns >= SIDE_MIN_COLUMNS ? 'side' : 'below';
  const sideWidth = Math.min(SIDEBAR_WIDTH, Math.floor(columns * 0.4));
  const sidebarRows =
    placement === 'side'
      ? Math.min(16, budget - STATUS_ROWS)
      : placement === 'below'
        ? Math.min(7, Math.floor(budget / 3))
        : 0;
  const leftWidth = placement === 'side' ? columns - sideWidth : columns;
  const below = placement === 'below' ? sidebarRows : 0;

  const room = budget - STATUS_ROWS - below;
  const drawerRows = !input.drawerOpen
    ? 0
    : input.drawerFull
      ? room
      : Math.max(
          Math.min(10, room - PROMPT_ROWS),
          Math.min(room - PROMPT_ROWS, Math.floor(input.rows * 0.6)),
        );
  const promptRows = input.drawerFull && input.drawerOpen ? 0 : PROMPT_ROWS;
  const panelRows = input.panel && !input.drawerOpen ? Math.max(5, Math.min(26, room - promptRows)) : 0;
  const liveRows = Math.max(0, room - promptRows - drawerRows - panelRows);
  return {
    budget,
    leftWidth,
    sidebar: { placement, width: placement === 'side' ? sideWidth : columns, rows: sidebarRows },
    drawerRows,
    panelRows,
    liveRows,
    browserRows,
  };
}
