import { vi } from 'vitest';

/** Raw key sequences to write to ink-testing-library's stdin. */
export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  shiftTab: '\u001B[Z',
  backspace: '\u007F',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
  ctrlC: '\u0003',
  /** Ctrl+<letter>, e.g. ctrl('a') === '\u0001'. */
  ctrl: (letter: string): string => String.fromCharCode(letter.toLowerCase().charCodeAt(0) - 96),
} as const;

/** Removes ANSI escape sequences so assertions read plain text. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001B\[[0-9;?]*[ -/]*[@-~]/g, '');
}

/**
 * Waits until the latest frame (ANSI stripped) satisfies `predicate`, polling without a fixed
 * sleep; fails with the last frame in the message so a broken test shows what it saw.
 */
export async function waitForFrame(
  lastFrame: () => string | undefined,
  predicate: string | RegExp | ((frame: string) => boolean),
  timeout = 3000,
): Promise<string> {
  const test =
    typeof predicate === 'string'
      ? (f: string) => f.includes(predicate)
      : predicate instanceof RegExp
        ? (f: string) => predicate.test(f)
        : predicate;
  let frame = '';
  await vi.waitFor(
    () => {
      frame = stripAnsi(lastFrame() ?? '');
      if (!test(frame)) throw new Error(`frame did not match ${String(predicate)}:\n${frame}`);
    },
    { timeout, interval: 5 },
  );
  return frame;
}

/** Waits until `check` stops throwing (e.g. an expect on sent commands). */
export async function waitUntil(check: () => void, timeout = 3000): Promise<void> {
  await vi.waitFor(check, { timeout, interval: 5 });
}

/**
 * Turns of the event loop after each key. Ink re-subscribes input handlers in passive effects,
 * which React's scheduler runs on a later setImmediate; a key written before that reaches the
 * previous render's handler (stale value). Yielding is ordering, not a timed sleep.
 */
const YIELDS = 5;

/**
 * Writes keys one at a time, letting React commit and flush effects between them, so each is its
 * own keypress seen by up-to-date handlers (one write of several keys would be one chunk).
 */
export async function press(stdin: { write: (data: string) => void }, ...keys: string[]): Promise<void> {
  const settle = async () => {
    for (let i = 0; i < YIELDS; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  // Settle first too: the frame a test waited for may be committed while its effects are not.
  await settle();
  for (const key of keys) {
    stdin.write(key);
    await settle();
  }
}

/** Types text character by character. */
export async function type(stdin: { write: (data: string) => void }, text: string): Promise<void> {
  await press(stdin, ...[...text]);
}

/** A Key with nothing pressed, for pure key-handling tests: spread it and set what a test presses. */
export { NO_KEY } from '../../components/keys/key-burst';
