/**
 * Red team, the audit writer's shared writes (`appendSoon`): a disk that fills in the middle of a
 * batch, lines of two days in one turn, `append` and `appendSoon` mixed, the writer closed while
 * lines wait, redaction line by line inside one write, and an audit file that is not a file (a FIFO,
 * /dev/null behind a symlink) put there mid-session. No line may be reported written unless it is in
 * a regular file, whole; a failed write fails every line of it and no other.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scanAudit } from '../../src/audit/reader';
import { type AuditEntry, type AuditFs, createAuditWriter } from '../../src/audit/writer';
import { makeTemp, record } from '../audit/helpers';
import { fillableFs } from '../audit/fillable-fs';

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
const NEXT = '2025-01-03';
const entry = (argsHash: string, day = DAY, over: Partial<AuditEntry> = {}): AuditEntry => {
  const { sessionId: _s, ...rest } = record({ argsHash, ts: `${day}T23:59:59.999Z`, ...over });
  return rest;
};
const fileOf = (dir: string, day = DAY) => join(dir, `audit-${day}.jsonl`);
const textOf = (dir: string, day = DAY) => readFileSync(fileOf(dir, day), 'utf8');
const hashesIn = (dir: string, day = DAY): string[] =>
  textOf(dir, day)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        const r = JSON.parse(line) as { argsHash?: string; repair?: string };
        return r.argsHash ?? `<${r.repair}>`;
      } catch {
        return '<torn>';
      }
    });

function writerIn(dir: string, o: { fs?: AuditFs; onError?: (e: Error) => void; now?: () => Date } = {}) {
  const writer = createAuditWriter({
    dir,
    sessionId: 's1',
    onError: o.onError ?? (() => {}),
    now: o.now ?? (() => new Date(`${DAY}T23:59:59.999Z`)),
    probeEveryMs: 0,
    syncAfterMs: 0,
    ...(o.fs ? { fs: o.fs } : {}),
  });
  cleanups.push(() => writer.close());
  return writer;
}

describe('a disk that fills in the middle of a shared write', () => {
  it('a torn line in the middle of a batch: every line of the batch is not written, the tear is closed and marked, the reader keeps the whole lines', async () => {
    const dir = temp();
    const { disk, fs: faulty } = fillableFs();
    const onError = vi.fn();
    const writer = writerIn(dir, { fs: faulty, onError });
    expect(writer.append(entry('before')).ok).toBe(true);
    // The write of five lines lets out two lines and a half, then the disk is full (a line as long
    // as the first: the same fields, its link's seq of one digit).
    const lineLength = Buffer.byteLength(readFileSync(fileOf(dir, DAY), 'utf8'));
    disk.full = true;
    disk.cut = Math.floor(lineLength * 2.5);
    const batch = await Promise.all(['b0', 'b1', 'b2', 'b3', 'b4'].map((h) => writer.appendSoon(entry(h))));
    expect(batch.map((r) => r.ok)).toEqual([false, false, false, false, false]);
    expect(onError).toHaveBeenCalledTimes(1);
    // While the disk stays full nothing else claims to be written either.
    expect((await writer.appendSoon(entry('still-full'))).ok).toBe(false);
    disk.full = false;
    expect((await writer.appendSoon(entry('after'))).ok).toBe(true);
    const hashes = hashesIn(dir);
    expect(hashes).toEqual(['before', 'b0', 'b1', '<torn>', '<torn_line>', 'after']);
    const scan = scanAudit(dir, { from: DAY, to: DAY }, new Date(`${DAY}T23:59:59.999Z`));
    // The lines that got out whole are readable (they were reported not written: the gate ran nothing
    // for them); the torn one is counted, never glued to the next record.
    expect(scan.records.map((r) => r.argsHash)).toEqual(['before', 'b0', 'b1', 'after']);
    expect(scan.unreadable).toMatchObject({ torn: 1 });
  });

  it('a failed run of one day does not fail the run of the other day in the same turn', async () => {
    const dir = temp();
    // The next day's file cannot be opened: a folder stands where it should be.
    mkdirSync(fileOf(dir, NEXT), { recursive: true });
    const writer = writerIn(dir);
    const results = await Promise.all([
      writer.appendSoon(entry('d1-a')),
      writer.appendSoon(entry('d2-a', NEXT)),
      writer.appendSoon(entry('d2-b', NEXT)),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, false]);
    expect(hashesIn(dir)).toEqual(['d1-a']);
  });
});

describe('a day that turns inside a batch', () => {
  it("lines alternating between two days: in the order made, one write per run, none in a day's file after the next day's began", async () => {
    const dir = temp();
    const { disk, fs: counting } = fillableFs();
    const writer = writerIn(dir, { fs: counting });
    const plan: [string, string][] = [
      ['a1', DAY],
      ['a2', DAY],
      ['b1', NEXT],
      ['a3', DAY],
      ['b2', NEXT],
      ['b3', NEXT],
    ];
    const results = await Promise.all(plan.map(([h, day]) => writer.appendSoon(entry(h, day))));
    expect(results.every((r) => r.ok)).toBe(true);
    // a3 was made after the next day's file began (its first line links to a2): it goes on there.
    expect(hashesIn(dir)).toEqual(['a1', 'a2']);
    expect(hashesIn(dir, NEXT)).toEqual(['b1', 'a3', 'b2', 'b3']);
    expect(disk.writes).toBe(4);
  });
});

describe('append and appendSoon mixed', () => {
  it('an append between waiting lines writes them first; a failing append does not fail lines already written', async () => {
    const dir = temp();
    const { disk, fs: faulty } = fillableFs();
    const writer = writerIn(dir, { fs: faulty });
    const a = writer.appendSoon(entry('soon-a'));
    const b = writer.appendSoon(entry('soon-b'));
    expect(writer.append(entry('now-x')).ok).toBe(true);
    const c = writer.appendSoon(entry('soon-c'));
    // The shared write of the waiting lines went out before the append: a full disk now fails only c and y.
    disk.full = true;
    expect(writer.append(entry('now-y')).ok).toBe(false);
    expect((await a).ok).toBe(true);
    expect((await b).ok).toBe(true);
    expect((await c).ok).toBe(false);
    disk.full = false;
    expect(hashesIn(dir)).toEqual(['soon-a', 'soon-b', 'now-x']);
  });
});

describe('the writer closed while lines wait', () => {
  it('close writes the waiting lines, answers them, and a line made after close still reaches the file', async () => {
    const dir = temp();
    const writer = writerIn(dir);
    const waiting = ['w1', 'w2', 'w3'].map((h) => writer.appendSoon(entry(h)));
    writer.close();
    expect(hashesIn(dir)).toEqual(['w1', 'w2', 'w3']);
    expect((await Promise.all(waiting)).every((r) => r.ok)).toBe(true);
    // A late outcome (a call that ends after /clear or the session's end) is not lost.
    expect((await writer.appendSoon(entry('late'))).ok).toBe(true);
    await writer.flush();
    expect(hashesIn(dir)).toEqual(['w1', 'w2', 'w3', 'late']);
  });
});

describe('redaction inside a shared write', () => {
  const TOKEN = 'ghp_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c';
  it('a secret in one line of a batch is hidden there and appears nowhere; its neighbours are written as made', async () => {
    const dir = temp();
    const writer = writerIn(dir);
    const clean = { command: 'npm test -- --grep token' };
    const results = await Promise.all([
      writer.appendSoon(entry('n1', DAY, { args: clean })),
      writer.appendSoon(
        entry('secret', DAY, {
          args: { command: `curl -H "Authorization: token ${TOKEN}" https://api.github.com` },
          result: `echoed ${TOKEN}`,
        }),
      ),
      writer.appendSoon(entry('n2', DAY, { args: clean, reason: 'ran after the other' })),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    const text = textOf(dir);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(TOKEN.slice(4, 20));
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] as string).args).toEqual(clean);
    expect(JSON.parse(lines[2] as string)).toMatchObject({ args: clean, reason: 'ran after the other' });
    expect(lines[1]).toMatch(/\[REDACTED:[^\]]+\]/);
    expect(lines[1]).toContain('https://api.github.com');
    // What the caller is handed as written is the redacted record, not the one it made.
    expect(JSON.stringify(results[1])).not.toContain(TOKEN);
  });

  it('a huge line in a batch is bounded at 256 KiB; the lines around it are whole', async () => {
    const dir = temp();
    const writer = writerIn(dir);
    const many = Array.from({ length: 40_000 }, (_, i) => `item-${i}`);
    const results = await Promise.all([
      writer.appendSoon(entry('before')),
      writer.appendSoon(entry('huge', DAY, { tool: 'mcp__fake__delete', args: { ids: many } })),
      writer.appendSoon(entry('after')),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    const lines = textOf(dir).split('\n').filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as { argsHash: string }).argsHash)).toEqual([
      'before',
      'huge',
      'after',
    ]);
    expect(lines[1]?.length).toBeLessThanOrEqual(256 * 1024);
    expect(lines[1]).toMatch(/more chars\]/);
  });
});

describe('an audit file that is not a file', () => {
  it('a FIFO where the day file should be: not written (a pipe keeps no record, and its 65th KiB would hang warden)', async () => {
    const dir = temp();
    execFileSync('mkfifo', [fileOf(dir)]);
    const onError = vi.fn();
    const writer = writerIn(dir, { onError });
    expect(writer.append(entry('into-a-pipe'))).toMatchObject({
      ok: false,
      error: expect.objectContaining({ message: expect.stringMatching(/not a regular file/) }),
    });
    expect((await writer.appendSoon(entry('into-a-pipe-too'))).ok).toBe(false);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(writer.probe()).toBe(false);
  });

  it('the day file a symlink to /dev/null: not written', () => {
    const dir = temp();
    symlinkSync('/dev/null', fileOf(dir));
    const writer = writerIn(dir);
    expect(writer.append(entry('into-the-void')).ok).toBe(false);
  });

  it('mid-session, the folder swapped for a symlink to a folder whose next day file is /dev/null: the next day is not written', async () => {
    const home = temp();
    const dir = join(home, 'audit');
    let day = DAY;
    const writer = writerIn(dir, { now: () => new Date(`${day}T23:59:59.999Z`) });
    expect((await writer.appendSoon(entry('day-one'))).ok).toBe(true);
    // Someone with access to WARDEN_HOME moves the log away and leaves a trap for tomorrow.
    renameSync(dir, join(home, 'moved'));
    const trap = join(home, 'trap');
    mkdirSync(trap);
    symlinkSync('/dev/null', fileOf(trap, NEXT));
    symlinkSync(trap, dir);
    day = NEXT;
    const late = await Promise.all([
      writer.appendSoon(entry('d1-late', DAY)),
      writer.appendSoon(entry('d2', NEXT)),
    ]);
    // The open file takes the rest of day one (it is the same file, moved); day two is refused.
    expect(late.map((r) => r.ok)).toEqual([true, false]);
    expect(hashesIn(join(home, 'moved'))).toEqual(['day-one', 'd1-late']);
  });

  it('mid-session, the folder replaced by a file: the next open fails, nothing claims to be written', async () => {
    const home = temp();
    const dir = join(home, 'audit');
    const writer = writerIn(dir);
    expect((await writer.appendSoon(entry('first'))).ok).toBe(true);
    writer.close();
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'a file where the folder was');
    expect((await writer.appendSoon(entry('second'))).ok).toBe(false);
    expect(writer.append(entry('third')).ok).toBe(false);
  });
});
