import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type IPty, spawn } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { noManagedLayer } from './managed-env';

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
export function wardenFrameComplete(screen: string): boolean {
  const last = screen.trimEnd().split('\n').at(-1) ?? '';
  return !/\bmode \w/.test(screen) || /│ mode /.test(last);
}

/**
 * The real `warden` binary (dist/warden.js, built by `npm test`) in a pseudo-terminal, rendered by
 * a headless xterm so tests read the screen a person would see. Waits are for screen content,
 * never fixed sleeps. `nodeArgs` go to node before the script (e.g. `--cpu-prof` when profiling).
 */
export function startWarden(
  args: string[],
  env: Record<string, string>,
  size = { cols: 120, rows: 40 },
  /** Another warden build to run the same way (a bench's before/after). */
  bin = WARDEN_BIN,
  nodeArgs: string[] = [],
): PtyApp {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
  const cwd = env.WARDEN_TEST_CWD ?? repo;
  return startNodeProgram(bin, args, env, { size, cwd, frameComplete: wardenFrameComplete, nodeArgs });
}

/** How another program is run in the same harness (the benches' peers). */
export type NodeProgramOptions = {
  size?: { cols: number; rows: number };
  cwd?: string;
  /** Flags for node before the script, e.g. `['--cpu-prof']` to profile a run. */
  nodeArgs?: string[];
  /** When a screen is a whole frame; default: always (only warden's status bar is known here). */
  frameComplete?: (screen: string) => boolean;
};

/**
 * Any Node program (`node <script> ...args`) in the same pty and headless xterm as warden, with a
 * fresh temp HOME (overridable through `env.HOME`), so a bench can run warden and a peer alike.
 */
export function startNodeProgram(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: NodeProgramOptions = {},
): PtyApp {
  const size = options.size ?? { cols: 120, rows: 40 };
  const whole = options.frameComplete ?? (() => true);
  const term = new xterm.Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true });
  const home = mkdtempSync(join(tmpdir(), 'warden-pty-home-'));
  const pty = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    cwd: options.cwd ?? repo,
    env: {
      ...noManagedLayer(),
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
  // Exited once what the program wrote is on the screen: xterm parses writes in order, so an empty
  // write's callback runs after everything received before the exit.
  // The temp HOME goes with the program (nothing outside reads it: tests pass their own WARDEN_HOME).
  const exited = new Promise<number>((resolve) =>
    pty.onExit(({ exitCode }) => {
      rmSync(home, { recursive: true, force: true });
      term.write('', () => resolve(exitCode));
    }),
  );
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
        if (!predicate(now) || !whole(now)) return;
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
