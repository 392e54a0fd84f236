/**
 * Finding the decision line of a call that began when warden stopped hard: read from the end of the
 * log, the call's newest line decides — a decision (open: the resume closes it) or an outcome (the
 * call was recorded after all: nothing to add).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { interruptedOutcome, openDecision } from '../../src/audit/open-decision';
import { makeTemp, record, writeDays } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0)) fn();
});
function temp(): string {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  return t.dir;
}

const key = { sessionId: 's', tool: 'execute_command', argsHash: 'h1' };
const decision = record({
  phase: 'decision',
  outcome: undefined,
  argsHash: 'h1',
  decision: 'allow',
  approver: 'rule',
});

describe('openDecision', () => {
  it('a decision with no outcome after it is open; its closing line copies who allowed what', () => {
    const dir = temp();
    writeDays(dir, {
      '2025-01-01': [record({ argsHash: 'h1', phase: 'outcome' })],
      '2025-01-02': [decision, record({ argsHash: 'other', phase: 'decision' }), 'not json', ''],
    });
    const open = openDecision(dir, key);
    expect(open).toMatchObject({ phase: 'decision', argsHash: 'h1', approver: 'rule' });
    const closing = interruptedOutcome(open as NonNullable<typeof open>, 'interrupted: unknown');
    expect(closing).toMatchObject({
      phase: 'outcome',
      outcome: 'error',
      decision: 'allow',
      approver: 'rule',
      argsHash: 'h1',
      reason: 'interrupted: unknown',
    });
    expect(closing).not.toHaveProperty('ts');
  });

  it('a call whose newest line is its outcome is not open', () => {
    const dir = temp();
    writeDays(dir, { '2025-01-02': [decision, record({ argsHash: 'h1', phase: 'outcome' })] });
    expect(openDecision(dir, key)).toBeUndefined();
  });

  it("another session's, another tool's or another argument's decision is not this call's", () => {
    const dir = temp();
    writeDays(dir, {
      '2025-01-02': [
        { ...decision, sessionId: 'other' },
        { ...decision, tool: 'write_file' },
        { ...decision, argsHash: 'h2' },
      ],
    });
    expect(openDecision(dir, key)).toBeUndefined();
    expect(openDecision(temp(), key)).toBeUndefined();
  });

  it('a decision of yesterday is found when today holds nothing of it', () => {
    const dir = temp();
    writeDays(dir, { '2025-01-01': [decision], '2025-01-02': [record({ argsHash: 'other' })] });
    expect(openDecision(dir, key)).toMatchObject({ argsHash: 'h1' });
  });
});
