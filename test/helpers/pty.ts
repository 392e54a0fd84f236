import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type IPty, spawn } from '@lydell/node-pty';
import xterm from '@xterm/headless';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WARDEN_BIN = join(repo, 'dist', 'warden.js');

export type PtyApp = {
  pty: IPty;
  /** The headless terminal (for reading cells and colours). */
  term: InstanceType<typeof xterm.Terminal>;
  /** The visible screen as text, one line per row (trailing spaces trimmed). */
  screen(): string;
  /** Resolves when the screen shows the text (or matches); rejects with the screen after `timeoutMs`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the predicate holds for the screen. */
  waitUntil(predicate: (screen: string) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  press(keys: string): void;
  /**
   * Presses a key on an approval card and waits for what it should show. A key that lands inside
   * the drawer's grace window is refused with "keys paused"; then, like a person, wait and retry.
   */
  pressOnCard(key: string, shows: string | RegExp): Promise<void>;
  exited: Promise<number>;
  kill(): void;
};

/**
 * Ink rewrites the whole frame top to bottom, and a pty may deliver one frame in several chunks:
 * between them the lower lines are blank. A frame is whole once its last line — the status bar,
 * or any text when warden is not running its full-screen app — is on screen.
 */
function frameComplete(screen: string): boolean {
  const last = screen.trimEnd().split('\n').at(-1) ?? '';
  return !/\bmode \w/.test(screen) || /│ mode /.test(last);
}

/**
 * The real `warden` binary (dist/warden.js, built by `npm test`) in a pseudo-terminal, rendered by
 * a headless xterm so tests read the screen a person would see. Waits are for screen content,
 * never fixed sleeps.
 */
export function startWarden(
  args: string[],
  env: Record<string, string>,
  size = { cols: 120, rows: 40 },
  /** Another script to run the same way (the bench's bundled Ink floor). */
  bin = WARDEN_BIN,
): PtyApp {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
  const term = new xterm.Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true });
  const home = mkdtempSync(join(tmpdir(), 'warden-pty-home-'));
  const pty = spawn(process.execPath, [bin, ...args], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    cwd: env.WARDEN_TEST_CWD ?? repo,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: tmpdir(),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      ...env,
    },
  });
  const changed = new Set<() => void>();
  pty.onData((data) =>
    term.write(data, () => {
      for (const notify of [...changed]) notify();
    }),
  );
  // A real terminal answers queries (cursor position, keyboard protocol); so does this one.
  term.onData((reply) => pty.write(reply));
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  const screen = () => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < term.rows; i++)
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const waitUntil = (predicate: (s: string) => boolean, timeoutMs = 15_000, what = 'condition') =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        const now = screen();
        if (!predicate(now) || !frameComplete(now)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; screen:\n${screen()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        changed.delete(check);
      };
      changed.add(check);
      check();
    });
  const matches = (s: string, text: string | RegExp) =>
    typeof text === 'string' ? s.includes(text) : text.test(s);
  const pressOnCard = async (key: string, shows: string | RegExp) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      pty.write(key);
      let paused = false;
      await waitUntil(
        (s) => {
          paused = s.includes('keys paused');
          return paused || matches(s, shows);
        },
        15_000,
        String(shows),
      );
      if (!paused) return;
      await waitUntil((s) => !s.includes('keys paused'), 15_000, 'the grace window to end');
    }
    throw new Error(`${JSON.stringify(key)} never took effect`);
  };
  return {
    pty,
    term,
    screen,
    waitUntil,
    pressOnCard,
    waitFor: (text, timeoutMs) => waitUntil((s) => matches(s, text), timeoutMs, String(text)),
    press: (keys) => pty.write(keys),
    exited,
    kill: () => {
      try {
        pty.kill();
      } catch {
        // already gone
      }
    },
  };
}
