import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ExitSignals, SIGNAL_EXIT_CODES, drained, watchExitSignals } from '../../src/exit';

let watcher: ExitSignals | undefined;
afterEach(() => {
  watcher?.dispose();
  watcher = undefined;
  vi.useRealTimers();
});

describe('watchExitSignals', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    '%s: the listeners shut down once; a second signal ends at once with 128+n',
    (signal) => {
      const exit = vi.fn();
      const heard: string[] = [];
      watcher = watchExitSignals(60_000, exit);
      watcher.on((s) => heard.push(s));
      process.emit(signal, signal);
      expect(heard).toEqual([signal]);
      expect(watcher.received).toBe(signal);
      expect(exit).not.toHaveBeenCalled();
      // A listener attached late still hears the signal that came.
      const late = vi.fn();
      watcher.on(late);
      expect(late).toHaveBeenCalledWith(signal);
      process.emit('SIGTERM', 'SIGTERM');
      expect(exit).toHaveBeenCalledWith(SIGNAL_EXIT_CODES[signal]);
      expect(heard).toEqual([signal]);
    },
  );

  it('ends anyway when the orderly shutdown takes longer than the deadline', () => {
    vi.useFakeTimers();
    const exit = vi.fn();
    watcher = watchExitSignals(8000, exit);
    process.emit('SIGHUP', 'SIGHUP');
    vi.advanceTimersByTime(7999);
    expect(exit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledWith(129);
  });

  it('a listener that throws does not stop the others', () => {
    watcher = watchExitSignals(60_000, vi.fn());
    const second = vi.fn();
    watcher.on(() => {
      throw new Error('boom');
    });
    watcher.on(second);
    process.emit('SIGTERM', 'SIGTERM');
    expect(second).toHaveBeenCalled();
  });
});

describe('drained', () => {
  it('resolves only once everything written was taken by the reader', async () => {
    const pending: (() => void)[] = [];
    const slow = new Writable({
      highWaterMark: 16,
      write(_chunk, _enc, done) {
        pending.push(done);
      },
    });
    slow.write('x'.repeat(100));
    slow.write('y'.repeat(100));
    let resolved = false;
    const waiting = drained(slow).then(() => (resolved = true));
    pending.shift()?.();
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    expect(resolved).toBe(false);
    pending.shift()?.();
    await waiting;
    expect(slow.writableLength).toBe(0);
  });

  it('resolves at once when nothing is pending, and when the reader went away', async () => {
    await drained(new PassThrough());
    const gone = new Writable({ write() {} });
    gone.write('x'.repeat(100_000));
    const waiting = drained(gone);
    gone.destroy();
    await waiting;
  });
});
