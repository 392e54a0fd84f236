/**
 * Red team (terminal): `warden audit` over a day file full of hostile records — model-written
 * commands, paths, reasons and results, and fields a tampered file fills with escape sequences
 * where warden writes only its own words (outcome, decision, approver, rule, ts). The CLI module
 * is called with raw sinks (no guarded stream around it): its own output must already be safe.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/protocol/audit';
import { makeTemp, record, runCli, writeDays } from '../audit/helpers';

const ESC = '\u001b';
const EVIL = `${ESC}]52;c;cm0gLXJmIH4=\u0007${ESC}]0;PWNED${ESC}\\${ESC}[2J${ESC}[?1049h\u009b6n\u202e\u2066${ESC}]8;;http://evil.test/\u0007`;
/** Anything a terminal acts on, or that hides or reorders text. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => cleanup());

const NOW = new Date('2025-01-03T12:00:00Z');

const run = (argv: string[]) => runCli(dir, argv, { now: NOW, columns: 200 });

/** Hostile records: model text everywhere, and warden's own fields as a tampered file holds them. */
function seed(): AuditRecord[] {
  const records = [
    record({ ts: '2025-01-03T01:00:00.000Z', args: { command: `echo hi${EVIL}` }, reason: `why${EVIL}` }),
    record({
      ts: '2025-01-03T01:00:01.000Z',
      tool: 'write_file',
      args: { path: `src/${EVIL}.ts`, content: EVIL },
      result: `res${EVIL}`,
    }),
    record({
      ts: `2025-01-03T01:00:02.000Z${EVIL}`,
      agentId: `sub${EVIL}`,
      tool: `mcp__srv__${EVIL}`,
      args: { [`k${EVIL}`]: EVIL },
      outcome: `executed${EVIL}` as AuditRecord['outcome'],
      decision: `ask${EVIL}` as AuditRecord['decision'],
      approver: `human${EVIL}` as AuditRecord['approver'],
      rule: `rule${EVIL}`,
      waitMs: 900,
      requestId: 'r1',
    }),
  ];
  writeDays(dir, { '2025-01-03': [...records, `{"torn":"${EVIL.replace(/[\u0000-\u001f]/g, '')}`] });
  return records;
}

describe('warden audit over hostile records', () => {
  it('table: every field shows its sequences visibly, nothing raw, each record one line', () => {
    seed();
    const { code, out, err } = run([]);
    expect(code).toBe(0);
    expect(out).not.toMatch(RAW);
    expect(err.replace(/\n$/, '')).not.toMatch(RAW);
    expect(out).toContain('␛]52;c;');
    // Header, three rows, summary: a newline inside a record never starts a line of its own.
    expect(out.trimEnd().split('\n')).toHaveLength(5);
  });

  it('summary line: an outcome a tampered file holds shows visibly', () => {
    seed();
    const summary = run([]).out.trimEnd().split('\n').at(-1) ?? '';
    expect(summary).toMatch(/^3 records · /);
    expect(summary).not.toMatch(RAW);
  });

  it('--json: one line per record, parses back to the same data, nothing raw', () => {
    const records = seed();
    const { out } = run(['--json']);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toMatch(RAW);
    expect(lines.map((l) => JSON.parse(l))).toEqual(records);
  });

  it('--stats (text and --json): rule names and counts carry nothing raw', () => {
    seed();
    const text = run(['--stats']).out;
    expect(text).not.toMatch(RAW);
    const json = run(['--stats', '--json']).out;
    expect(json.trimEnd().split('\n')).toHaveLength(1);
    expect(json.slice(0, -1)).not.toMatch(RAW);
    expect(JSON.parse(json)).toMatchObject({ total: 3 });
  });

  it('--text search for a payload word finds the record and still prints nothing raw', () => {
    seed();
    const { out } = run(['--text', 'PWNED']);
    expect(out).not.toMatch(RAW);
    expect(out).toMatch(/^3 records/m);
  });
});
