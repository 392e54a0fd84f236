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
  /** `folded`: asked for, but the terminal is too narrow for a column: one line says so. */
  sidebar: { placement: 'side' | 'folded' | 'hidden'; width: number; rows: number };
  drawerRows: number;
  panelRows: number;
  liveRows: number;
  browserRows: number;
};

export const STATUS_ROWS = 1;
export const PROMPT_ROWS = 2;
const SIDEBAR_WIDTH = 44;
/** Below this width a side column would squeeze the conversation and the cards: it folds away. */
export const SIDE_MIN_COLUMNS = 100;

export function computeLayout(input: LayoutInput): Layout {
  const columns = Math.max(20, input.columns);
  const budget = Math.max(4, input.rows - 1);
  const browserRows = budget - STATUS_ROWS;
  const showSidebar = input.sidebar && !(input.browser && !input.drawerOpen) && !input.drawerFull;
  const placement = !showSidebar ? 'hidden' : columns >= SIDE_MIN_COLUMNS ? 'side' : 'folded';
  const sideWidth = Math.min(SIDEBAR_WIDTH, Math.floor(columns * 0.4));
  // A real column: the whole height beside the conversation, the cards and the prompt.
  const sidebarRows = placement === 'side' ? budget - STATUS_ROWS : placement === 'folded' ? 1 : 0;
  const leftWidth = placement === 'side' ? columns - sideWidth : columns;
  const below = placement === 'folded' ? sidebarRows : 0;

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
