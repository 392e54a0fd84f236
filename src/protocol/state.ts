/** The core's state as the UI sees it: `CoreClient.snapshot()` returns a `CoreState`. */
import type { ApprovalRequest, Grant, Outcome, RuleSource } from './approval';
import type { AuditRecord } from './audit';
import type { TurnReview } from './review';
import type { Suggestion } from './feedback';

export type Mode = 'manual' | 'auto-edit' | 'plan' | 'auto';
export const MODES: readonly Mode[] = ['manual', 'auto-edit', 'plan', 'auto'];

export type AgentStatus = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';
export type AgentInfo = {
  id: string;
  name: string;
  parentId?: string;
  taskId: string;
  task: string;
  status: AgentStatus;
  report?: string;
  /** Which of the person's prompts started it (CoreState.prompt at the time): the group shows this prompt's. */
  prompt?: number;
};

export type ToolCardStatus = 'running' | 'waiting' | Outcome;
/** A plan step: 1-based `index` of `total`, and its text. */
export type ToolStep = { index: number; total?: number; title?: string };
/** The calls of one model answer that ran side by side: the transcript may show them as one group. */
export type ToolBatch = { id: string; size: number };
/** The last lines a running call printed (at most 5; the last may be unfinished), of `total` lines so far. */
export type ToolOutputTail = { lines: string[]; total: number };
/** One line of a transcript diff: `no` is the old line for `-`, the new line otherwise. */
export type ToolDiffLine = { sign: ' ' | '-' | '+'; no: number; text: string };
/**
 * The folded diff an approved write keeps in the transcript: at most a few hunks (`skipped`
 * unchanged lines before each), each line cut; `more` changed lines past the caps.
 */
export type ToolDiff = {
  path: string;
  isNew: boolean;
  added: number;
  removed: number;
  hunks: { skipped: number; lines: ToolDiffLine[] }[];
  more: number;
};
export type TranscriptEntry =
  | { kind: 'user'; id: string; text: string }
  | { kind: 'assistant'; id: string; agentId: string; text: string; streaming: boolean }
  | {
      kind: 'tool';
      id: string;
      agentId: string;
      tool: string;
      summary: string;
      status: ToolCardStatus;
      /** The result's first line (its output, or the reason it did not run). */
      result?: string;
      /** The result's whole text (the tool's own capped output, or the reason), for the last lines and Ctrl+O. */
      output?: string;
      /** While running: the newest lines of its output. */
      tail?: ToolOutputTail;
      /** When it began running (ms since the epoch; reset when a person approves it), for the elapsed time. */
      startedAt?: number;
      /** The plan step its agent was on. */
      step?: ToolStep;
      /** An executed write the person approved: its folded diff, bounded (src/session/compact-diff.ts). */
      diff?: ToolDiff;
      /** Its batch, when it ran side by side with other calls of the same answer. */
      batch?: ToolBatch;
    }
  | { kind: 'notice'; id: string; level: 'info' | 'warn' | 'error'; text: string }
  /** The start banner: what this session runs with, first in the transcript. */
  | { kind: 'banner'; id: string; start: StartInfo };

/**
 * What a session started with, as its banner shows it: the model, the endpoint's host (never a key
 * or a path), the project root, the mode, whether commands run in the bubblewrap sandbox (and why
 * not), and whether this is the scripted demo model.
 */
export type StartInfo = {
  model: string;
  demo: boolean;
  /** Host (and port) of the model endpoint; absent for the demo model. */
  endpoint?: string;
  root: string;
  mode: Mode;
  sandbox: { kind: 'bubblewrap' } | { kind: 'off'; reason: string };
};

export type PlanState = { title: string; steps: { text: string; done: boolean }[] };

/**
 * One place policy rules were loaded from, as the core reports it for /policy. `held`: rules kept back
 * (untrusted project); `ignored`: rules that do not count because the managed config allows its own
 * only. `locked`: the managed policy, which nothing below loosens — `lines` lists its rules, `only`
 * says the user's and project's rules do not count.
 */
export type PolicySourceInfo = {
  source: RuleSource;
  path?: string;
  rules: number;
  error?: string;
  held?: number;
  ignored?: number;
  locked?: true;
  lines?: string[];
  only?: true;
};

/** One rule or setting of a project's `.warden` files that would loosen the gate. */
/**
 * One thing a project's files would loosen; `broad`: a rule that lets every tool, every call or any
 * program through. `command`: a custom slash command of `.warden/commands/` (a prompt sent in one word).
 */
export type LooseningItem = {
  kind: 'rule' | 'setting' | 'command';
  file: string;
  text: string;
  broad?: true;
};

/**
 * Whether the project's `.warden/policy.json` and `config.json` may loosen the gate. `none`: they
 * loosen nothing, there is nothing to trust. `untrusted`: `items` are held back (ask and deny rules
 * count anyway). `trusted`: `items` are in force, bound to `hash` (a change needs trust again).
 * `asking`: the trust card is waiting for the person. `by`: where trust came from.
 */
export type ProjectTrustState = {
  status: 'none' | 'untrusted' | 'trusted';
  asking: boolean;
  hash: string;
  items: LooseningItem[];
  by?: 'record' | 'flag' | 'person';
  /** Where the trust record is kept (`$WARDEN_HOME/trust.json`). */
  store: string;
};

