import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/protocol/audit';
import { runAuditCli } from '../../src/audit/cli';

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

/** `warden audit` run in-process over `dir` at a fixed clock, its output collected (raw sinks). */
export function runCli(
  dir: string,
  argv: string[],
  o: { now?: Date; columns?: number } = {},
): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runAuditCli(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    auditDir: dir,
    now: o.now ?? new Date('2025-01-03T12:00:00Z'),
    ...(o.columns === undefined ? {} : { columns: o.columns }),
  });
  return { code, out, err };
}
