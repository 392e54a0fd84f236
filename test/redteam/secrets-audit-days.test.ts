/**
 * Red team: a session that runs across midnight (UTC) while another warden crashed mid-line in the
 * new day's file. Each record lands in its own day's file, the torn line is closed and marked
 * before the first new line, and the reader finds every record of each day — none lost, none torn.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanAudit } from '../../src/audit/reader';
import { createAuditWriter } from '../../src/audit/writer';
import { makeTemp } from '../audit/helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => cleanup());

const entry = (tool: string, ts?: string) => ({
  ...(ts ? { ts } : {}),
  agentId: 'main',
  taskId: 't',
  tool,
  args: { command: `${tool} --token Zq9Xw8Vv7Uu6Tt5Ss4` },
  argsHash: 'h',
  decision: 'ask' as const,
  approver: 'human' as const,
  phase: 'outcome' as const,
  outcome: 'executed' as const,
  rule: 'r',
  risk: 'low' as const,
});

describe('a session across midnight', () => {
  it('files each record under its day, repairs the torn tail another process left, loses nothing', () => {
    mkdirSync(dir, { recursive: true });
    // Another warden died mid-write just after midnight.
    appendFileSync(join(dir, 'audit-2025-01-03.jsonl'), '{"ts":"2025-01-03T00:00:00.100Z","tool":"tor');
    let clock = new Date('2025-01-02T23:59:59.900Z');
    const writer = createAuditWriter({
      dir,
      sessionId: 's',
      onError: (e) => {
        throw e;
      },
      now: () => clock,
    });
    expect(writer.append(entry('before_midnight')).ok).toBe(true);
    // A gate record stamped before midnight but written after it: the next day's file has begun
    // (another warden wrote there), so it goes on there, after the repaired tear — the day before
    // keeps its last line, the one the next day's chain links to.
    clock = new Date('2025-01-03T00:00:00.200Z');
    expect(writer.append(entry('stamped_late', '2025-01-02T23:59:59.950Z')).ok).toBe(true);
    expect(writer.append(entry('after_midnight')).ok).toBe(true);
    expect(writer.append(entry('after_again')).ok).toBe(true);
    writer.close();

    const day1 = scanAudit(dir, { from: '2025-01-02', to: '2025-01-02' }, clock);
    const day2 = scanAudit(dir, { from: '2025-01-03', to: '2025-01-03' }, clock);
    expect(day1.records.map((r) => r.tool)).toEqual(['before_midnight']);
    expect(day2.records.map((r) => r.tool)).toEqual(['stamped_late', 'after_midnight', 'after_again']);
    // The torn line is closed by a marker, not glued to the first new record.
    const text = readFileSync(join(dir, 'audit-2025-01-03.jsonl'), 'utf8');
    const lines = text.split('\n');
    expect(lines[0]).toBe('{"ts":"2025-01-03T00:00:00.100Z","tool":"tor');
    expect(lines[1]).toContain('torn_line');
    expect(text).not.toContain('Zq9Xw8Vv7Uu6Tt5Ss4');
    expect(day2.unreadable.count).toBe(1);
  });
});
