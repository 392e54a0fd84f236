/**
 * How a card's help rows fit its height, pure: one row per key when they fit, else side-by-side
 * columns (filled top to bottom), so no key falls below the view at 80x24.
 */

export type HelpCell = { keys: string; does: string };

export type HelpLayout = {
  /** Screen lines of cells (each line holds one cell per column). */
  lines: HelpCell[][];
  columnWidth: number;
  keysWidth: number;
  /** Whether the "unknown keys count as mistakes" line fits too. */
  note: boolean;
  /** Rows in all: title, lines and the note. */
  height: number;
};

/** Lays `rows` out in `width` × `height` (the title line included). */
export function helpColumns(rows: readonly HelpCell[], width: number, height: number): HelpLayout {
  const keysWidth = Math.max(0, ...rows.map((r) => r.keys.length)) + 2;
  const room = Math.max(1, height - 1);
  const note = rows.length + 1 <= room;
  const columns = Math.max(1, Math.ceil(rows.length / room));
  const perColumn = Math.ceil(rows.length / columns);
  const lines: HelpCell[][] = [];
  for (let i = 0; i < perColumn; i++) {
    const line: HelpCell[] = [];
    for (let c = 0; c < columns; c++) {
      const cell = rows[c * perColumn + i];
      if (cell) line.push(cell);
    }
    lines.push(line);
  }
  const columnWidth = Math.max(keysWidth + 2, Math.floor(width / columns));
  return { lines, columnWidth, keysWidth, note, height: 1 + lines.length + (note ? 1 : 0) };
}