/**
 * An instruction file in every agent's system prompt (/memory lists them): the person's own
 * (`$WARDEN_HOME/AGENTS.md`), the project's at its root, or a folder's on the way to where warden
 * started (`folder`, relative to the root). `bytes`: how much of it was read; `truncated`: cut (a
 * file is capped at 64 KB, all of them together at 128 KB).
 */
export type InstructionFileInfo = {
  path: string;
  scope: 'person' | 'project' | 'folder';
  bytes: number;
  truncated?: true;
  folder?: string;
};

/**
 * The names of the UI's built-in slash commands: a custom command by one of these names never replaces
 * it (the UI's own table, components/commands.ts, is checked against this list).
 */
export const BUILT_IN_COMMANDS = [
  'help',
  'mode',
  'audit',
  'grants',
  'policy',
  'undo',
  'init',
  'memory',
  'clear',
  'compact',
  'model',
  'resume',
  'cancel',
  'pause',
  'go',
  'plan',
  'mcp',
  'quit',
] as const;

/** A built-in slash command's name. */
export type BuiltInCommand = (typeof BUILT_IN_COMMANDS)[number];

/**
 * A custom slash command from a Markdown file: the person's (`$WARDEN_HOME/commands/<name>.md`) or the
 * project's (`.warden/commands/<name>.md`). `hidden`: listed but not offered — `built-in`: a built-in
 * command has its name (the built-in stays); `yours`: your own command of that name wins over the
 * project's; `untrusted`: the project's files are not trusted yet.
 */
export type CustomCommandInfo = {
  name: string;
  description?: string;
  argumentHint?: string;
  source: 'user' | 'project';
  file: string;
  hidden?: 'built-in' | 'yours' | 'untrusted';
};

export type CoreState = {
  sessionId: string;
  root: string;
  model: { name: string; demo: boolean };
  mode: Mode;
  /** Modes the managed config forbids (`lockModes`): the mode key skips them, `/mode` refuses them. */
  lockedModes?: Mode[];
  sandboxed: boolean;
  /** The sandbox probe has not answered yet (the app's first moments): calls wait for it. */
  sandboxChecking?: true;
  busy: boolean;
  pending: ApprovalRequest[];
  grants: Grant[];
  agents: AgentInfo[];
  transcript: TranscriptEntry[];
  plan?: PlanState;
  /** Tokens the model reported, and its responses (main and sub-agents): the turns a run took. */
  usage: { promptTokens: number; completionTokens: number; responses: number };
  recentAudit: AuditRecord[];
  mcp: { name: string; status: 'starting' | 'ready' | 'failed'; tools: number; error?: string }[];
  /** Where the active rules came from; optional, the UI says so when a core does not report it. */
  policy?: { sources: PolicySourceInfo[] };
  /** The project's trust; absent from a core that does not report it. */
  trust?: ProjectTrustState;
  /** Suggestions offered and not yet answered; absent from a core that offers none. */
  suggestions?: Suggestion[];
  /** The turn review waiting for the person (the latest turn that changed files), when reviews are on. */
  review?: TurnReview;
  /** How checkpoints are kept: a shadow git repository, or (without git) copies of warden's own writes only. */
  checkpoints?: { kind: 'git' } | { kind: 'copies'; reason: string };
  /** Present while the audit log cannot be written: every tool call fails closed (`audit_unavailable`). */
  auditUnavailable?: { error: string; since: string };
  /** The audit log's export to an OpenTelemetry collector, when one is configured: where, and its counts so far. */
  auditExport?: AuditExportState;
  /** How many prompts the person has sent (1-based number of the latest); sub-agents carry theirs in `AgentInfo.prompt`. */
  prompt?: number;
  /** What is paused (no new model requests, no new tool calls): every agent, or these agent ids. Absent when nothing is. */
  paused?: PauseState;
  /** The main conversation's share of the model's context window; absent until measured. */
  context?: ContextUse;
  /** A /compact summary waiting for the person's yes or no (answered by `accept_compact`). */
  compact?: CompactProposal;
  /** The instruction files in the system prompt, in the order they are given (/memory); absent from a core that does not say. */
  instructions?: InstructionFileInfo[];
  /** The custom slash commands, the person's first; absent from a core that has none to offer. */
  customCommands?: CustomCommandInfo[];
};

/** The export's counts (src/audit/export): `pending` handed over and not yet sent or failed. */
export type AuditExportState = {
  endpoint: string;
  /** What configured it: an OTEL_* variable or `audit.export.endpoint`. */
  from: string;
  sent: number;
  failed: number;
  dropped: number;
  pending: number;
  lastError?: string;
  lastErrorAt?: string;
};

/** `all`: every agent is paused; `agents`: the agents paused one by one ('main' is the main agent). */
export type PauseState = { all: boolean; agents: string[] };

/**
 * Tokens the main conversation fills of `window`: `server` from the last response's usage (plus a
 * count of what was added since), `tokenizer` counted locally when the server reports no usage.
 */
export type ContextUse = { used: number; window: number; source: 'server' | 'tokenizer' };

/**
 * A summary the model wrote of the conversation, shown before it replaces the history: `before` is
 * the conversation's tokens now, `after` what system prompt + summary would take. `offered`: warden
 * offered it because the next request would pass ~90 % of the window (declining goes on as before).
 */
export type CompactProposal = {
  id: string;
  summary: string;
  before: number;
  after: number;
  offered: boolean;
};
