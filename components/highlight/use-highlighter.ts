import { useEffect, useState } from 'react';
import { highlighterReady, loadHighlighter } from './highlight';

/**
 * Whether `pathOrLang` (a file path or a code block's language tag) can be highlighted; starts
 * loading its grammar the first time a view asks with `enabled` (false under NO_COLOR: nothing is
 * loaded). The view re-renders once when it arrives.
 */
export function useHighlighter(enabled: boolean, pathOrLang: string | undefined): boolean {
  const [ready, setReady] = useState(() => highlighterReady(pathOrLang));
  useEffect(() => {
    if (!enabled) return;
    if (highlighterReady(pathOrLang)) {
      setReady(true);
      return;
    }
    setReady(false);
    let live = true;
    void loadHighlighter(pathOrLang).then((ok) => {
      if (live && ok) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [enabled, pathOrLang]);
  return enabled && ready;
}
