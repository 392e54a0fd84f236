import type { Approver, DecidedBy, Outcome, Risk } from './approval';

export type AuditPhase = 'requested' | 'decision' | 'outcome' | 'connection';

/** Whether an audit line was written whole; the gate runs nothing without it. */
export type AuditWrite = { ok: true } | { ok: false; error: string };

/** One line of `$WARDEN_HOME/audit/audit-YYYY-MM-DD.jsonl`. */
export type AuditRecord = {
  ts: string;
  sessionId: string;
  requestId?: string;
  agentId: string;
  /** The agent's display name (sub-agents are named by their parent). */
  agentName?: string;
  taskId: string;
  tool: string;
  args: unknown;
  editedArgs?: unknown;
  argsHash: string;
  decision: 'allow' | 'ask' | 'deny';
  approver: Approver;
  /** Who decided and through which channel, on the lines of a decision a person or a hook gave. */
  decidedBy?: DecidedBy;
  /** A card that needed two people: who gave the second approval (`decidedBy` gave the first). */
  secondBy?: DecidedBy;
  /** On a `requested` line: a two-person card got its first approval (`decidedBy`) and waits for a second, `1 of 2`. */
  partial?: string;
  /** Absent on `requested` and `decision` lines; present on the outcome line. */
  outcome?: Outcome;
  /**
   * `requested`: a request was queued for a person (so a hard stop still shows what was waiting);
   * `decision`: what was decided, written before any effect; `outcome`: what happened;
   * `connection`: one connection a running command's proxy allowed or refused (between the two).
   */
  phase: AuditPhase;
  rule: string;
  risk: Risk['level'];
  reason?: string;
  waitMs?: number;
  durationMs?: number;
  result?: string;
  /** Who started the call: absent or `agent` for the model's calls, `person` for a `!command` the person ran. */
  origin?: 'agent' | 'person';
  /** The id of the request, pending when warden stopped, that this resumed call re-offered. */
  resumedFrom?: string;
  /**
   * On decision and outcome lines of a call: whether the call was let through (`accept`: it ran, or
   * failed on the way) or stopped (`reject`: denied, rejected, skipped, timed out, cancelled).
   */
  verdict?: 'accept' | 'reject';
  /** The OS user warden runs as (a decision from elsewhere names its giver in `decidedBy`). */
  user?: string;
  host?: string;
  /** The project: its root and git remote (credentials cut out). */
  project?: { root: string; remote?: string };
  wardenVersion?: string;
  model?: string;
  /** The line's place in its day's hash chain (src/audit/chain): 1, 2, … in the day file. */
  seq?: number;
  /** sha256 of the line before it in the day file, newline included (the day before's last for the first). */
  prevHash?: string;
};

/** Where an older page of audit records starts: a day and a byte offset in its file. */
export type AuditCursor = { day: string; offset: number };

export type AuditQuery = {
  /** Inclusive dates, YYYY-MM-DD. */
  from?: string;
  to?: string;
  tool?: string;
  outcome?: Outcome;
  approver?: Approver;
  agent?: string;
  text?: string;
  limit?: number;
};

/** See `auditStats` in stats.ts for the exact definitions (it always fills the optional counts). */
export type AuditStats = {
  /** Every record summarised, decision and outcome lines alike. */
  total: number;
  /** Records with an outcome: one per finished call. `byOutcome`/`byApprover` count these. */
  outcomes?: number;
  /** Outcome records whose approver is `human`: the denominator of the three rates. */
  humanDecisions?: number;
  byOutcome: Partial<Record<Outcome, number>>;
  byApprover: Partial<Record<Approver, number>>;
  /** Shares of human decisions, exclusive: approve (incl. approve-all), reject, edit. 0..1. */
  approveRate: number;
  rejectRate: number;
  editRate: number;
  /** One wait per request; null when no record has `waitMs`. */
  waitMedianMs: number | null;
  waitP95Ms: number | null;
  /** Requests that went to a person (distinct request ids): the denominator of `timeoutRate`. */
  asked?: number;
  /** Share of those requests that ended with nobody deciding in time. 0..1. */
  timeoutRate?: number;
  /** Share of requests asking again for a call already asked in the session (same tool and arguments), gate repeats included. 0..1. */
  repeatRate?: number;
  /** Share of a person's approvals given in under one second: the figure that says a rule asks too much. 0..1. */
  rubberStampRate?: number;
  /** Calls per rule (one decision line each), most first; `asked`: how many of them asked a person. */
  ruleHits?: { rule: string; hits: number; asked: number }[];
};
