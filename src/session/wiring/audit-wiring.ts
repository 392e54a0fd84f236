import { hostname } from 'node:os';
import { join } from 'node:path';
import { AuditExport } from '../../audit/export/audit-export';
import type { ExportResolution } from '../../config/audit-export';
import { WARDEN_VERSION, sessionIdentity } from '../../audit/identity/session-identity';
import { type AuditWriter, auditSinkOf, createAuditWriter } from '../../audit/writer';
import type { CoreEvent, CoreState } from '../../protocol';
import type { SessionState } from '../session-state';

/** What the audit wiring hands the session: the writer, the gate's sink, and one way to close both. */
export type SessionAudit = {
  writer: AuditWriter;
  sink: ReturnType<typeof auditSinkOf>;
  /** What the start should say (an export setting that cannot be used), already in the transcript. */
  warnings: string[];
  /** Flushes the log, then sends what the export still holds (bounded). Contract: never rejects. */
  close(): Promise<void>;
};

/**
 * The session's audit log. No audit line, no execution: while the log cannot be written the gate
 * refuses every call, and the state says so (the TUI's banner, headless's exit code) until a write or
 * the writer's probe succeeds. Every line carries who and where (the OS user, host, project, warden's
 * version, the model), shows in the audit panel as it lands, and — once it is in the file — goes to
 * the export when one is configured (its counts in `state.auditExport`).
 */
export function wireAudit(d: {
  home: string;
  sessionId: string;
  state: CoreState;
  view: SessionState;
  emit: (event: CoreEvent) => void;
  exportTo?: ExportResolution | undefined;
}): SessionAudit {
  const { state, emit } = d;
  const dir = join(d.home, 'audit');
  const writer = createAuditWriter({
    dir,
    sessionId: d.sessionId,
    identity: sessionIdentity(state.root, () => state.model.name),
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
  const warnings: string[] = [];
  const exporter = startExport(d, dir, (text) => {
    warnings.push(text);
    d.view.notice('warn', text);
  });
  const sink = auditSinkOf(writer, (record, at) => {
    d.view.addAudit(record);
    emit({ type: 'audit_recorded', record });
    exporter?.record(at);
  });
  return {
    writer,
    sink,
    warnings,
    async close() {
      await writer.flush();
      writer.close();
      await exporter?.close();
    },
  };
}

/** The export the resolution names, its counts kept in the state; a bad setting is said and exports nothing. */
function startExport(
  d: {
    sessionId: string;
    state: CoreState;
    emit: (event: CoreEvent) => void;
    exportTo?: ExportResolution | undefined;
  },
  dir: string,
  warn: (text: string) => void,
): AuditExport | undefined {
  const to = d.exportTo;
  if (!to || to.kind === 'off') return undefined;
  if (to.kind === 'error') {
    warn(`The audit log is not exported: ${to.error}`);
    return undefined;
  }
  for (const text of to.warnings) warn(text);
  const exporter = new AuditExport({
    settings: to.settings,
    sessionId: d.sessionId,
    dir,
    resource: { 'service.name': 'warden', 'service.version': WARDEN_VERSION, 'host.name': hostname() },
    onChange: (status) => {
      d.state.auditExport = status;
      d.emit({ type: 'state_changed' });
    },
  });
  d.state.auditExport = exporter.status();
  return exporter;
}
