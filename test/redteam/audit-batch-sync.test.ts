/**
 * Red team, the periodic fdatasync of the audit writer (`syncAfterMs`): lines written reach the disk
 * within the sync delay even when their file is closed before the sync is due (the day turned, a
 * write failed), no descriptor is synced once closed, and a disk whose syncs keep failing is reported
 * once — not as a failure and a recovery every second.
 */
import * as fs from 'node:fs';
import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AuditEntry, type AuditFs, createAuditWriter } from '../../src/audit/writer';
import { makeTemp, record } from '../audit/helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

const DAY = '2025-01-02';
const NEXT = '2025-01-03';
const entry = (argsHash: string, day = DAY): AuditEntry => {
  const { sessionId: _s, ...rest } = record({ argsHash, ts: `${day}T23:59:59.999Z` });
  return rest;
};

type Sync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;

/** A writer whose file operations are logged: `sync <file>` and `close <file>`, in the order they happen. */
function loggedWriter(o: { fdatasync?: Sync; onError?: () => void; onRecover?: () => void } = {}) {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  const log: string[] = [];
  const nameOf = (fd: number) => {
    try {
      return basename(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      return `closed fd ${fd}`;
    }
  };
  const logged: AuditFs = {
    ...fs,
    fdatasync: ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      log.push(`sync ${nameOf(fd)}`);
      (o.fdatasync ?? fs.fdatasync)(fd, done);
    }) as AuditFs['fdatasync'],
    closeSync: ((fd: number) => {
      log.push(`close ${nameOf(fd)}`);
      fs.closeSync(fd);
    }) as AuditFs['closeSync'],
  };
  const writer = createAuditWriter({
    dir: t.dir,
    sessionId: 's1',
    onError: o.onError ?? (() => {}),
    ...(o.onRecover ? { onRecover: o.onRecover } : {}),
    now: () => new Date(`${DAY}T23:59:59.999Z`),
    probeEveryMs: 0,
    syncAfterMs: 5,
    fs: logged,
  });
  cleanups.push(() => writer.close());
  return { writer, log };
}

describe('lines reach the disk even when their file closes before the sync is due', () => {
  it('the day turns right after a line: the old day file is synced before it is closed', async () => {
    const { writer, log } = loggedWriter();
    expect((await writer.appendSoon(entry('last-of-day'))).ok).toBe(true);
    expect((await writer.appendSoon(entry('first-of-next', NEXT))).ok).toBe(true);
    await vi.waitFor(() => expect(log).toContain(`sync audit-${NEXT}.jsonl`));
    const closedAt = log.indexOf(`close audit-${DAY}.jsonl`);
    expect(closedAt).toBeGreaterThan(-1);
    expect(log.slice(0, closedAt)).toContain(`sync audit-${DAY}.jsonl`);
  });
});

describe('a disk whose syncs keep failing', () => {
  it('is reported once, not as a failure and a recovery at every line; no line is taken until a sync succeeds', async () => {
    const onError = vi.fn();
    const onRecover = vi.fn();
    let syncs = 0;
    const { writer } = loggedWriter({
      onError,
      onRecover,
      fdatasync: (_fd, done) => {
        syncs++;
        done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      },
    });
    expect((await writer.appendSoon(entry('line-1'))).ok).toBe(true);
    await vi.waitFor(() => expect(syncs).toBe(1));
    // The log cannot keep its lines: the next ones are refused (the gate then runs nothing), and a
    // probe's sync that fails again is not a second report.
    for (let i = 2; i <= 3; i++) {
      const refused = await writer.appendSoon(entry(`line-${i}`));
      expect(refused).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/could not be put on disk.*EIO/) },
      });
      expect(writer.probe()).toBe(false);
      await vi.waitFor(() => expect(syncs).toBe(i));
    }
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onRecover).not.toHaveBeenCalled();
  });

  it('a sync that works again is a recovery', async () => {
    const onError = vi.fn();
    const onRecover = vi.fn();
    let failing = true;
    let syncs = 0;
    const { writer } = loggedWriter({
      onError,
      onRecover,
      fdatasync: (fd, done) => {
        syncs++;
        if (failing) done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
        else fs.fdatasync(fd, done);
      },
    });
    expect((await writer.appendSoon(entry('a'))).ok).toBe(true);
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect((await writer.appendSoon(entry('refused'))).ok).toBe(false);
    failing = false;
    // The writer's probe (every 2 s while failing; called here) tries the sync again.
    expect(writer.probe()).toBe(false);
    await vi.waitFor(() => expect(onRecover).toHaveBeenCalledTimes(1));
    expect(syncs).toBe(2);
    expect((await writer.appendSoon(entry('b'))).ok).toBe(true);
    expect(writer.probe()).toBe(true);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
