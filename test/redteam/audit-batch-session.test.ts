/**
 * Red team, shared audit writes seen from the session: nothing the UI is told (`audit_recorded`, the
 * state's recent audit lines, a tool's result) may claim a line the file does not hold yet, and the
 * recent lines keep the file's order when refusals (sync appends) land in the middle of a burst.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/protocol';
import type { AuditRecord } from '../../src/protocol/audit';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditDayFiles } from '../helpers/audit-lines';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The raw lines of every day file in the session's audit folder, in file order. */
function auditLines(home: string): string[] {
  const dir = join(home, 'audit');
  if (!existsSync(dir)) return [];
  return auditDayFiles(dir)
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter(Boolean);
}

describe('a burst in auto-edit, refusals mixed in', () => {
  it('each audit_recorded line is in the file when it is told; each result comes after its outcome line; the recent lines keep the file order', async () => {
    const toolCalls = Array.from({ length: 24 }, (_, i) => ({
      name: 'write_file',
      // Every fourth asks for a path outside the project: refused by the fence, written at once.
      args: { path: i % 4 === 3 ? `../escape-${i}.txt` : `burst/f${i}.txt`, content: `c${i}` },
    }));
    h = await startSession([{ text: 'Writing.', toolCalls }, { text: 'Done.' }], {
      approver: false,
      session: { mode: 'auto-edit' },
    });
    const home = h.home;
    const late: string[] = [];
    const unresolved: string[] = [];
    const pathOf = new Map<string, string>();
    h.session.client.subscribe((event: CoreEvent) => {
      const lines = auditLines(home);
      if (event.type === 'tool_started') pathOf.set(event.callId, (event.args as { path: string }).path);
      if (event.type === 'audit_recorded') {
        if (!lines.includes(JSON.stringify(event.record)))
          late.push(`${event.record.phase} ${JSON.stringify(event.record.args)}`);
      }
      if (event.type === 'tool_finished') {
        const outcome = lines
          .map((l) => JSON.parse(l) as AuditRecord)
          .find(
            (r) => r.phase === 'outcome' && (r.args as { path?: string }).path === pathOf.get(event.callId),
          );
        if (!outcome) unresolved.push(event.callId);
      }
    });
    const turn = await h.session.run('write the files');
    expect(turn.status).toBe('done');
    expect(late).toEqual([]);
    expect(unresolved).toEqual([]);
    const file = auditLines(home);
    expect(file).toHaveLength(48);
    const written = file.map((l) => JSON.parse(l) as AuditRecord);
    expect(written.filter((r) => r.outcome === 'executed')).toHaveLength(18);
    expect(written.filter((r) => r.outcome === 'blocked')).toHaveLength(6);
    // What the audit panel shows last is what the file holds last, in the same order.
    const recent = h.session.client.snapshot().recentAudit.map((r) => JSON.stringify(r));
    expect(recent).toEqual(file.slice(-recent.length));
  });
});
