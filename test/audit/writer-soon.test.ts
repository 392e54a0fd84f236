/**
 * `appendSoon`: the lines made in one turn of the microtask queue share one write (issue 16's burst),
 * and none is reported written before it is in the file, whole. A failed shared write fails every
 * line in it; an `append` meanwhile keeps the file in the order the lines were made; close and flush
 * write what waits; lines of two days go to their own files.
 */
import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AuditEntry, type AuditFs, createAuditWriter } from '../../src/audit/writer';
import { makeTemp, record } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

const DAY = '2025-01-02';
const entry = (argsHash: string, day = DAY): AuditEntry => {
  const { sessionId: _s, ...rest } = record({ argsHash, ts: `${day}T10:00:00.000Z` });
  return rest;
};
const now = () => new Date(`${DAY}T10:00:00.000Z`);
const hashesIn = (dir: string, day = DAY): string[] =>
  readFileSync(join(dir, `audit-${day}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { argsHash: string }).argsHash);

/** node:fs counting the writes of lines, with a switch that makes the next writes fail (ENOSPC). */
function countingFs() {
  const state = { writes: 0, fail: false };
  const counting: AuditFs = {
    ...fs,
    writeSync: ((fd: number, data: string | Buffer, ...rest: number[]) => {
      if (state.fail)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      state.writes++;
      return typeof data === 'string' ? fs.writeSync(fd, data) : fs.writeSync(fd, data, ...rest);
    }) as AuditFs['writeSync'],
  };
  return { state, fs: counting };
}

function writerIn(options: { fs?: AuditFs; onError?: () => void } = {}) {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  const writer = createAuditWriter({
    dir: t.dir,
    sessionId: 's1',
    onError: options.onError ?? (() => {}),
    now,
    probeEveryMs: 0,
    ...(options.fs ? { fs: options.fs } : {}),
  });
  cleanups.push(() => writer.close());
  return { dir: t.dir, writer };
}

describe('audit writer: lines that can wait share a write', () => {
  it('64 lines made in the same turn go out in one write, in order, each resolved only once it is in the file', async () => {
    const { state, fs: counting } = countingFs();
    const { dir, writer } = writerIn({ fs: counting });
    const hashes = Array.from({ length: 64 }, (_, i) => `h${i}`);
    const seenAtResolve: number[] = [];
    const appends = hashes.map((h) =>
      writer.appendSoon(entry(h)).then((written) => {
        seenAtResolve.push(hashesIn(dir).length);
        return written;
      }),
    );
    // Nothing is written before the turn ends: a caller that has not awaited has no claim yet.
    expect(state.writes).toBe(0);
    const results = await Promise.all(appends);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(state.writes).toBe(1);
    expect(hashesIn(dir)).toEqual(hashes);
    expect(seenAtResolve.every((n) => n === 64)).toBe(true);
    expect(results[3]?.record).toMatchObject({ argsHash: 'h3', sessionId: 's1' });
  });

  it('lines made in later turns get writes of their own', async () => {
    const { state, fs: counting } = countingFs();
    const { dir, writer } = writerIn({ fs: counting });
    expect((await writer.appendSoon(entry('a'))).ok).toBe(true);
    expect((await writer.appendSoon(entry('b'))).ok).toBe(true);
    expect(state.writes).toBe(2);
    expect(hashesIn(dir)).toEqual(['a', 'b']);
  });

  it('a shared write that fails fails every line in it, reported once; the next turn writes again', async () => {
    const { state, fs: counting } = countingFs();
    const onError = vi.fn();
    const { dir, writer } = writerIn({ fs: counting, onError });
    expect((await writer.appendSoon(entry('before'))).ok).toBe(true);
    state.fail = true;
    const failed = await Promise.all(['x', 'y', 'z'].map((h) => writer.appendSoon(entry(h))));
    expect(failed.map((r) => r.ok)).toEqual([false, false, false]);
    expect(failed[1]).toMatchObject({
      error: expect.objectContaining({ message: expect.stringMatching(/ENOSPC/) }),
    });
    expect(onError).toHaveBeenCalledTimes(1);
    state.fail = false;
    expect((await writer.appendSoon(entry('after'))).ok).toBe(true);
    expect(hashesIn(dir)).toEqual(['before', 'after']);
  });

  it('an append made while lines wait writes them first: the file keeps the order the lines were made in', async () => {
    const { dir, writer } = writerIn();
    const soon = writer.appendSoon(entry('first'));
    expect(writer.append(entry('second')).ok).toBe(true);
    // The waiting line is in the file already, before its promise is even looked at.
    expect(hashesIn(dir)).toEqual(['first', 'second']);
    expect((await soon).ok).toBe(true);
    expect(hashesIn(dir)).toEqual(['first', 'second']);
  });

  it('close and flush write what waits', async () => {
    const one = writerIn();
    const closing = one.writer.appendSoon(entry('at-close'));
    one.writer.close();
    expect(hashesIn(one.dir)).toEqual(['at-close']);
    expect((await closing).ok).toBe(true);

    const two = writerIn();
    const flushing = two.writer.appendSoon(entry('at-flush'));
    await two.writer.flush();
    expect(hashesIn(two.dir)).toEqual(['at-flush']);
    expect((await flushing).ok).toBe(true);
  });

  it("lines of two days in one turn go to their day's file, until the next day's has begun", async () => {
    const { dir, writer } = writerIn();
    const results = await Promise.all([
      writer.appendSoon(entry('d1-a')),
      writer.appendSoon(entry('d2-a', '2025-01-03')),
      writer.appendSoon(entry('d1-b')),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    // The next day's first line links to this day's last: a line of the day before made after it
    // goes on in the next day's file, so the day before's last line stays its last.
    expect(hashesIn(dir)).toEqual(['d1-a']);
    expect(hashesIn(dir, '2025-01-03')).toEqual(['d2-a', 'd1-b']);
  });

  it('a line that cannot be made fails alone; the others in its turn are written', async () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    // The clock breaks twice: when the unstamped entry asks it for its time, and when the one with a
    // timestamp that does not parse asks it for its day.
    let calls = 0;
    const flakyNow = () => {
      if (++calls <= 2) throw new Error('clock unavailable');
      return now();
    };
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's1',
      onError: () => {},
      now: flakyNow,
      probeEveryMs: 0,
    });
    cleanups.push(() => writer.close());
    const { ts: _ts, ...unstamped } = entry('bad');
    const results = await Promise.all([
      writer.appendSoon(entry('ok-1')),
      writer.appendSoon(unstamped),
      writer.appendSoon({ ...entry('bad-time'), ts: 'not a time' }),
      writer.appendSoon(entry('ok-2')),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, false, true]);
    expect(hashesIn(t.dir)).toEqual(['ok-1', 'ok-2']);
  });
});

describe('audit writer: written lines reach the disk soon, not only at the end of the session', () => {
  function syncingWriter(fdatasync: AuditFs['fdatasync'], onError = vi.fn()) {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's1',
      onError,
      now,
      probeEveryMs: 0,
      syncAfterMs: 5,
      fs: { ...fs, fdatasync },
    });
    cleanups.push(() => writer.close());
    return { writer, onError };
  }

  it('lines written in a burst are synced once, shortly after; a later line is synced again', async () => {
    const synced = vi.fn((fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
      fs.fdatasync(fd, done),
    );
    const { writer } = syncingWriter(synced as unknown as AuditFs['fdatasync']);
    for (const h of ['a', 'b', 'c']) expect(writer.append(entry(h)).ok).toBe(true);
    expect(synced).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(synced).toHaveBeenCalledTimes(1));
    expect((await writer.appendSoon(entry('d'))).ok).toBe(true);
    await vi.waitFor(() => expect(synced).toHaveBeenCalledTimes(2));
  });

  it('a sync the disk fails (EIO) is reported; a descriptor closed meanwhile (EBADF) is not', async () => {
    const failWith = (code: string) =>
      ((_fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
        done(Object.assign(new Error(`${code}: sync failed`), { code }))) as unknown as AuditFs['fdatasync'];
    const eio = syncingWriter(failWith('EIO'));
    expect(eio.writer.append(entry('a')).ok).toBe(true);
    await vi.waitFor(() =>
      expect(eio.onError).toHaveBeenCalledWith(
        expect.objectContaining({ message: expect.stringMatching(/EIO/) }),
      ),
    );

    let asked = 0;
    const closed = syncingWriter(((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      asked++;
      failWith('EBADF')(fd, done);
    }) as unknown as AuditFs['fdatasync']);
    expect(closed.writer.append(entry('a')).ok).toBe(true);
    await vi.waitFor(() => expect(asked).toBe(1));
    expect(closed.onError).not.toHaveBeenCalled();
  });

  it('a writer closed before its sync is due leaves no timer behind', () => {
    vi.useFakeTimers();
    try {
      const synced = vi.fn();
      const { writer } = syncingWriter(synced as unknown as AuditFs['fdatasync']);
      expect(writer.append(entry('a')).ok).toBe(true);
      expect(vi.getTimerCount()).toBe(1);
      writer.close();
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(100);
      expect(synced).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
