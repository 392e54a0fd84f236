import { useEffect, useState } from 'react';
import { LIST_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';

/**
 * A cursor over `length` rows moved with ↑/↓, PgUp/PgDn, Home/End; kept in range when the list
 * shrinks (a revoked grant, a narrower filter).
 */
export function useListCursor(length: number, options: { isActive: boolean; page?: number }) {
  const [cursor, setCursor] = useState(0);
  const page = Math.max(1, options.page ?? 10);
  useEffect(() => {
    setCursor((c) => Math.max(0, Math.min(c, length - 1)));
  }, [length]);
  const move = (delta: number) => () => setCursor((c) => Math.max(0, Math.min(length - 1, c + delta)));
  useKeyTable(
    LIST_KEYS,
    {
      up: move(-1),
      down: move(1),
      page_up: move(-page),
      page_down: move(page),
      top: () => setCursor(0),
      bottom: () => setCursor(Math.max(0, length - 1)),
    },
    { isActive: options.isActive },
  );
  return [cursor, setCursor] as const;
}

/** The first row to show so that `cursor` stays inside a window of `rows` rows. */
export function windowStart(cursor: number, length: number, rows: number): number {
  if (length <= rows) return 0;
  return Math.max(0, Math.min(cursor - Math.floor(rows / 2), length - rows));
}
