import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDay } from '../../src/audit/cli';
import { fit } from '../../src/audit/format';
import type { AuditRecord } from '../../src/protocol/audit';
import { makeTemp, record, runCli, writeDays } from './helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => cleanup());

const NOW = new Date('2025-01-03T12:00:00Z');

const run = (argv: string[], columns = 120) => runCli(dir, argv, { now: NOW, columns });

function seed(): void {
  writeDays(dir, {
    '2025-01-03': [
      record({
        ts: '2025-01-03T09:15:02.000Z',
        tool: 'write_file',
        args: { path: 'src/App.tsx', content: 'x' },
        rule: 'ask-writes',
        waitMs: 1200,
        requestId: 'a',
      }),
      record({
        ts: '2025-01-03T09:16:30.000Z',
        agentId: 'sub-1',
        args: { command: 'rm -rf build\n&& ls' },
        outcome: 'rejected',
        reason: 'keep build',
        waitMs: 3400,
        requestId: 'b',
      }),
      record({
        ts: '2025-01-03T09:17:00.000Z',
        tool: 'read_file',
        args: { path: 'README.md' },
        approver: 'policy',
        decision: 'allow',
        rule: 'allow-reads',
      }),
    ],
    '2025-01-02': [
      record({
        ts: '2025-01-02T22:00:00.000Z',
        tool: 'glob',
        args: { pattern: '**/*.ts' },
        approver: 'policy',
        decision: 'allow',
      }),
    ],
  });
}

describe('warden audit', () => {
  it('prints a fixed-width table of today and a summary', () => {
    seed();
    const { code, out, err } = run([]);
    expect(code).toBe(0);
    expect(err).toBe('');
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^TIME\s+AGENT\s+TOOL\s+DECISION\s+APPROVER\s+RULE\s+ARGS$/);
    expect(lines[1]).toBe(
      '09:15:02  main        write_file          ask→executed     human     ask-writes          src/App.tsx',
    );
    expect(lines[2]).toContain('09:16:30  sub-1       execute_command     ask→rejected     human');
    expect(lines[2]).toContain('rm -rf build && ls — keep build');
    // Columns line up: every row starts its ARGS at the same offset as the header.
    const argsAt = lines[0]?.indexOf('ARGS');
    expect(lines[3]?.indexOf('README.md')).toBe(argsAt);
    expect(lines[4]).toBe(
      '3 records · executed 2, rejected 1 · by people (2): approved 50%, rejected 50%, edited 0% · wait median 1.2s, p95 3.4s',
    );
  });

  it('never passes the terminal width', () => {
    writeDays(dir, {
      '2025-01-03': [record({ ts: '2025-01-03T01:00:00Z', args: { command: 'x'.repeat(500) } })],
    });
    for (const columns of [60, 90, 140]) {
      const { out } = run([], columns);
      for (const line of out.trimEnd().split('\n').slice(0, -1))
        expect(line.length).toBeLessThanOrEqual(columns);
      expect(out).toContain('…');
    }
  });

  it('--date, filters and --limit narrow the rows', () => {
    seed();
    expect(run(['--date', '2025-01-02']).out).toContain('glob');
    expect(run(['--date=yesterday']).out).toContain('**/*.ts');
    const rejected = run(['--outcome', 'rejected']).out;
    expect(rejected).toContain('rm -rf build');
    expect(rejected).not.toContain('App.tsx');
    expect(run(['--approver', 'policy']).out).toContain('README.md');
    expect(run(['--agent', 'sub-1']).out).not.toContain('App.tsx');
    expect(run(['--tool', 'write_file']).out).toContain('App.tsx');
    expect(run(['--text', 'KEEP BUILD']).out).toContain('rm -rf');
    const limited = run(['--limit', '1']).out.split('\n');
    expect(limited[1]).toContain('README.md');
    expect(limited[2]).toMatch(/^1 record · /);
  });

  it('--json prints one parseable record per line', () => {
    seed();
    const { code, out } = run(['--json', '--tool', 'write_file']);
    expect(code).toBe(0);
    const records = out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    expect(records.map((r) => r.tool)).toEqual(['write_file']);
    expect(records[0]?.args).toEqual({ path: 'src/App.tsx', content: 'x' });
  });

  it('--json with no records prints nothing', () => {
    expect(run(['--json'])).toEqual({ code: 0, out: '', err: '' });
  });

  it('says so clearly when there are no records', () => {
    expect(run([])).toEqual({ code: 0, out: `No audit records for 2025-01-03 in ${dir}.\n`, err: '' });
    seed();
    expect(run(['--tool', 'nope']).out).toBe(
      `No audit records matching these filters for 2025-01-03 in ${dir}.\n`,
    );
    expect(run(['--date', '2020-01-01']).code).toBe(0);
  });

  it.each([
    ['table', [] as string[]],
    ['--json', ['--json']],
  ])(
    'reports unreadable lines with their count on stderr (%s), and still shows the rest',
    (_label, flags) => {
      seed();
      writeDays(dir, {
        '2025-01-03': ['\n{"ts":"2025-01-03T10:', '{"repair":"torn_line","tornBytes":20}\n'],
      });
      const { code, out, err } = run(flags);
      expect(code).toBe(0);
      expect(err).toBe(
        'warden audit: 1 unreadable audit line (1 cut short by a failed write), not shown: audit-2025-01-03.jsonl line 4.\n',
      );
      expect(out).toContain('src/App.tsx');
    },
  );

  it('--help prints the options', () => {
    const { code, out } = run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage: warden audit');
    expect(out).toContain('--outcome O');
  });

  it.each([
    [['--bogus'], 'unknown flag --bogus'],
    [['extra'], "unexpected argument 'extra'"],
    [['--date'], '--date needs a value'],
    [['--tool', '--json'], '--tool needs a value'],
    [['--date', '2025-02-30'], '--date "2025-02-30": expected a date'],
    [['--date', '3 days ago'], '--date "3 days ago": expected a date'],
    [['--outcome', 'approved'], '--outcome "approved": expected one of executed, rejected'],
    [['--approver', 'me'], '--approver "me": expected one of policy'],
    [['--limit', '0'], '--limit "0": expected a whole number'],
    [['--limit', '-3'], '--limit needs a value'],
    [['--limit=abc'], '--limit "abc": expected a whole number'],
    [['--agent='], '--agent "": expected a non-empty value'],
    [['--json=yes'], '--json takes no value'],
  ])('%j is an error with exit code 2', (argv, message) => {
    const { code, out, err } = run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(`warden audit: ${message}`);
    expect(err).toContain("Run 'warden audit --help'");
  });
});

describe('parseDay', () => {
  it.each([
    ['2024-02-29', '2024-02-29'],
    ['2023-02-29', undefined],
    ['today', '2025-01-03'],
    ['yesterday', '2025-01-02'],
    ['2025-1-3', undefined],
  ])('%s → %s', (value, expected) => expect(parseDay(value, NOW)).toBe(expected));
});

describe('fit', () => {
  it('pads, flattens whitespace and cuts with an ellipsis', () => {
    expect(fit('ab', 4)).toBe('ab  ');
    expect(fit('a\nb', 4)).toBe('a b ');
    expect(fit('abcdef', 4)).toBe('abc…');
  });

  it('neutralises terminal escapes and bidi overrides', () => {
    expect(fit('a\u001b[2Jb\u202ec', 16)).toBe('a\u241b[2Jb⟨U+202E⟩c ');
  });
});
