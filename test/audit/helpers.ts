import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/protocol/audit';

/** A complete outcome record; override what the test is about. */
export function record(overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    ts: '2025-01-02T10:00:00.000Z',
    sessionId: 's',
    agentId: 'main',
    taskId: 't1',
    tool: 'execute_command',
    args: { command: 'npm test' },
    argsHash: 'h',
    decision: 'ask',
    approver: 'human',
    outcome: 'executed',
    phase: 'outcome',
    rule: 'ask-commands',
    risk: 'medium',
    ...overrides,
  };
}

/** Writes raw day files: `{ '2025-01-02': [record | raw line] }`. */
export function writeDays(dir: string, days: Record<string, (AuditRecord | string)[]>): void {
  mkdirSync(dir, { recursive: true });
  for (const [day, lines] of Object.entries(days)) {
    const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    appendFileSync(join(dir, `audit-${day}.jsonl`), text);
  }
}

/** A temp dir and its cleanup. */
export function makeTemp(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-audit-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
