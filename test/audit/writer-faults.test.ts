/**
 * The audit writer when the disk says no: a full disk (mid-line or before the first byte), a
 * read-only WARDEN_HOME, a file where the audit folder should be. The writer must say the line is
 * not written (the gate then runs nothing), report once, notice when the log is writable again,
 * and close a torn line before the next append — in this session or a later one.
 */
import * as fs from 'node:fs';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scanAudit } from '../../src/audit/reader';
import { type AuditEntry, type AuditFs, createAuditWriter } from '../../src/audit/writer';
import { record } from './helpers';
import { NO_MOUNT, bindReadOnly, canMount, fillDisk, mountTmpfs, remountWritable, unmount } from './mounts';
import { makeTemp } from './helpers';
import { fillableFs, written } from './fillable-fs';
import { auditDayFiles } from '../helpers/audit-lines';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});
function temp(): string {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  return t.dir;
}

const DAY = '2025-01-02';
const entry = (argsHash: string): AuditEntry => {
  const { sessionId: _s, ...rest } = record({ argsHash, ts: `${DAY}T10:00:00.000Z` });
  return rest;
};
const now = () => new Date(`${DAY}T10:00:00.000Z`);
const lines = (dir: string) => readFileSync(join(dir, `audit-${DAY}.jsonl`), 'utf8').split('\n');

describe('audit writer faults (injected file system)', () => {
  it.each([
    ['the disk fills mid-line', 40],
    ['the disk is full before the first byte', 0],
  ])(
    '%s: not written, reported once, probing recovers, the torn tail is closed and marked',
    async (_label, cut) => {
      const dir = temp();
      const { disk, fs: faulty } = fillableFs();
      const onError = vi.fn();
      const onRecover = vi.fn();
      const writer = createAuditWriter({
        dir,
        sessionId: 's1',
        onError,
        onRecover,
        now,
        fs: faulty,
        probeEveryMs: 10,
      });
      cleanups.push(() => writer.close());
      expect(writer.append(entry('before')).ok).toBe(true);

      disk.full = true;
      disk.cut = cut;
      const failed = writer.append(entry('lost'));
      expect(failed).toMatchObject({
        ok: false,
        error: expect.objectContaining({ message: expect.stringMatching(/ENOSPC/) }),
      });
      expect(writer.append(entry('lost-too')).ok).toBe(false);
      expect(onError).toHaveBeenCalledTimes(1);
      expect(writer.probe()).toBe(false);
      expect(onRecover).not.toHaveBeenCalled();

      disk.full = false;
      // The writer's own probe notices, without another append.
      await vi.waitFor(() => expect(onRecover).toHaveBeenCalledTimes(1));
      expect(writer.append(entry('after')).ok).toBe(true);
      writer.close();

      const text = lines(dir);
      expect(JSON.parse(text[0] as string).argsHash).toBe('before');
      if (cut > 0) {
        expect(text[1]).toHaveLength(cut);
        expect(JSON.parse(text[2] as string)).toMatchObject({
          repair: 'torn_line',
          tornBytes: cut,
          sessionId: 's1',
        });
        expect(JSON.parse(text[3] as string).argsHash).toBe('after');
      } else {
        expect(JSON.parse(text[1] as string).argsHash).toBe('after');
      }
      const scan = scanAudit(dir, { from: DAY, to: DAY }, now());
      expect(scan.records.map((r) => r.argsHash)).toEqual(['before', 'after']);
      expect(scan.unreadable).toMatchObject({ count: cut > 0 ? 1 : 0, torn: cut > 0 ? 1 : 0 });
    },
  );

  it('a line whose write is cut short, on a disk that is not full, is finished from its bytes (multi-byte text too)', () => {
    const dir = temp();
    let cutNext = 7;
    const shortOnce: AuditFs = {
      ...fs,
      writeSync: ((fd: number, data: Buffer | string, at?: number, size?: number) => {
        const { buffer, offset, length } = written(data, at, size);
        const n = fs.writeSync(fd, buffer, offset, cutNext > 0 ? Math.min(cutNext, length) : length);
        cutNext = 0;
        return n;
      }) as AuditFs['writeSync'],
    };
    const writer = createAuditWriter({ dir, sessionId: 's1', onError: vi.fn(), now, fs: shortOnce });
    cleanups.push(() => writer.close());
    const record = { ...entry('cut'), args: { path: 'héllo ✓ 文件.txt' } };
    expect(writer.append(record).ok).toBe(true);
    expect(writer.append(entry('next')).ok).toBe(true);
    writer.close();
    const text = lines(dir);
    expect(JSON.parse(text[0] as string)).toMatchObject({
      argsHash: 'cut',
      args: { path: 'héllo ✓ 文件.txt' },
    });
    expect(JSON.parse(text[1] as string).argsHash).toBe('next');
    expect(text[2]).toBe('');
  });

  it('a file where the audit folder should be (root ignores chmod): not written until it is a folder again', async () => {
    const home = temp();
    const dir = join(home, 'audit');
    writeFileSync(dir, 'not a folder');
    const onRecover = vi.fn();
    const writer = createAuditWriter({ dir, onError: () => {}, onRecover, now, probeEveryMs: 10 });
    cleanups.push(() => writer.close());
    expect(writer.append(entry('x'))).toMatchObject({ ok: false });
    expect(writer.probe()).toBe(false);
    rmSync(dir);
    await vi.waitFor(() => expect(onRecover).toHaveBeenCalledTimes(1));
    expect(writer.append(entry('y')).ok).toBe(true);
    expect(auditDayFiles(dir)).toEqual([`audit-${DAY}.jsonl`]);
  });
});

