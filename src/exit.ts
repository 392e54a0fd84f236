/**
 * How warden ends: its exit codes, the signals it treats like Ctrl+C twice, and an exit that
 * waits for stdout to be read (README, "When things go wrong").
 */

import { isatty } from 'node:tty';

/**
 * warden's exit codes. A signal ends it with 128 + the signal's number, as shells report it; a
 * reader of stdout that went away (EPIPE) ends it as SIGPIPE would: 141.
 */
export const EXIT = {
  /** The task ended and every change it made ran. */
  ok: 0,
  /** The turn failed (the model server, the model, a broken config at start). */
  failed: 1,
  /** Bad flags or usage. */
  usage: 2,
  /** Headless: the task ended, but a change it asked for was refused (no_approver, a rule, a guard) or failed. */
  changesRefused: 3,
  /** The audit log could not be written, so calls were refused (audit_unavailable). */
  auditUnavailable: 4,
  /** Headless with `--on-ask park`: a call waits for a person; answer it (`warden approve ID`), then `--resume SESSION`. */
  parked: 5,
  /** Headless: the changes ran, but a turn's end checkpoint failed, so undo cannot cover all of them. */
  checkpointIncomplete: 6,
} as const;

export type ExitSignal = 'SIGHUP' | 'SIGINT' | 'SIGQUIT' | 'SIGTERM' | 'SIGPIPE';
/**
 * The signals warden listens for. SIGQUIT too: left to its default it killed warden at once, its
 * running command's process group living on and no outcome line written. Not SIGPIPE: Node ignores
 * it so that a write to a closed pipe fails with EPIPE, and a handler would turn any closed socket or
 * child's stdin into an exit; a reader of stdout that went away is reported through `raise`.
 */
export const EXIT_SIGNALS: readonly ExitSignal[] = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM'];
/** 128 + the signal number: 129, 130, 131, 141, 143. */
export const SIGNAL_EXIT_CODES: Record<ExitSignal, number> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGQUIT: 131,
  SIGPIPE: 141,
  SIGTERM: 143,
};

/** After the first signal, how long an orderly shutdown may take before warden ends anyway. */
export const SHUTDOWN_DEADLINE_MS = 8000;

export type ExitSignals = {
  /** The first signal received, if any. */
  readonly received: ExitSignal | undefined;
  /** Calls `fn` at the first signal (at once if one already came). Returns a detach function. */
  on(fn: (signal: ExitSignal) => void): () => void;
  /**
   * Starts the orderly shutdown as if `signal` had come, unless one already did; never ends the
   * process at once (a stream that keeps failing must not count as a second signal).
   */
  raise(signal: ExitSignal): void;
  /** Stops listening (the process keeps the default behaviour from then on). */
  dispose(): void;
};

/**
 * Listens for SIGTERM, SIGHUP, SIGINT and SIGQUIT. The first one is handed to the listeners, which shut down
 * in order (fail pending requests closed, kill commands, write outcome lines, restore the terminal);
 * a second one, or `deadlineMs` later, ends the process at once with the first signal's code — the
 * exit handler of run-ledger.ts still kills what commands left running.
 * Contract: never throws.
 */
export function watchExitSignals(
  deadlineMs = SHUTDOWN_DEADLINE_MS,
  exit: (code: number) => void = exitProcess,
): ExitSignals {
  let received: ExitSignal | undefined;
  const listeners = new Set<(signal: ExitSignal) => void>();
  const start = (signal: ExitSignal) => {
    received = signal;
    const timer = setTimeout(() => exit(SIGNAL_EXIT_CODES[signal]), deadlineMs);
    timer.unref();
    for (const fn of [...listeners]) {
      try {
        fn(signal);
      } catch {
        // One listener failing must not stop the others from shutting down.
      }
    }
  };
  const handler = (signal: ExitSignal) => {
    if (received) return exit(SIGNAL_EXIT_CODES[received]);
    start(signal);
  };
  for (const signal of EXIT_SIGNALS) process.on(signal, handler);
  return {
    get received() {
      return received;
    },
    on(fn) {
      listeners.add(fn);
      if (received) fn(received);
      return () => listeners.delete(fn);
    },
    raise(signal) {
      if (!received) start(signal);
    },
    dispose() {
      for (const signal of EXIT_SIGNALS) process.off(signal, handler);
      listeners.clear();
    },
  };
}

/**
 * Whether the terminal warden started in has hung up (the window closed, `tmux kill-session`): a
 * standard stream that was a terminal at start is not one any more (its tcgetattr fails). Pure read.
 */
export function terminalGone(): boolean {
  return (process.stdout.isTTY === true && !isatty(1)) || (process.stdin.isTTY === true && !isatty(0));
}

/**
 * Ends the process with `code`. With the terminal gone, Node's own restore of it at exit fails and
 * kills the process (SIGABRT, nodejs/node#51519; SIGSEGV seen here) after everything else was done:
 * so the process ends by its signal instead, the default way, which restores nothing — there is no
 * terminal left to restore. Contract: never returns.
 */
export function exitProcess(code: number): never {
  if (terminalGone()) {
    const signal = Object.entries(SIGNAL_EXIT_CODES).find(([, n]) => n === code)?.[0];
    // SIGQUIT's default dumps core and SIGPIPE is ignored by Node: the hang-up is what ended it.
    const raised = signal === 'SIGINT' || signal === 'SIGTERM' ? signal : 'SIGHUP';
    process.removeAllListeners(raised);
    process.kill(process.pid, raised);
  }
  process.exit(code);
}

/**
 * Resolves once everything written to `stream` has been handed to the OS: a slow reader of
 * `--json` output gets all of it, the `result` line too, before the process exits.
 * Contract: never rejects; a stream that errors or closes (the reader went away) resolves too.
 */
export function drained(
  stream: NodeJS.WritableStream & { writableLength?: number; destroyed?: boolean },
): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writableLength) return resolve();
    const done = () => {
      stream.off('drain', check);
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    const check = () => {
      if (!stream.writableLength) done();
    };
    stream.on('drain', check);
    stream.on('error', done);
    stream.on('close', done);
  });
}
