import { useEffect, useState } from 'react';
import { highlighterReady, loadHighlighter } from './highlight';

/**
 * Whether highlighting is ready; starts loading the grammars the first time a view asks with
 * `enabled` (false under NO_COLOR: nothing is loaded). The view re-renders once when they arrive.
 */
export function useHighlighter(enabled: boolean): boolean {
  const [ready, setReady] = useState(highlighterReady);
  useEffect(() => {
    if (!enabled || ready) return;
    let live = true;
    void loadHighlighter().then((ok) => {
      if (live && ok) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [enabled, ready]);
  return enabled && ready;
}
