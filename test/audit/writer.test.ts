import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditRecord } from '../../src/protocol/audit';
import { utcDay } from '../../src/audit/day-file';
import { type AuditEntry, createAuditWriter } from '../../src/audit/writer';
import { record } from './helpers';
import { auditDayFiles } from '../helpers/audit-lines';

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-audit-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A record without a session id: the writer fills in its own. */
const entry = (overrides: Partial<AuditEntry> = {}): AuditEntry => {
  const { sessionId: _own, ...rest } = record({ taskId: 'task-1', args: { command: 'ls' }, argsHash: 'h1' });
  return { ...rest, ...overrides };
};

const readLines = (path: string): AuditRecord[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditRecord);

describe('createAuditWriter', () => {
  it('appends one line per record to the UTC day file, 0600 in a 0700 folder', () => {
    const dir = join(tempDir(), 'audit');
    const writer = createAuditWriter({ dir, sessionId: 's1', onError: () => {} });
    writer.append(entry());
    writer.append(entry({ ts: '2025-01-02T23:30:00-02:00', argsHash: 'h2' }));
    writer.close();
    expect(auditDayFiles(dir)).toEqual(['audit-2025-01-02.jsonl', 'audit-2025-01-03.jsonl']);
    const [first] = readLines(join(dir, 'audit-2025-01-02.jsonl'));
    expect(first).toMatchObject({ sessionId: 's1', tool: 'execute_command', argsHash: 'h1' });
    expect(readLines(join(dir, 'audit-2025-01-03.jsonl'))[0]?.argsHash).toBe('h2');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'audit-2025-01-02.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('arguments a hostile model sends (a lone surrogate, escape sequences, NUL, CR, LF, U+2028) stay one line each, read back as sent', () => {
    const dir = tempDir();
    const writer = createAuditWriter({ dir, sessionId: 's1', onError: () => {} });
    const args = {
      path: 'a\uD800b\u001b[2J\u0000c\r\nd\u2028e\u009b31m',
      nested: ['\uDFFF', '\n{"ts":"forged"}'],
    };
    const before = JSON.stringify(args);
    const first = writer.append(entry({ args }));
    const second = writer.append(entry({ argsHash: 'after' }));
    writer.close();
    expect(first.ok && second.ok).toBe(true);
    // The input was not touched; what the writer hands on is what it wrote.
    expect(JSON.stringify(args)).toBe(before);
    const text = readFileSync(join(dir, 'audit-2025-01-02.jsonl'), 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    const lines = readLines(join(dir, 'audit-2025-01-02.jsonl'));
    expect(lines.map((r) => r.argsHash)).toEqual(['h1', 'after']);
    expect(lines[0]?.args).toEqual(first.record.args);
    expect(lines[0]?.args).toEqual(args);
  });

  it('fills ts and sessionId when absent and starts the line with them', () => {
    const dir = tempDir();
    const writer = createAuditWriter({
      dir,
      sessionId: 's2',
      onError: () => {},
      now: () => new Date('2025-06-07T08:09:10Z'),
    });
    const { ts: _ts, ...withoutTs } = entry();
    const written = writer.append(withoutTs).record;
    writer.close();
    expect(written.ts).toBe('2025-06-07T08:09:10.000Z');
    const line = readFileSync(join(dir, 'audit-2025-06-07.jsonl'), 'utf8');
    expect(line.startsWith('{"ts":"2025-06-07T08:09:10.000Z","sessionId":"s2",')).toBe(true);
  });

  it('redacts every string of the record once, and returns what it wrote', () => {
    const dir = tempDir();
    const writer = createAuditWriter({ dir, onError: () => {} });
    const key = `sk-${'a1B2'.repeat(12)}`;
    const appended = writer.append(
      entry({
        args: { command: `OPENAI_API_KEY=${key} node x.js`, env: { password: 'p' } },
        editedArgs: { command: `curl -H "Authorization: Bearer ${key}" x` },
        reason: `leaked ${key}`,
        result: `echo ${key}`,
      }),
    );
    writer.close();
    const text = readFileSync(join(dir, 'audit-2025-01-02.jsonl'), 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain('"p"');
    const [record] = readLines(join(dir, 'audit-2025-01-02.jsonl'));
    // The record returned is the line's, less its link; the line is the file's, byte for byte.
    const { seq: _seq, prevHash: _prev, ...fields } = record as AuditRecord;
    expect(appended.record).toEqual(fields);
    expect(appended.ok && appended.line).toBe(text);
    expect(record?.args).toEqual({
      command: 'OPENAI_API_KEY=[REDACTED:openai] node x.js',
      env: { password: '[REDACTED:key]' },
    });
    expect(record?.editedArgs).toEqual({ command: 'curl -H "Authorization: Bearer [REDACTED:bearer]" x' });
    expect(record?.reason).toBe('leaked [REDACTED:openai]');
    expect(record?.result).toBe('echo [REDACTED:openai]');
  });

  it('files a record whose ts will not parse (or is out of range) under today', () => {
    expect(utcDay('garbage', () => new Date('2025-06-07T08:00:00Z'))).toBe('2025-06-07');
    expect(utcDay('+275760-09-13T00:00:00.000Z', () => new Date('2025-06-07T08:00:00Z'))).toBe('2025-06-07');
    expect(utcDay('2025-01-01T23:30:00-01:00', () => new Date(0))).toBe('2025-01-02');
  });

  it('cuts very long strings after redaction', () => {
    const dir = tempDir();
    const writer = createAuditWriter({ dir, onError: () => {}, maxStringLength: 10 });
    const { record: written } = writer.append(entry({ result: 'y'.repeat(25) }));
    writer.close();
    expect(written.result).toBe(`${'y'.repeat(10)}…[15 more chars]`);
  });

  it('reports a failing write once, never throws, and recovers when the folder is fixed', async () => {
    const parent = tempDir();
    const dir = join(parent, 'audit');
    writeFileSync(dir, 'not a folder');
    const onError = vi.fn();
    const writer = createAuditWriter({ dir, onError });
    expect(() => {
      writer.append(entry());
      writer.append(entry());
      writer.append(entry());
    }).not.toThrow();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(Error);

    rmSync(dir);
    writer.append(entry({ argsHash: 'after-fix' }));
    await writer.flush();
    expect(readLines(join(dir, 'audit-2025-01-02.jsonl')).map((r) => r.argsHash)).toEqual(['after-fix']);

    // A new run of failures is reported again.
    writer.close();
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'broken again');
    writer.append(entry());
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it('swallows an onError that throws', () => {
    const parent = tempDir();
    writeFileSync(join(parent, 'audit'), '');
    const writer = createAuditWriter({
      dir: join(parent, 'audit'),
      onError: () => {
        throw new Error('sink broke');
      },
    });
    expect(() => writer.append(entry())).not.toThrow();
  });

  it('reopens after close, so a late outcome is not lost', () => {
    const dir = tempDir();
    const writer = createAuditWriter({ dir, onError: () => {} });
    writer.append(entry({ argsHash: 'a' }));
    writer.close();
    writer.append(entry({ argsHash: 'b' }));
    writer.close();
    expect(readLines(join(dir, 'audit-2025-01-02.jsonl')).map((r) => r.argsHash)).toEqual(['a', 'b']);
  });

  it('flush resolves with nothing open', async () => {
    const writer = createAuditWriter({ dir: tempDir(), onError: () => {} });
    await expect(writer.flush()).resolves.toBeUndefined();
  });
});

describe('two processes appending at once', () => {
  const script = join(import.meta.dirname, 'fixtures', 'append-many.ts');

  function startChild(
    dir: string,
    name: string,
    count: number,
  ): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null> } {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir, name, String(count)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('error', reject);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, ready, exited };
  }

  it('loses and interleaves nothing over 2 × 10 000 records', async () => {
    const dir = tempDir();
    const count = 10_000;
    const children = [startChild(dir, 'alpha', count), startChild(dir, 'beta', count)];
    await Promise.all(children.map((c) => c.ready));
    // Both are waiting on stdin: release them together so their writes overlap.
    for (const c of children) c.child.stdin?.write('go\n');
    const codes = await Promise.all(children.map((c) => c.exited));
    expect(codes).toEqual([0, 0]);

    const raw = readFileSync(join(dir, 'audit-2025-03-04.jsonl'), 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    const lines = raw.slice(0, -1).split('\n');
    expect(lines).toHaveLength(2 * count);
    const seen = { alpha: new Set<string>(), beta: new Set<string>() };
    for (const line of lines) {
      const record = JSON.parse(line) as AuditRecord;
      seen[record.agentId as 'alpha' | 'beta'].add(record.argsHash);
    }
    expect(seen.alpha.size).toBe(count);
    expect(seen.beta.size).toBe(count);
    // The writes really overlapped: the two writers' lines are mixed, not one block then the other.
    const switches = lines.filter((line, i) => i > 0 && agentOf(line) !== agentOf(lines[i - 1] ?? '')).length;
    expect(switches).toBeGreaterThan(1);
  });
});

const agentOf = (line: string): string => /"agentId":"(\w+)"/.exec(line)?.[1] ?? '';
