import type { AuditRecord } from '../src/protocol/audit';

/** A typical outcome line the audit benches append: a command with an env secret, a short result. */
export function sampleRecord(i: number, ts = '2025-01-02T10:00:00.000Z'): AuditRecord {
  return {
    ts,
    sessionId: 'bench',
    requestId: `req-${i}`,
    agentId: 'main',
    taskId: 'task-1',
    tool: 'execute_command',
    args: {
      command: `API_TOKEN=abc123 npm test -- --grep "case ${i}"`,
      cwd: '/home/user/project',
      timeoutMs: 120000,
    },
    argsHash: '3f786850e387550fdab836ed7e6dc881de23001b3f786850e387550fdab836ed',
    decision: 'ask',
    approver: 'human',
    outcome: 'executed',
    phase: 'outcome',
    rule: 'ask-commands',
    risk: 'medium',
    waitMs: 1834,
    durationMs: 5120,
    result: `exit 0\n ✓ 42 tests passed in ${i}ms`,
  };
}
