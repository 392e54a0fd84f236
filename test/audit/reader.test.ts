import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeUnreadable, listAuditDays, readAudit, scanAudit } from '../../src/audit/reader';
import { makeTemp, record, writeDays } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => cleanup());

const NOW = new Date('2025-01-03T12:00:00Z');

describe('listAuditDays', () => {
  it('lists day files oldest first and ignores other files', () => {
    writeDays(dir, { '2025-01-03': [record()], '2024-12-31': [record()], '2025-01-01': [record()] });
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, 'audit-2025-1-1.jsonl'), 'x');
    expect(listAuditDays(dir)).toEqual(['2024-12-31', '2025-01-01', '2025-01-03']);
  });

  it('has no days for a missing folder', () => {
    expect(listAuditDays(join(dir, 'missing'))).toEqual([]);
  });
});

describe('readAudit', () => {
  it('reads today by default', () => {
    writeDays(dir, {
      '2025-01-02': [record({ argsHash: 'yesterday' })],
      '2025-01-03': [record({ argsHash: 'today', ts: '2025-01-03T01:00:00Z' })],
    });
    expect(readAudit(dir, {}, NOW).map((r) => r.argsHash)).toEqual(['today']);
  });

  it('reads an inclusive range; `from` alone runs to today; `to` alone is one day', () => {
    writeDays(dir, {
      '2024-12-31': [record({ argsHash: 'a' })],
      '2025-01-01': [record({ argsHash: 'b' })],
      '2025-01-02': [record({ argsHash: 'c' })],
      '2025-01-03': [record({ argsHash: 'd' })],
    });
    expect(readAudit(dir, { from: '2025-01-01', to: '2025-01-02' }, NOW).map((r) => r.argsHash)).toEqual([
      'b',
      'c',
    ]);
    expect(readAudit(dir, { from: '2025-01-02' }, NOW).map((r) => r.argsHash)).toEqual(['c', 'd']);
    expect(readAudit(dir, { to: '2024-12-31' }, NOW).map((r) => r.argsHash)).toEqual(['a']);
  });

  it('skips a torn last line and corrupt or foreign lines without failing', () => {
    const good = JSON.stringify(record({ argsHash: 'good' }));
    writeDays(dir, {
      '2025-01-03': [
        good,
        'not json at all',
        '[1,2,3]',
        '{"ts":"x"}',
        '',
        JSON.stringify(record({ argsHash: 'also-good' })),
        good.slice(0, 40),
      ],
    });
    expect(readAudit(dir, {}, NOW).map((r) => r.argsHash)).toEqual(['good', 'also-good']);
  });

  it('counts and locates the lines it could not read, telling torn ones (repaired or last) from corrupt ones', () => {
    const good = JSON.stringify(record({ argsHash: 'good' }));
    const marker = JSON.stringify({
      ts: '2025-01-03T10:00:00Z',
      sessionId: 's2',
      repair: 'torn_line',
      tornBytes: 30,
      note: '…',
    });
    writeDays(dir, {
      '2025-01-02': [good, 'corrupt but whole', good, ''],
      '2025-01-03': [good, good.slice(0, 30), marker, good, good.slice(0, 40)],
    });
    const scan = scanAudit(dir, { from: '2025-01-02', to: '2025-01-03', tool: 'nothing-matches' }, NOW);
    expect(scan.records).toEqual([]);
    // Filters narrow records, never the count of what could not be read.
    expect(scan.unreadable).toEqual({
      count: 3,
      torn: 2,
      at: [
        { file: 'audit-2025-01-02.jsonl', lines: [2] },
        { file: 'audit-2025-01-03.jsonl', lines: [2, 5] },
      ],
    });
    expect(describeUnreadable(scan.unreadable)).toBe(
      '3 unreadable audit lines (2 cut short by a failed write), not shown: audit-2025-01-02.jsonl line 2; audit-2025-01-03.jsonl lines 2, 5.',
    );
    expect(describeUnreadable({ count: 0, torn: 0, at: [] })).toBe('');
  });

  it('a file that ends with a newline has no torn last line; a repair marker is not a record', () => {
    writeDays(dir, {
      '2025-01-03': [JSON.stringify(record()), '{"repair":"torn_line"}', 'whole but corrupt', ''],
    });
    const scan = scanAudit(dir, {}, NOW);
    expect(scan.records).toHaveLength(1);
    expect(scan.unreadable).toMatchObject({ count: 1, torn: 0 });
  });

  it('returns nothing for a missing folder', () => {
    expect(readAudit(join(dir, 'nope'), {}, NOW)).toEqual([]);
  });

  describe('filters', () => {
    beforeEach(() => {
      writeDays(dir, {
        '2025-01-03': [
          record({
            argsHash: '1',
            tool: 'write_file',
            args: { path: 'src/App.tsx' },
            outcome: 'executed',
            approver: 'human',
            agentId: 'main',
          }),
          record({
            argsHash: '2',
            tool: 'execute_command',
            outcome: 'rejected',
            approver: 'human',
            agentId: 'sub-1',
            reason: 'Use PNPM',
          }),
          record({
            argsHash: '3',
            tool: 'read_file',
            outcome: 'executed',
            approver: 'policy',
            agentId: 'sub-1',
          }),
          record({
            argsHash: '4',
            tool: 'mcp__github__create_issue',
            outcome: 'blocked',
            approver: 'rule',
            agentId: 'main',
          }),
          record({
            argsHash: '5',
            tool: 'mcp__github__list',
            outcome: undefined,
            phase: 'decision',
            approver: 'grant',
          }),
        ],
      });
    });
    const hashes = (query: Parameters<typeof readAudit>[1]) =>
      readAudit(dir, query, NOW).map((r) => r.argsHash);

    it.each([
      ['tool', { tool: 'read_file' }, ['3']],
      ['tool prefix', { tool: 'mcp__github__*' }, ['4', '5']],
      ['outcome', { outcome: 'rejected' as const }, ['2']],
      ['approver', { approver: 'human' as const }, ['1', '2']],
      ['agent', { agent: 'sub-1' }, ['2', '3']],
      ['text, case-insensitive', { text: 'use pnpm' }, ['2']],
      ['text over args', { text: 'APP.TSX' }, ['1']],
      ['limit keeps the latest', { limit: 2 }, ['4', '5']],
      ['limit 0', { limit: 0 }, []],
      ['combined', { agent: 'sub-1', outcome: 'executed' as const, limit: 5 }, ['3']],
      ['nothing matches', { tool: 'nope' }, []],
    ])('%s', (_name, query, expected) => {
      expect(hashes(query)).toEqual(expected);
    });
  });
});
