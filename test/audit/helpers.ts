import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/protocol/audit';
import { afterAll, beforeAll } from 'vitest';
import { runAuditCli } from '../../src/audit/cli';
import { type AuditWriter, createAuditWriter } from '../../src/audit/writer';

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

/**
 * A real audit writer on a temp folder for this file's tests (an append that fails throws), closed
 * and removed after them. Call at the top level; read `dir` and `writer` inside tests.
 */
export function tempAuditWriter(prefix: string): { readonly dir: string; readonly writer: AuditWriter } {
  let dir = '';
  let writer: AuditWriter | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    writer = createAuditWriter({
      dir,
      sessionId: 's',
      onError: (e) => {
        throw e;
      },
    });
  });
  afterAll(() => {
    writer?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get writer() {
      if (!writer) throw new Error('tempAuditWriter: used outside a test');
      return writer;
    },
  };
}
