/**
 * The audit log's hash chain (issue 32 §1): each line's `prevHash` is the sha256 of the line before
 * it, the first of a day links to the day before's last, and `warden audit --verify` names the first
 * line changed, removed or inserted — within a day and across the day boundary — with exit code 1.
 * A torn tail repaired by the writer is a link of the chain that states what was cut.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/audit/chain/line-hash';
import { verifyDays } from '../../src/audit/chain/verify';
import { listAuditDays } from '../../src/audit/reader';
import { type AuditEntry, createAuditWriter } from '../../src/audit/writer';
import { makeTemp, record, runCli } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanups.splice(0).reverse()) f();
});

const DAY1 = '2025-01-02';
const DAY2 = '2025-01-03';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const fileOf = (dir: string, day: string) => join(dir, `audit-${day}.jsonl`);
const linesOf = (dir: string, day: string) => readFileSync(fileOf(dir, day), 'utf8').split('\n').slice(0, -1);
const entry = (hash: string, day = DAY1): AuditEntry => {
  const { sessionId: _s, ...rest } = record({ ts: `${day}T10:00:00.000Z`, argsHash: hash });
  return rest;
};

/** A folder with `perDay` records written on each of `days`, through the real writer. */
function written(days: Record<string, number>): string {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  for (const [day, n] of Object.entries(days)) {
    const writer = createAuditWriter({
      dir: t.dir,
      sessionId: 's',
      onError: (e) => {
        throw e;
      },
      now: () => new Date(`${day}T10:00:00.000Z`),
      probeEveryMs: 0,
    });
    for (let i = 1; i <= n; i++) expect(writer.append(entry(`${day}-${i}`, day)).ok).toBe(true);
    writer.close();
  }
  return t.dir;
}

const verify = (dir: string, only?: string) => {
  const all = listAuditDays(dir);
  return verifyDays(dir, only ? all.filter((d) => d === only) : all, all);
};

/** Rewrites a day file's lines. */
function editLines(dir: string, day: string, edit: (lines: string[]) => string[]): void {
  writeFileSync(fileOf(dir, day), `${edit(linesOf(dir, day)).join('\n')}\n`);
}

describe('every line links to the one before', () => {
  it('prevHash is the sha256 of the previous line as written (newline included); seq counts the day', () => {
    const dir = written({ [DAY1]: 3 });
    const lines = linesOf(dir, DAY1);
    const parsed = lines.map((l) => JSON.parse(l) as { seq: number; prevHash: string });
    expect(parsed.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(parsed[0]?.prevHash).toBe(GENESIS_HASH);
    expect(parsed[1]?.prevHash).toBe(sha(`${lines[0]}\n`));
    expect(parsed[2]?.prevHash).toBe(sha(`${lines[1]}\n`));
    // The link is the line's last fields, after redaction: a hash is never mistaken for a secret.
    expect(lines[2]).toMatch(/,"seq":3,"prevHash":"[0-9a-f]{64}"\}$/);
  });

  it("a day's first line links to the last line of the latest day before it that has a file", () => {
    const dir = written({ [DAY1]: 2, '2025-01-05': 1 });
    const [first] = linesOf(dir, '2025-01-05');
    expect(JSON.parse(first ?? '{}')).toMatchObject({ seq: 1, prevHash: sha(`${linesOf(dir, DAY1)[1]}\n`) });
    expect(verify(dir).broken).toBeUndefined();
  });
});

