/**
 * Red team: `warden audit` over a day file holding lines warden did not write — fields of the
 * wrong type, prototype names, a huge line, invalid JSON. The table, --json, --stats and --limit
 * each answer (exit 0, every good record shown) and count the bad lines; none throws.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemp, record, runCli, writeDays } from '../audit/helpers';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => cleanup());

const NOW = new Date('2025-01-03T12:00:00Z');
const base = { ts: '2025-01-03T10:00:00.000Z', tool: 'odd_tool', agentId: 'a' };

/** Lines the reader accepts (string ts, tool, agentId) with everything else hostile. */
const WRONG_TYPES: object[] = [
  { ...base, decision: 5, outcome: ['x'], approver: null, risk: 7, rule: { a: 1 }, args: 'str', reason: [1] },
  { ...base, waitMs: 'slow', durationMs: {}, approver: 'human', decision: 'ask', outcome: 'executed' },
  { ...base, outcome: '__proto__', approver: 'constructor', decision: 'toString', rule: '__proto__' },
  { ...base, editedArgs: 5, requestId: {}, phase: 9 },
  { ...base },
];

const run = (argv: string[]) => runCli(dir, argv, { now: NOW, columns: 100 });

describe('warden audit over hostile lines', () => {
  beforeEach(() => {
    writeDays(dir, {
      '2025-01-03': [
        record({ ts: '2025-01-03T09:00:00.000Z', tool: 'good_tool', args: { command: 'npm test' } }),
        ...WRONG_TYPES.map((r) => JSON.stringify(r)),
        '{"ts":1}',
        '{'.repeat(200_000),
        `${JSON.stringify(record({ ts: '2025-01-03T11:00:00.000Z', tool: 'last_tool' }))}\n`,
      ],
    });
  });

  it.each([[[]], [['--limit', '20']], [['--text', 'tool']], [['--agent', 'a']]])(
    'the table %j shows every record and counts the bad lines',
    (argv) => {
      const { code, out, err } = run(argv);
      expect(code).toBe(0);
      expect(out).toContain('odd_tool');
      if (!argv.includes('--agent')) expect(out).toContain('last_tool');
      expect(err).toMatch(/2 unreadable audit lines/);
      for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    },
  );

  it('--json and --stats answer too', () => {
    const json = run(['--json']);
    expect(json.code).toBe(0);
    expect(json.out.trim().split('\n')).toHaveLength(WRONG_TYPES.length + 2);
    for (const argv of [['--stats'], ['--stats', '--json']]) {
      const stats = run(argv);
      expect(stats.code).toBe(0);
      expect(stats.out.length).toBeGreaterThan(0);
    }
  });
});

describe('stats over prototype names', () => {
  it('an outcome or approver named constructor or __proto__ is counted as itself', () => {
    const odd = (outcome: string, approver: string) =>
      record({ ts: '2025-01-03T10:00:00.000Z', outcome: outcome as never, approver: approver as never });
    writeDays(dir, {
      '2025-01-03': [
        odd('constructor', '__proto__'),
        odd('__proto__', 'constructor'),
        odd('executed', 'human'),
      ],
    });
    const { code, out } = run(['--stats', '--json']);
    expect(code).toBe(0);
    const stats = JSON.parse(out) as {
      byOutcome: Record<string, unknown>;
      byApprover: Record<string, unknown>;
    };
    expect(stats.byOutcome).toEqual({ constructor: 1, ['__proto__']: 1, executed: 1 });
    expect(JSON.stringify(stats.byApprover)).toBe('{"__proto__":1,"constructor":1,"human":1}');
  });
});
