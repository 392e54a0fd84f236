/**
 * Red team, faults: the exit-signal watcher's contract for what the e2e cases lean on. SIGQUIT is
 * one of the signals that shut down in order; a stream error raised as SIGPIPE starts the same
 * shutdown once and, however often it repeats, never counts as the second signal that ends at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ExitSignals, SIGNAL_EXIT_CODES, watchExitSignals } from '../../src/exit';

let watcher: ExitSignals | undefined;
afterEach(() => {
  watcher?.dispose();
  watcher = undefined;
});

describe('exit signals: SIGQUIT and a reader gone', () => {
  it('SIGQUIT shuts down in order (131); a second signal ends at once', () => {
    const exit = vi.fn();
    const heard: string[] = [];
    watcher = watchExitSignals(60_000, exit);
    watcher.on((s) => heard.push(s));
    process.emit('SIGQUIT', 'SIGQUIT');
    expect(heard).toEqual(['SIGQUIT']);
    expect(exit).not.toHaveBeenCalled();
    process.emit('SIGQUIT', 'SIGQUIT');
    expect(exit).toHaveBeenCalledWith(131);
  });

  it('raise(SIGPIPE) repeated: one shutdown, never an exit at once; a real signal after it still ends at once', () => {
    const exit = vi.fn();
    const heard: string[] = [];
    watcher = watchExitSignals(60_000, exit);
    watcher.on((s) => heard.push(s));
    for (let i = 0; i < 5; i++) watcher.raise('SIGPIPE');
    expect(heard).toEqual(['SIGPIPE']);
    expect(watcher.received).toBe('SIGPIPE');
    expect(exit).not.toHaveBeenCalled();
    process.emit('SIGTERM', 'SIGTERM');
    expect(exit).toHaveBeenCalledWith(SIGNAL_EXIT_CODES.SIGPIPE);
    expect(SIGNAL_EXIT_CODES.SIGPIPE).toBe(141);
  });

  it('raise after a signal changes nothing: the first signal keeps its code', () => {
    const exit = vi.fn();
    watcher = watchExitSignals(60_000, exit);
    process.emit('SIGHUP', 'SIGHUP');
    watcher.raise('SIGPIPE');
    expect(watcher.received).toBe('SIGHUP');
    expect(exit).not.toHaveBeenCalled();
  });

  it('SIGPIPE itself is not listened for (a closed child stdin or socket must not end warden)', () => {
    const before = process.listenerCount('SIGPIPE');
    watcher = watchExitSignals(60_000, vi.fn());
    expect(process.listenerCount('SIGPIPE')).toBe(before);
    expect(process.listenerCount('SIGQUIT')).toBeGreaterThan(0);
  });
});
