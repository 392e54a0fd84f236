/**
 * Red team: a day file line warden did not write (fields null, numbers, objects) is read as a
 * record with the types an AuditRecord promises, so the in-app audit list renders it instead of
 * throwing (`pad(null)`) and the person still sees every other line.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { AuditList } from '../../components/panels/AuditList';
import { parseLine } from '../../src/audit/reader';
import type { AuditRecord } from '../../src/protocol/audit';

const base = { ts: '2025-01-03T10:00:00.000Z', tool: 'odd_tool', agentId: 'a' };
const LINES = [
  { ...base, approver: null, rule: { a: 1 }, decision: 5, outcome: ['x'], reason: [1], waitMs: 'slow' },
  { ...base },
  { ...base, risk: 7, phase: {}, sessionId: 3, requestId: {}, durationMs: Number.MAX_VALUE * 10 },
].map((r) => JSON.stringify(r));

describe('hostile audit lines', () => {
  it.each(LINES)('%s is read with text fields as text', (line) => {
    const parsed = parseLine(line);
    expect(parsed.kind).toBe('record');
    const record = (parsed as { record: AuditRecord }).record;
    for (const key of [
      'sessionId',
      'taskId',
      'argsHash',
      'decision',
      'approver',
      'phase',
      'rule',
      'risk',
    ] as const)
      expect(typeof record[key]).toBe('string');
    for (const key of ['outcome', 'reason', 'requestId'] as const)
      expect(record[key] === undefined || typeof record[key] === 'string').toBe(true);
    for (const key of ['waitMs', 'durationMs'] as const)
      expect(record[key] === undefined || Number.isFinite(record[key])).toBe(true);
  });

  it('the in-app list renders them', () => {
    const records = LINES.map((l) => (parseLine(l) as { record: AuditRecord }).record);
    const { lastFrame, unmount } = render(
      <AuditList records={records} cursor={0} rows={10} width={100} agentName={(id) => id} />,
    );
    expect(lastFrame()).toContain('odd_tool');
    unmount();
  });

  it('a record warden wrote is read unchanged', () => {
    const own = {
      ...base,
      sessionId: 's',
      taskId: 't',
      argsHash: 'h',
      decision: 'ask',
      approver: 'human',
      phase: 'outcome',
      rule: 'r',
      risk: 'low',
      outcome: 'executed',
      waitMs: 12,
      args: { command: 'npm test' },
    };
    expect((parseLine(JSON.stringify(own)) as { record: unknown }).record).toEqual(own);
  });
});
