import { useCallback, useRef, useState } from 'react';

/**
 * Submitted prompts for ↑/↓ recall. `older`/`newer` return the text to show, or undefined when
 * there is nothing further; leaving the newest entry with ↓ restores the unsent draft.
 */
export function usePromptHistory() {
  const [entries, setEntries] = useState<string[]>([]);
  const index = useRef<number | undefined>(undefined);
  const draft = useRef('');

  const push = useCallback((text: string) => {
    setEntries((prev) => (prev[prev.length - 1] === text ? prev : [...prev, text]));
    index.current = undefined;
  }, []);

  const older = useCallback(
    (current: string): string | undefined => {
      if (entries.length === 0 || index.current === 0) return undefined;
      if (index.current === undefined) draft.current = current;
      index.current = (index.current ?? entries.length) - 1;
      return entries[index.current];
    },
    [entries],
  );

  const newer = useCallback((): string | undefined => {
    if (index.current === undefined) return undefined;
    if (index.current >= entries.length - 1) {
      index.current = undefined;
      return draft.current;
    }
    index.current += 1;
    return entries[index.current];
  }, [entries]);

  return { entries, push, older, newer };
}
