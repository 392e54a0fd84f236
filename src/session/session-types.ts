import type { ManagedSettings } from '../config/managed';
import type { NotifyMethod } from '../config/schema';
import type { HooksConfig } from '../config/hooks-schema';
import type { ExportResolution } from '../config/audit-export';
import type { EscalationThresholds } from '../agent/escalation';
import type { TurnResult } from '../agent/loop';
import type { ModelClient } from '../llm/types';
import type { McpServerConfig } from '../mcp/types';
import type { CommandGuard } from '../policy/command/command-types';
import type { CoreClient, Mode, TurnStop } from '../protocol';
import type { ProjectStart } from '../trust/project-trust';
import type { SuggestionThresholds } from './feedback/feedback';

// What a session is built from and what it hands its caller (the app, headless, tests).

export type SessionOptions = {
  /** Loads the command guard (the shell grammar) on first use; tests pass one that fails. Defaults to the bundled parser. */
  loadCommandGuard?: () => Promise<CommandGuard>;
  root: string;
  home: string;
  /** Where warden was started: the AGENTS.md of each folder between the root and it counts too. */
  cwd?: string;
  model: ModelClient;
  mode: Mode;
  /** The person named `mode` on the command line (`--mode`): it wins over the mode a resumed session saved. */
  modeFromFlag?: boolean;
  approvalTimeoutSec: number;
  sandbox: 'auto' | 'off' | 'require';
  maxStepsPerTurn: number;
  contextWindowTokens: number;
  protectedPaths?: string[];
  webSearchUrl?: string;
  /** Folders commands may read besides the project (`sandbox.readPaths` of the person's own config). */
  sandboxReadPaths?: string[];
  /** Hosts a command that names them reaches through warden's proxy without a card (`sandbox.network`, your own config). */
  sandboxNetwork?: string[];
  mcpServers?: Record<string, McpServerConfig & { source?: 'user' | 'project' }>;
  sessionId?: string;
  /** A saved session to resume (its id): its conversation, transcript, mode and plan come back; grants do not. */
  resume?: string;
  /** The UI asked to resume another saved session (`resume_session`); without it the command is refused. */
  onResume?: (sessionId: string) => void;
  /** The review card after a turn that changed files (default on); headless never shows it. */
  reviewTurns?: boolean;
  /** The git binary for checkpoints; `null` forces the copies fallback (tests); found on PATH when absent. */
  checkpointGit?: string | null;
  /**
   * The app draws its first screen before the sandbox probe runs (`sandbox: 'auto'` only): the state
   * says `sandboxChecking` and the banner waits for the verdict, every tool call waits for it, and
   * `checkSandbox()` starts it (the gate starts it too, should a call come first).
   */
  checkSandboxAfterStart?: boolean;
  /** When an agent stops and escalates to the person (default 3 failures in a row, 2 similar rejections). */
  escalation?: EscalationThresholds;
  /** A first notice in the transcript (the demo says it is a demo). */
  banner?: string;
  /** The model endpoint's host, for the start banner (never a key: `endpointHost` keeps the host only). */
  endpoint?: string;
  /** The project's files as the config loader read them and whether they are trusted; read here when absent. */
  project?: ProjectStart;
  /** Offers to save repeated approvals and edits: thresholds, or `enabled: false`. */
  suggestions?: Partial<SuggestionThresholds> & { enabled?: boolean };
  /** The person's own hooks ($WARDEN_HOME/config.json); a project's come with its trust. */
  hooks?: HooksConfig;
  /** How the person is told when a card waits or a turn ends (their own config only). */
  notify?: { method: NotifyMethod; command?: readonly string[] };
  /** Offer /compact before a request would overflow the context window (the app: on; headless has nobody to ask). */
  offerCompact?: boolean;
  /**
   * The managed layer (locked modes, managed rules only, two-person cards, approvers' keys) as the
   * config loader read it; read now from `WARDEN_SYSTEM_DIR` or `/etc/warden` when absent.
   */
  managed?: ManagedSettings;
  /** Where the audit log is exported (OTEL_* variables, `audit.export`), resolved by the caller; absent: nowhere. */
  auditExport?: ExportResolution;
};

export type Session = {
  client: CoreClient;
  /** Runs one prompt to its end (headless). Contract: never throws. */
  run(prompt: string): Promise<{ status: 'done' | 'failed' | 'cancelled'; text: string; stop?: TurnStop }>;
  /** A UI or scripted approver is present; without one every ask fails as `no_approver`. */
  attachApprover(): () => void;
  /**
   * Resolves once no hook runs: what the hooks that hear (PostToolUse, Notification, Stop) said has been
   * told (headless waits for it before its result). Each hook is bounded by its timeout. Never rejects.
   */
  hooksSettled(): Promise<void>;
  /** Makes the command guard ready for `command` (none: any command, the shell parser loaded); resolves once it can judge or failed (then the command asks). */
  loadCommandGuard: (command?: string) => Promise<void>;
  /** Resolves once every configured MCP server is ready, failed or held (each bounded by its start timeout); headless waits for it. */
  mcpStarted: Promise<void>;
  /** Warnings from the start (no git for checkpoints, a resume that skipped a line): headless prints them. */
  startWarnings?: readonly string[];
  /** Whether a tool changes the world (writes, commands, MCP tools): headless exits non-zero when one did not run. */
  changes(tool: string): boolean;
  /**
   * Goes on with the turn a resumed session was stopped in: its waiting requests are offered again
   * (re-validated by the gate), then the model gets the results. Call once an approver is attached.
   * Resolves undefined when there is nothing to go on with. Contract: never throws.
   */
  resumeTurn(): Promise<TurnResult | undefined>;
  /**
   * Uses an idle moment (the person typing the first prompt): opens the shadow repository
   * ahead of the first checkpoint, so a first card's checkpoint is only the snapshot, and runs once the
   * code a first answer and its card need (session/idle-warm-up.ts). Not with a turn on its way: its
   * sync writes and git spawns (3-5 ms of main thread each) would land between the answer and the card.
   * Contract: never throws; takes no snapshot, writes nothing to the project, opens no connection.
   */
  warmUp(): void;
  /**
   * A headless run parks: the saved session stops recording as it stands (its waiting requests are
   * offered again on resume), the waiting requests end as `parked` in the audit, and the turn stops.
   * Contract: never throws.
   */
  park(reason: string): void;
  /** Runs the sandbox probe a session started with `checkSandboxAfterStart` put off; resolves once it answered (at once otherwise). Contract: never rejects. */
  checkSandbox(): Promise<void>;
  close(): Promise<void>;
};
