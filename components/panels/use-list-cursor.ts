import { useEffect, useState } from 'react';
import { useKeys } from '../keys/use-keys';

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
  useKeys(
    (_input, key) => {
      const move = (delta: number) => setCursor((c) => Math.max(0, Math.min(length - 1, c + delta)));
      if (key.upArrow) move(-1);
      else if (key.downArrow) move(1);
      else if (key.pageUp) move(-page);
      else if (key.pageDown) move(page);
      else if (key.home) setCursor(0);
      else if (key.end) setCursor(Math.max(0, length - 1));
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
