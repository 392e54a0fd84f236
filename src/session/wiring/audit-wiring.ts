import { join } from 'node:path';
import { type AuditWriter, auditSinkOf, createAuditWriter } from '../../audit/writer';
import type { CoreEvent, CoreState } from '../../protocol';
import type { SessionState } from '../session-state';

/** What the audit wiring hands the session: the writer (to flush and close) and the gate's sink. */
export type SessionAudit = { writer: AuditWriter; sink: ReturnType<typeof auditSinkOf> };

/**
 * The session's audit log. No audit line, no execution: while the log cannot be written the gate
 * refuses every call, and the state says so (the TUI's banner, headless's exit code) until a write or
 * the writer's probe succeeds. Every line written shows in the audit panel as it lands.
 */
export function wireAudit(d: {
  home: string;
  sessionId: string;
  state: CoreState;
  view: SessionState;
  emit: (event: CoreEvent) => void;
}): SessionAudit {
  const { state, emit } = d;
  const writer = createAuditWriter({
    dir: join(d.home, 'audit'),
    sessionId: d.sessionId,
    onError: (err) => {
      state.auditUnavailable = { error: err.message, since: new Date().toISOString() };
      emit({
        type: 'notice',
        level: 'error',
        text: `The audit log cannot be written (${err.message}); every tool call is refused until it can (audit_unavailable).`,
      });
    },
    onRecover: () => {
      delete state.auditUnavailable;
      emit({
        type: 'notice',
        level: 'info',
        text: 'The audit log can be written again; tool calls run as before.',
      });
    },
  });
  const sink = auditSinkOf(writer, (record) => {
    d.view.addAudit(record);
    emit({ type: 'audit_recorded', record });
  });
  return { writer, sink };
}
