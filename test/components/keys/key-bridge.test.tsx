import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { KeyBridgeProvider } from '../../../components/keys/key-bridge';
import { useKeys } from '../../../components/keys/use-keys';

/** `n` opens a field that records what is typed into it; the field's handler mounts with that key. */
function Form({ typed, seen }: { typed: string[]; seen: string[] }): ReactNode {
  const [open, setOpen] = useState(false);
  useKeys(
    (input) => {
      seen.push(input);
      if (input === 'n') setOpen(true);
    },
    { isActive: !open },
  );
  return open ? <Field typed={typed} /> : <Text>card</Text>;
}

function Field({ typed }: { typed: string[] }): ReactNode {
  useKeys((input) => typed.push(input), { isActive: true });
  return <Text>reason ›</Text>;
}

describe('the key bridge', () => {
  it.each([
    ['with the bridge, a key right after the one that opened a field reaches it', true, ['u', 's', 'e']],
    ['without it, Ink has not subscribed the field yet and the keys are lost', false, []],
  ])('%s', async (_l, bridged, expected) => {
    const typed: string[] = [];
    const seen: string[] = [];
    const form = <Form typed={typed} seen={seen} />;
    const app = render(bridged ? <KeyBridgeProvider>{form}</KeyBridgeProvider> : form);
    // Ink subscribes the card's own handler some time after its first commit: knock until it hears.
    await vi.waitFor(() => {
      app.stdin.write('x');
      expect(seen).toContain('x');
    });
    // The person sees the field and types at once: the keys arrive right after the frame is written,
    // before React runs the field's passive effects (a busy process reads stdin before setImmediates).
    const write = app.stdout.write.bind(app.stdout);
    let typedAtFrame = false;
    app.stdout.write = (frame: string) => {
      write(frame);
      if (!typedAtFrame && frame.includes('reason ›')) {
        typedAtFrame = true;
        queueMicrotask(() => {
          for (const key of ['u', 's', 'e']) app.stdin.write(key);
        });
      }
    };
    app.stdin.write('n');
    await vi.waitFor(() => expect(typedAtFrame).toBe(true));
    expect(typed).toEqual(expected);
    // Once Ink's subscription is live the bridge steps aside: a key is handed over once, not twice.
    await vi.waitFor(() => {
      app.stdin.write('!');
      expect(typed).toContain('!');
    });
    expect(typed).toEqual([...expected, '!']);
    expect(app.lastFrame()).toContain('reason ›');
    app.unmount();
  });
});
