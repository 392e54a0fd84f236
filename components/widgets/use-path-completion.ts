import { useCallback, useEffect, useRef } from 'react';
import type { CoreClient } from '../../src/protocol';

/** How long to wait for a core's answer; a core that does not know the command never answers. */
const ANSWER_MS = 3000;

/**
 * `@path` completion through the core: sends `complete_path` and resolves with the matches of the
 * `path_completions` event carrying the same request id.
 * Contract: never rejects; no answer within ANSWER_MS resolves [].
 */
export function usePathCompletion(client: CoreClient): (prefix: string) => Promise<string[]> {
  const waiting = useRef(new Map<string, (matches: string[]) => void>());
  const seq = useRef(0);
  useEffect(
    () =>
      client.subscribe(
        (event) => {
          if (event.type !== 'path_completions') return;
          const resolve = waiting.current.get(event.requestId);
          waiting.current.delete(event.requestId);
          resolve?.(event.matches);
        },
        ['path_completions'],
      ),
    [client],
  );
  return useCallback(
    (prefix: string) =>
      new Promise<string[]>((resolve) => {
        seq.current += 1;
        const requestId = `path-${seq.current}`;
        const timer = setTimeout(() => {
          waiting.current.delete(requestId);
          resolve([]);
        }, ANSWER_MS);
        waiting.current.set(requestId, (matches) => {
          clearTimeout(timer);
          resolve(matches);
        });
        client.send({ type: 'complete_path', requestId, prefix });
      }),
    [client],
  );
}
