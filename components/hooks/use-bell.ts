import { useStdout } from 'ink';
import { useEffect, useRef } from 'react';

/**
 * Rings the terminal bell once each time `active` turns true (the queue going from empty to
 * non-empty). `ring` replaces the default write through Ink's stdout, for tests and quiet mode.
 */
export function useBell(active: boolean, ring?: () => void): void {
  const { write } = useStdout();
  const was = useRef(false);
  useEffect(() => {
    if (active && !was.current) {
      if (ring) ring();
      else write('\u0007');
    }
    was.current = active;
  }, [active, ring, write]);
}
