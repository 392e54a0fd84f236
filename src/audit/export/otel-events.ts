/**
 * An audit line as an OpenTelemetry log event, named and shaped like Claude Code's, so a collector,
 * query or dashboard written for its `tool_decision` and `tool_result` events reads warden's too:
 *
 * - a decision line → `tool_decision`: `tool_name`, `decision` (`accept` | `reject`), `source`
 *   (`config` a rule or the policy decided, `user_temporary` a person approved, `user_permanent` a
 *   grant they made allowed it, `user_reject` a person rejected it, `user_abort` nobody decided in
 *   time or the task was cancelled, `hook` a hook decided);
 * - an outcome line → `tool_result`: `tool_name`, `success` (`"true"` | `"false"`), `duration_ms`,
 *   `error`, `decision_type`, `decision_source`, `tool_parameters` (the arguments' redacted JSON);
 * - a request queued for a person → `approval_requested`.
 *
 * Every event also carries `event.name`, `event.timestamp`, `event.sequence`, `session.id`,
 * `app.version`, `user.name` and warden's own `warden.*` attributes (request id, risk, rule,
 * approver, channel, key id, project, model, the line's chain link). Pure: table-tested.
 */
import type { AuditRecord } from '../../protocol/audit';

export type EventAttributes = Record<string, string | number | boolean>;

/** One log event: its name, body, time and attributes. */
export type AuditEvent = { name: string; body: string; timestamp: Date; attributes: EventAttributes };

/** How much of the arguments' JSON `tool_parameters` keeps. */
const MAX_PARAMETERS_CHARS = 4096;

/** The event for one audit line, `sequence` its number in this process's export (1, 2, …). */
export function auditEvent(record: AuditRecord, sequence: number): AuditEvent {
  const name =
    record.phase === 'outcome'
      ? 'tool_result'
      : record.phase === 'requested'
        ? 'approval_requested'
        : 'tool_decision';
  const attributes: EventAttributes = {
    'event.name': name,
    'event.timestamp': record.ts,
    'event.sequence': sequence,
    'session.id': record.sessionId,
    tool_name: record.tool,
  };
  if (record.wardenVersion) attributes['app.version'] = record.wardenVersion;
  if (record.user) attributes['user.name'] = record.user;
  const decision = decisionOf(record);
  const source = sourceOf(record, decision);
  if (name === 'tool_decision') {
    attributes.decision = decision;
    attributes.source = source;
  } else if (name === 'tool_result') {
    attributes.success = String(record.outcome === 'executed');
    if (record.durationMs !== undefined) attributes.duration_ms = Math.round(record.durationMs);
    if (record.outcome !== 'executed' && record.reason) attributes.error = record.reason;
    attributes.decision_type = decision;
    attributes.decision_source = source;
  }
  attributes.tool_parameters = parameters(record.args);
  Object.assign(attributes, wardenAttributes(record));
  const time = Date.parse(record.ts);
  return {
    name,
    body: `warden.${name}`,
    timestamp: Number.isFinite(time) ? new Date(time) : new Date(),
    attributes,
  };
}

/** `accept` when the call was let through, `reject` when it was stopped. */
export function decisionOf(record: AuditRecord): 'accept' | 'reject' {
  if (record.verdict) return record.verdict;
  // A line without a verdict (an older warden's): what its fields say.
  if (record.decision === 'deny' || record.approver === 'none') return 'reject';
  if (record.outcome !== undefined && record.outcome !== 'executed' && record.outcome !== 'error')
    return 'reject';
  return 'accept';
}

/** Claude Code's `source` for who decided. */
export function sourceOf(record: AuditRecord, decision: 'accept' | 'reject'): string {
  const { approver } = record;
  if (approver.startsWith('hook:') || record.decidedBy?.channel === 'hook') return 'hook';
  if (approver === 'policy' || approver === 'rule') return 'config';
  if (approver === 'grant') return 'user_permanent';
  if (approver === 'human') {
    if (decision === 'accept') return 'user_temporary';
    return record.outcome === 'cancelled' ? 'user_abort' : 'user_reject';
  }
  return 'user_abort';
}

/** warden's own attributes: what the gate decided and why, who gave the decision, where. */
function wardenAttributes(r: AuditRecord): EventAttributes {
  const a: EventAttributes = {
    'warden.phase': r.phase,
    'warden.policy_decision': r.decision,
    'warden.approver': r.approver,
    'warden.rule': r.rule,
    'warden.risk': r.risk,
    'warden.agent_id': r.agentId,
    'warden.task_id': r.taskId,
    'warden.args_hash': r.argsHash,
  };
  const set = (key: string, value: string | number | undefined) => {
    if (value !== undefined) a[key] = value;
  };
  set('warden.request_id', r.requestId);
  set('warden.agent_name', r.agentName);
  set('warden.outcome', r.outcome);
  set('warden.reason', r.reason);
  set('warden.wait_ms', r.waitMs === undefined ? undefined : Math.round(r.waitMs));
  const by = r.decidedBy;
  if (by) {
    set('warden.channel', by.channel);
    set('warden.key_id', by.keyId);
    set('warden.hook', by.hook);
    set('warden.approver.user', by.user);
    set('warden.approver.host', by.host);
    set('warden.approver.tty', by.tty);
  }
  // A two-person card: the second approver, and the first approval's own line (`partial`).
  const second = r.secondBy;
  if (second) {
    set('warden.second.channel', second.channel);
    set('warden.second.key_id', second.keyId);
    set('warden.second.user', second.user);
    set('warden.second.host', second.host);
  }
  set('warden.partial', r.partial);
  set('warden.host', r.host);
  set('warden.project.root', r.project?.root);
  set('warden.project.remote', r.project?.remote);
  set('warden.model', r.model);
  set('warden.audit.seq', r.seq);
  set('warden.audit.prev_hash', r.prevHash);
  return a;
}

function parameters(args: unknown): string {
  const text = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  return text.length > MAX_PARAMETERS_CHARS ? `${text.slice(0, MAX_PARAMETERS_CHARS)}…` : text;
}
