/**
 * An audit line as an OpenTelemetry event, named and shaped like Claude Code's `tool_decision` and
 * `tool_result`: the decision and its source for each way a call is decided, and the fields README
 * names.
 */
import { describe, expect, it } from 'vitest';
import { auditEvent } from '../../../src/audit/export/otel-events';
import type { AuditRecord } from '../../../src/protocol/audit';
import { record } from '../helpers';

const decisionLine = (o: Partial<AuditRecord>): AuditRecord => {
  const { outcome: _o, ...rest } = record({ phase: 'decision', ...o });
  return rest;
};

describe('tool_decision: decision and source', () => {
  it.each([
    ['a rule allowed it', { decision: 'allow', approver: 'rule', verdict: 'accept' }, 'accept', 'config'],
    [
      'the policy allowed it',
      { decision: 'allow', approver: 'policy', verdict: 'accept' },
      'accept',
      'config',
    ],
    ['a grant allowed it', { approver: 'grant', verdict: 'accept' }, 'accept', 'user_permanent'],
    ['a person approved', { approver: 'human', verdict: 'accept' }, 'accept', 'user_temporary'],
    ['a person rejected', { approver: 'human', verdict: 'reject' }, 'reject', 'user_reject'],
    ['a deny rule', { decision: 'deny', approver: 'rule', verdict: 'reject' }, 'reject', 'config'],
    [
      'nobody decided (timeout, no approver)',
      { approver: 'none', verdict: 'reject' },
      'reject',
      'user_abort',
    ],
    ['a hook decided', { approver: 'hook:lint', verdict: 'accept' }, 'accept', 'hook'],
    ['an older line without a verdict, denied', { decision: 'deny', approver: 'policy' }, 'reject', 'config'],
  ] as const)('%s', (_name, fields, decision, source) => {
    const event = auditEvent(decisionLine(fields as Partial<AuditRecord>), 7);
    expect(event.name).toBe('tool_decision');
    expect(event.body).toBe('warden.tool_decision');
    expect(event.attributes).toMatchObject({
      'event.name': 'tool_decision',
      decision,
      source,
      'event.sequence': 7,
    });
  });
});

describe('tool_result', () => {
  it('success, duration, error and the decision behind it', () => {
    const ran = auditEvent(record({ verdict: 'accept', durationMs: 12.6 }), 1);
    expect(ran.name).toBe('tool_result');
    expect(ran.attributes).toMatchObject({
      success: 'true',
      duration_ms: 13,
      decision_type: 'accept',
      decision_source: 'user_temporary',
    });
    expect(ran.attributes.error).toBeUndefined();
    const cancelled = auditEvent(
      record({ outcome: 'cancelled', verdict: 'reject', reason: 'task_cancelled: Esc' }),
      2,
    );
    expect(cancelled.attributes).toMatchObject({
      success: 'false',
      error: 'task_cancelled: Esc',
      decision_type: 'reject',
      decision_source: 'user_abort',
    });
  });
});

describe('the attributes every event carries', () => {
  it('session, tool, parameters, identity, the decider and the chain link', () => {
    const event = auditEvent(
      decisionLine({
        requestId: 'req-1',
        verdict: 'accept',
        args: { command: 'npm test' },
        decidedBy: { channel: 'cli', user: 'bob', host: 'box2', keyId: 'k-123' },
        user: 'alice',
        host: 'box1',
        project: { root: '/src/app', remote: 'git@github.com:o/app.git' },
        wardenVersion: '0.1.0',
        model: 'gpt-x',
        seq: 4,
        prevHash: 'ab'.repeat(32),
      }),
      1,
    );
    expect(event.attributes).toMatchObject({
      'session.id': 's',
      tool_name: 'execute_command',
      tool_parameters: '{"command":"npm test"}',
      'app.version': '0.1.0',
      'user.name': 'alice',
      'warden.request_id': 'req-1',
      'warden.risk': 'medium',
      'warden.rule': 'ask-commands',
      'warden.approver': 'human',
      'warden.channel': 'cli',
      'warden.key_id': 'k-123',
      'warden.approver.user': 'bob',
      'warden.approver.host': 'box2',
      'warden.host': 'box1',
      'warden.project.root': '/src/app',
      'warden.project.remote': 'git@github.com:o/app.git',
      'warden.model': 'gpt-x',
      'warden.audit.seq': 4,
      'warden.audit.prev_hash': 'ab'.repeat(32),
    });
    expect(event.timestamp.toISOString()).toBe('2025-01-02T10:00:00.000Z');
  });

  it('a two-person card names its second approver, and the first approval is marked partial', () => {
    const event = auditEvent(
      decisionLine({
        approver: 'human',
        verdict: 'accept',
        decidedBy: { channel: 'tui', user: 'alice', host: 'a' },
        secondBy: { channel: 'cli', user: 'bob', host: 'b', keyId: 'k2' },
        partial: '1 of 2',
      }),
      1,
    );
    expect(event.attributes).toMatchObject({
      'warden.approver.user': 'alice',
      'warden.second.user': 'bob',
      'warden.second.key_id': 'k2',
      'warden.second.channel': 'cli',
      'warden.partial': '1 of 2',
    });
  });

  it('a request queued for a person is approval_requested; long parameters are cut', () => {
    const event = auditEvent(decisionLine({ phase: 'requested', args: { content: 'x'.repeat(10_000) } }), 1);
    expect(event.name).toBe('approval_requested');
    expect(String(event.attributes.tool_parameters).length).toBeLessThan(4200);
  });
});
