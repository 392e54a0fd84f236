import { useEffect } from 'react';
import type { CoreClient } from '../../src/protocol';
import type { PromptMessage } from '../widgets/PromptInput';

/**
 * Forwards the core's `notice` and `error` events to `onMessage`, so an answer to a command
 * (e.g. "busy: prompt not accepted") shows right under the prompt that caused it.
 */
export function useCoreNotices(client: CoreClient, onMessage: (message: PromptMessage) => void): void {
  useEffect(
    () =>
      client.subscribe(
        (event) => {
          if (event.type === 'notice') onMessage({ level: event.level, text: event.text });
          else if (event.type === 'error') onMessage({ level: 'error', text: event.message });
        },
        ['notice', 'error'],
      ),
    [client, onMessage],
  );
}