describe('--verify', () => {
  it('OK for an untouched log: exit 0 and the count', () => {
    const dir = written({ [DAY1]: 4, [DAY2]: 3 });
    const run = runCli(dir, ['--verify']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('audit-2025-01-02.jsonl: 4 lines, intact');
    expect(run.out).toContain('OK: 7 lines in 2 day files, chain intact.');
  });

  it('finds an edited line: the line whose successor no longer links to it', () => {
    const dir = written({ [DAY1]: 5 });
    editLines(dir, DAY1, (l) =>
      l.map((line, i) => (i === 2 ? line.replace('"executed"', '"rejected"') : line)),
    );
    expect(verify(dir).broken).toMatchObject({ line: 3, kind: 'changed' });
    const run = runCli(dir, ['--verify']);
    expect(run.code).toBe(1);
    expect(run.out).toContain('BROKEN audit-2025-01-02.jsonl line 3: this line was changed');
  });

  it('finds a removed line', () => {
    const dir = written({ [DAY1]: 5 });
    editLines(dir, DAY1, (l) => l.filter((_, i) => i !== 1));
    expect(verify(dir).broken).toMatchObject({ line: 2, kind: 'removed' });
    expect(verify(dir).broken?.text).toContain('1 line was removed before this one (seq 1 to 3)');
  });

  it('finds an inserted line: a copy of another, a line without a link, a line with a made-up link', () => {
    const dir = written({ [DAY1]: 5 });
    const original = linesOf(dir, DAY1);
    // A copy of line 2 put after line 3.
    editLines(dir, DAY1, (l) => [...l.slice(0, 3), l[1] as string, ...l.slice(3)]);
    expect(verify(dir).broken).toMatchObject({ line: 4, kind: 'inserted' });
    // A line someone wrote without a link.
    writeFileSync(
      fileOf(dir, DAY1),
      `${[...original.slice(0, 2), JSON.stringify(record()), ...original.slice(2)].join('\n')}\n`,
    );
    expect(verify(dir).broken).toMatchObject({ line: 3, kind: 'inserted' });
    // A line that links to the right one, so the next line's link skips it.
    const forged = JSON.stringify({ ...record(), seq: 3, prevHash: sha(`${original[1]}\n`) });
    writeFileSync(
      fileOf(dir, DAY1),
      `${[...original.slice(0, 2), forged, ...original.slice(2)].join('\n')}\n`,
    );
    expect(verify(dir).broken).toMatchObject({ line: 3, kind: 'inserted' });
  });

  it('across the day boundary: the day before lost its last line, or had one changed or added', () => {
    const dir = written({ [DAY1]: 3, [DAY2]: 2 });
    const day1 = linesOf(dir, DAY1);
    editLines(dir, DAY1, (l) => l.slice(0, -1));
    const cut = verify(dir);
    expect(cut.broken).toMatchObject({ file: 'audit-2025-01-03.jsonl', line: 1, kind: 'day_link' });
    expect(cut.days.map((d) => d.file)).toEqual(['audit-2025-01-02.jsonl']);
    // --date: that day alone, still held to its link with the day before.
    expect(runCli(dir, ['--verify', '--date', DAY2]).code).toBe(1);
    expect(runCli(dir, ['--verify', '--date', DAY1]).code).toBe(0);
    writeFileSync(fileOf(dir, DAY1), `${day1.join('\n')}\n`);
    expect(verify(dir).broken).toBeUndefined();
    appendFileSync(fileOf(dir, DAY1), `${JSON.stringify(record())}\n`);
    expect(verify(dir).broken).toMatchObject({ file: 'audit-2025-01-02.jsonl', line: 4, kind: 'inserted' });
  });

  it('a day file removed between two days breaks the link', () => {
    const dir = written({ [DAY1]: 2, [DAY2]: 2, '2025-01-04': 2 });
    writeFileSync(fileOf(dir, DAY2), '');
    expect(verify(dir).broken).toMatchObject({ file: 'audit-2025-01-04.jsonl', kind: 'day_link' });
  });

  it('lines of an older warden before the chain began are counted, not judged', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    writeFileSync(fileOf(t.dir, DAY1), `${JSON.stringify(record())}\n${JSON.stringify(record())}\n`);
    const writer = createAuditWriter({ dir: t.dir, sessionId: 's', onError: () => {}, probeEveryMs: 0 });
    expect(writer.append(entry('chained')).ok).toBe(true);
    writer.close();
    const result = verify(t.dir);
    expect(result.broken).toBeUndefined();
    expect(result.days[0]).toMatchObject({ lines: 3, unchained: 2 });
    expect(runCli(t.dir, ['--verify']).out).toContain('2 before the chain began');
  });

  it('no day files: says so, exit 0', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const run = runCli(t.dir, ['--verify']);
    expect(run).toMatchObject({ code: 0 });
    expect(run.out).toContain('No audit day files');
  });
});

describe('a torn tail, repaired, is part of the chain', () => {
  it('the marker links to the last whole line and states the cut bytes; --verify checks them', () => {
    const dir = written({ [DAY1]: 2 });
    // A write cut short by a full disk (another process's).
    appendFileSync(fileOf(dir, DAY1), '{"ts":"2025-01-02T10:00:01.000Z","tool":"wri');
    const writer = createAuditWriter({ dir, sessionId: 's2', onError: () => {}, probeEveryMs: 0 });
    expect(writer.append(entry('after')).ok).toBe(true);
    writer.close();
    const lines = linesOf(dir, DAY1);
    expect(lines[2]).toBe('{"ts":"2025-01-02T10:00:01.000Z","tool":"wri');
    const marker = JSON.parse(lines[3] ?? '{}');
    expect(marker).toMatchObject({
      repair: 'torn_line',
      tornBytes: 44,
      tornHash: sha(lines[2] ?? ''),
      seq: 3,
      prevHash: sha(`${lines[1]}\n`),
    });
    expect(JSON.parse(lines[4] ?? '{}')).toMatchObject({
      argsHash: 'after',
      seq: 4,
      prevHash: sha(`${lines[3]}\n`),
    });
    const result = verify(dir);
    expect(result.broken).toBeUndefined();
    expect(result.days[0]).toMatchObject({ repaired: 1 });
    // The torn bytes changed afterwards: the marker no longer states them.
    editLines(dir, DAY1, (l) => l.map((line, i) => (i === 2 ? line.replace('wri', 'del') : line)));
    expect(verify(dir).broken).toMatchObject({ line: 3, kind: 'unreadable' });
  });

  it('a torn tail at the end of the day before is repaired before the next day links to it', () => {
    const dir = written({ [DAY1]: 1 });
    appendFileSync(fileOf(dir, DAY1), '{"ts":"2025-01-02T23:59:59.000Z"');
    const writer = createAuditWriter({
      dir,
      sessionId: 's3',
      onError: () => {},
      now: () => new Date(`${DAY2}T00:00:01.000Z`),
      probeEveryMs: 0,
    });
    expect(writer.append(entry('next-day', DAY2)).ok).toBe(true);
    writer.close();
    const day1 = linesOf(dir, DAY1);
    expect(JSON.parse(day1[2] ?? '{}')).toMatchObject({ repair: 'torn_line', seq: 2 });
    expect(JSON.parse(linesOf(dir, DAY2)[0] ?? '{}')).toMatchObject({ prevHash: sha(`${day1[2]}\n`) });
    expect(verify(dir).broken).toBeUndefined();
  });
});