describe('a torn tail left by an earlier session', () => {
  it.each([
    ['a clean file is left as it was', '{"a":1}\n', 0],
    [
      'a torn last line is closed and marked',
      '{"a":1}\n{"ts":"2025-01-02T09:',
      '{"ts":"2025-01-02T09:'.length,
    ],
    ['a file that is only a torn line', '{"ts":', 6],
  ])('%s', (_label, before, torn) => {
    const dir = temp();
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, `audit-${DAY}.jsonl`), before);
    const writer = createAuditWriter({ dir, sessionId: 'later', onError: () => {}, now });
    expect(writer.append(entry('new')).ok).toBe(true);
    writer.close();
    const text = lines(dir).filter(Boolean);
    expect(JSON.parse(text.at(-1) as string).argsHash).toBe('new');
    const marker = text.map((l) => (l.includes('"repair"') ? JSON.parse(l) : undefined)).find(Boolean);
    if (torn === 0) expect(marker).toBeUndefined();
    else expect(marker).toMatchObject({ repair: 'torn_line', tornBytes: torn, sessionId: 'later' });
    expect(readFileSync(join(dir, `audit-${DAY}.jsonl`), 'utf8').startsWith(before)).toBe(true);
  });
});

describe('a line another process is writing at that moment', () => {
  it('is not taken for a torn tail: the writer looks again until the file keeps still', () => {
    const dir = temp();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `audit-${DAY}.jsonl`);
    // The other writer's line is half on disk when this writer opens the file; it finishes a moment later.
    appendFileSync(file, '{"a":1}\n{"other":"half');
    let looks = 0;
    const racing: AuditFs = {
      ...fs,
      fstatSync: ((fd: number) => {
        looks += 1;
        if (looks === 3) appendFileSync(file, ' done"}\n');
        return fs.fstatSync(fd);
      }) as AuditFs['fstatSync'],
    };
    const writer = createAuditWriter({ dir, sessionId: 'w', onError: () => {}, now, fs: racing });
    expect(writer.append(entry('mine')).ok).toBe(true);
    writer.close();
    expect(lines(dir)).toEqual(['{"a":1}', '{"other":"half done"}', expect.stringContaining('"mine"'), '']);
  });
});

describe('audit writer faults (real mounts)', () => {
  it.skipIf(!canMount)(
    'a full tmpfs: the line is refused; freeing space lets the writer recover and repair',
    async () => {
      const dir = temp();
      mountTmpfs(dir, 512);
      cleanups.push(() => unmount(dir));
      const onError = vi.fn();
      const onRecover = vi.fn();
      const writer = createAuditWriter({
        dir,
        onError,
        onRecover,
        now,
        probeEveryMs: 10,
        maxStringLength: 100_000,
      });
      cleanups.push(() => writer.close());
      expect(writer.append(entry('first')).ok).toBe(true);
      // Fill the disk to the last byte.
      fillDisk(dir);
      const filler = join(dir, 'filler');
      // Several pages: more than any free tail of the file's last page.
      expect(writer.append({ ...entry('big'), result: 'r'.repeat(20_000) })).toMatchObject({
        ok: false,
        error: expect.objectContaining({ message: expect.stringMatching(/ENOSPC/) }),
      });
      expect(writer.probe()).toBe(false);
      expect(onError).toHaveBeenCalledTimes(1);
      rmSync(filler);
      await vi.waitFor(() => expect(onRecover).toHaveBeenCalledTimes(1));
      expect(writer.append(entry('after')).ok).toBe(true);
      const scan = scanAudit(dir, { from: DAY, to: DAY }, now());
      expect(scan.records.map((r) => r.argsHash)).toEqual(['first', 'after']);
      expect(scan.unreadable.count).toBe(scan.unreadable.torn);
    },
  );

  it.skipIf(!canMount)(
    'a read-only WARDEN_HOME (bind mount): nothing is written; writable again, the writer recovers',
    async () => {
      const home = temp();
      mkdirSync(join(home, 'audit'));
      bindReadOnly(home);
      cleanups.push(() => unmount(home));
      const onRecover = vi.fn();
      const writer = createAuditWriter({
        dir: join(home, 'audit'),
        onError: () => {},
        onRecover,
        now,
        probeEveryMs: 10,
      });
      cleanups.push(() => writer.close());
      expect(writer.append(entry('x'))).toMatchObject({
        ok: false,
        error: expect.objectContaining({ message: expect.stringMatching(/EROFS|read-only/i) }),
      });
      remountWritable(home);
      await vi.waitFor(() => expect(onRecover).toHaveBeenCalledTimes(1));
      expect(writer.append(entry('y')).ok).toBe(true);
    },
  );

  it.skipIf(canMount)(NO_MOUNT, () => {});
});
