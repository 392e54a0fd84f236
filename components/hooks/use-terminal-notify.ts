import { useStdout } from 'ink';
import { useEffect } from 'react';
import type { CoreClient } from '../../src/protocol';
import type { Notification, NotifyTerminal } from '../../src/protocol/events';

/**
 * The terminal's own notification for each core `notify` event: OSC 9 (iTerm2, WezTerm, Windows
 * Terminal, kitty, ghostty), OSC 777 `notify` (VTE terminals, foot, Konsole), or the bell. None of them
 * draws anything or moves the cursor, so it goes straight to the terminal between frames: Ink's own
 * `write` erases the whole frame and draws it again around the bytes, a full screen twice right
 * before the card that caused the notification (profiled on the first card, issue 34).
 */
export function useTerminalNotify(client: CoreClient): void {
  const { stdout } = useStdout();
  useEffect(
    () =>
      client.subscribe(
        (event) => {
          if (event.type === 'notify') stdout.write(notificationSequence(event.terminal, event.notification));
        },
        ['notify'],
      ),
    [client, stdout],
  );
}

/** The bytes that make `terminal` show `n`. The text is printable already; `;` would end an OSC 777 field. */
export function notificationSequence(terminal: NotifyTerminal, n: Notification): string {
  const text = n.text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  if (terminal === 'osc9') return `\u001b]9;${text}\u0007`;
  if (terminal === 'osc777') return `\u001b]777;notify;warden;${text.replaceAll(';', ',')}\u0007`;
  return '\u0007';
}
