/**
 * The composition root: builds the guards, policy, gate, audit, tools and agents of one session
 * and exposes them to a UI only as a `CoreClient`. The only module that creates tools.
 * Over 400 lines: the composition root wires every part once, in order, with no late binding;
 * the wiring of trust, MCP and the home guard is next to split out (src/session/wire-*.ts).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createCheckpointStore } from '../agent/checkpoints';
import { checkpointCoverage } from '../gate/write-coverage';
import { ApprovedWrites } from './approved-writes';
import { AgentHub } from '../agent/hub';
import { readAgentsMd } from '../agent/system-prompt';
import { interruptedOutcome, openDecision } from '../audit/open-decision';
import { auditSinkOf, createAuditWriter } from '../audit/writer';
import { startIdleWarmUp } from './idle-warm-up';
import { type ApprovalEvent, Gate } from '../gate/gate';
import { GrantStore } from '../gate/grants';
import type { ModelClient } from '../llm/types';
import type { McpServerConfig } from '../mcp/types';
import type { McpManager } from '../mcp/manager';
import { failClosedCommandGuard, loadCommandGuard } from '../policy/command/command-guard';
import { loadShellGrammarWords } from '../policy/shell-grammar-words';
import { DEFAULT_RULES } from '../policy/defaults';
import { policyFiles } from '../policy/load-policy';
import { DEFAULT_PROTECTED_PATHS, PathFence } from '../policy/guards/path-guard';
import type { CommandGuard } from '../policy/command/command-types';
import type { LoadedRule } from '../policy/rules';
import type {
  CoreClient,
  CoreEvent,
  CoreState,
  Mode,
  PlanState,
  PolicySourceInfo,
  ProjectTrustState,
  TurnStop,
  CoreCommand,
} from '../protocol';
import { ofTypes } from '../protocol/client';
import type { TrustedValues } from '../config/load';
import { SessionCommands } from './session-commands';
import { INTERRUPTED, settleInterrupted } from './saved/resume-turn';
import { loadSession, replayTranscript, resumeNotices, resumedMode } from './saved/session-resume';
import { takeSessionLock } from './saved/session-lock';
import { isInside, keptNotice, mayWriteHome } from './home-writers';
import { createSessionRecorder } from './saved/store';
import { listSessions } from './saved/store-index';
import type { TurnResult } from '../agent/loop';
import type { Caller } from '../gate/gate';
import type { ChatMessage } from '../llm/types';
import { Feedback, type SuggestionThresholds } from './feedback/feedback';
import { planKeyOf } from '../gate/plan-scope';
import { OutputRelay } from './output-relay';
import { ContextControl } from './context-control';
import { SessionState, initialCoreState } from './session-state';
import { createAskUserTool } from '../tools/interact/ask-user';
import { createEscalateTool } from '../tools/interact/escalate';
import { DEFAULT_ESCALATION, type EscalationThresholds } from '../agent/escalation';
import { createCoreTools } from '../tools/index';
import { createProposePlanTool } from '../tools/interact/propose-plan';
import { createRevertTurnTool } from '../tools/interact/revert-turn';
import { detectSandbox } from '../tools/exec/sandbox';
import { MountPointLedger } from '../tools/exec/sandbox-mount-points';
import { createSpawnAgentsTool } from '../tools/interact/spawn-agents';
import { READ_FILE_TOOL } from '../tools/fs/read-file';
import type { AnyTool, SandboxInfo } from '../tools/types';
import { createUpdatePlanTool } from '../tools/interact/update-plan';
import { WEB_SEARCH, createWebTools } from '../tools/web/web-search';
import { removeFileSafely, writeFileSafely } from '../tools/fs/safe-fs';
import { watchProjectRoot } from '../tools/fs/safe-fs-root';
import { HomeGuard } from '../trust/home-guard';
import { homeHiddenPaths, homePatternsInProject } from '../trust/home-in-project';
import { ProjectTrust, type ProjectStart } from '../trust/project-trust';
import { startWithoutConfig } from '../trust/start';
import { sweepStaleTemps } from '../tools/fs/safe-fs-sweep';
import { recordRunsIn, sweepLeftoverRuns } from '../tools/exec/run-ledger';

/** How long shutdown waits for cancelled turns to end: the command kill grace (2 s), its output drain (1 s), and room. */
const SHUTDOWN_WAIT_MS = 5000;

export type SessionOptions = {
  /** Loads the command guard (the shell grammar) on first use; tests pass one that fails. Defaults to the bundled parser. */
  loadCommandGuard?: () => Promise<CommandGuard>;
  root: string;
  home: string;
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
  /** Offers to save repeated approvals and edits (issue 14 §5): thresholds, or `enabled: false`. */
  suggestions?: Partial<SuggestionThresholds> & { enabled?: boolean };
  /** Offer /compact before a request would overflow the context window (the app: on; headless has nobody to ask). */
  offerCompact?: boolean;
};

export type Session = {
  client: CoreClient;
  /** Runs one prompt to its end (headless). Contract: never throws. */
  run(prompt: string): Promise<{ status: 'done' | 'failed' | 'cancelled'; text: string; stop?: TurnStop }>;
  /** A UI or scripted approver is present; without one every ask fails as `no_approver`. */
  attachApprover(): () => void;
  /** Loads the command guard (the shell parser) if not yet loaded; resolves once it is usable or failed (then every command asks). */
  loadCommandGuard: () => Promise<void>;
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
   * Uses an idle moment (the person typing the first prompt, issue 16): opens the shadow repository
   * ahead of the first checkpoint, so a first card's checkpoint is only the snapshot, and runs once the
   * code a first answer and its card need (session/idle-warm-up.ts). Not with a turn on its way: its
   * sync writes and git spawns (3-5 ms of main thread each) would land between the answer and the card.
   * Contract: never throws; takes no snapshot, writes nothing to the project, opens no connection.
   */
  warmUp(): void;
  /** Runs the sandbox probe a session started with `checkSandboxAfterStart` put off; resolves once it answered (at once otherwise). Contract: never rejects. */
  checkSandbox(): Promise<void>;
  close(): Promise<void>;
};

/** Builds a session. Contract: rejects with a clear message for a broken policy file or a required sandbox that is missing. */
export async function createSession(o: SessionOptions): Promise<Session> {
  const sessionId = o.resume ?? o.sessionId ?? randomUUID();
  // WARDEN_HOME inside the project is protected like .warden: a write there is a high-risk card.
  // Whatever the root, no tool reads the records in WARDEN_HOME (other projects' sessions, the audit).
  const fence = new PathFence(
    o.root,
    [...DEFAULT_PROTECTED_PATHS, ...(o.protectedPaths ?? []), ...homePatternsInProject(o.home, o.root)],
    { hidden: homeHiddenPaths(o.home, o.root) },
  );
  // The shell parser (a wasm grammar, ~15 MB of memory) loads when the first command is to be
  // judged: a session that runs no command never pays for it. The gate waits for it before judging
  // a command call (other calls never wait); until then the guard can judge nothing.
  let guard: CommandGuard = failClosedCommandGuard('the command parser is still loading');
  let guardLoading: Promise<void> | undefined;
  const guardReady = (): Promise<void> =>
    (guardLoading ??= (o.loadCommandGuard ?? loadCommandGuard)().then(
      (loaded) => {
        guard = loaded;
        // The audit reads command lines' words with the same grammar (shell-aware redaction).
        if (!o.loadCommandGuard) void loadShellGrammarWords();
      },
      (err: Error) => {
        // Without the parser nothing can be judged, so every command asks — never a silent allow.
        const warning = `The command parser did not load (${err.message}); every command will ask.`;
        guard = failClosedCommandGuard(warning);
        emit({ type: 'notice', level: 'warn', text: warning });
      },
    ));
  const commands: CommandGuard = { judge: (command) => guard.judge(command) };
  // A project's rules count only as far as the person trusts them (src/trust); the user's own
  // settings files are watched across tool calls so nothing behind the gate rewrites them.
  const homeGuard = new HomeGuard(o.home);
  const trust: ProjectTrust = new ProjectTrust({
    home: o.home,
    start:
      o.project ??
      startWithoutConfig(o.home, fence.root, {
        mode: o.mode,
        ...(o.webSearchUrl ? { webSearch: { provider: 'searxng', url: o.webSearchUrl } } : {}),
      }),
    setRules: (next) => {
      rules = next;
    },
    applyValues: (to, from) => applyTrustValues(to, from),
    wroteTrust: (text) => homeGuard.accept('trust.json', text),
    emit: (event) => emit(event),
  });
  const policy = trust.load();
  // The probe (a bwrap spawn, ~3 ms of main thread) waits for the first screen when the app asks so:
  // until it answers the state says "checking" and every call waits for it (see `sandboxChecked`).
  const later = o.checkSandboxAfterStart === true && o.sandbox === 'auto';
  let sandbox: SandboxInfo = later
    ? { kind: 'none', reason: 'the sandbox check has not answered yet' }
    : await pickSandbox(o.sandbox);
  if (!policy.ok) throw new Error(policy.error);
  let rules: LoadedRule[] = policy.rules;
  // Resuming reads the saved session first: a damaged file stops here, before anything is written.
  const loaded = o.resume ? loadSession(o.home, o.resume, fence.root) : undefined;
  // One process holds a session (issue 29 §3): a second warden is told who holds it.
  const sessionLock = takeSessionLock(o.home, sessionId);
  if (!sessionLock.ok) throw new Error(sessionLock.message);
  let mode = o.modeFromFlag ? o.mode : resumedMode(loaded?.restored.mode, o.mode);
  // Everyone hearing events. Delivery walks `listening`, an array made again only when someone joins
  // or leaves (never changed in place: a delivery under way keeps the list it started with).
  const listeners = new Set<(event: CoreEvent) => void>();
  let listening: readonly ((event: CoreEvent) => void)[] = [];
  const listen = (listener: (event: CoreEvent) => void): (() => void) => {
    listeners.add(listener);
    listening = [...listeners];
    return () => {
      listeners.delete(listener);
      listening = [...listeners];
    };
  };
  const state = initialCoreState({
    sessionId,
    root: fence.root,
    model: { name: o.model.name, demo: o.model.demo },
    mode,
    sandboxed: sandbox.kind !== 'none',
  });
  if (later) state.sandboxChecking = true;
  const view = new SessionState(state);
  if (loaded) replayTranscript(view, loaded.restored.replay);
  // The conversation and its events go to $WARDEN_HOME/sessions/ as they happen (store.ts).
  const recorder = createSessionRecorder({
    home: o.home,
    sessionId,
    root: fence.root,
    model: o.model.name,
    mode: () => mode,
    onError: (err) =>
      emit({
        type: 'notice',
        level: 'warn',
        code: 'session_unsaved',
        text: `This session cannot be saved (${err.message}); it goes on, but cannot be resumed later.`,
      }),
    ...(loaded ? { resumed: loaded.summary, recorded: loaded.restored.history.length } : {}),
  });
  listen((event) => recorder.onEvent(event));
  // A running call's output is coalesced (one event per call per ~50 ms, only the newest text kept).
  const relay = new OutputRelay((event) => deliver(event));
  const emit = (event: CoreEvent) => {
    if (event.type === 'tool_output') return relay.push(event);
    if (event.type === 'tool_finished') relay.end(event.callId);
    deliver(event);
  };
  // Calls running now: a burst of read-only calls is followed by one home check, not one per call.
  const inFlight = new Map<string, string>();
  const deliver = (event: CoreEvent) => {
    view.apply(event);
    if (event.type === 'plan_updated') grants.planChanged();
    if (event.type === 'tool_started') inFlight.set(event.callId, event.tool);
    if (event.type === 'tool_finished') {
      inFlight.delete(event.callId);
      if (inFlight.size === 0 || !readOnly.has(event.tool)) guardHome(event.tool);
    }
    for (const listener of listening) {
      try {
        listener(event);
      } catch {
        // A UI listener's failure must not break the core.
      }
    }
  };
  /** The start banner and what it implies, once the sandbox's verdict is known. */
  const announce = (): void => {
    view.banner({
      model: o.model.name,
      demo: o.model.demo,
      ...(o.endpoint && !o.model.demo ? { endpoint: o.endpoint } : {}),
      root: fence.root,
      mode,
      sandbox: sandbox.kind === 'none' ? { kind: 'off', reason: sandbox.reason } : { kind: 'bubblewrap' },
    });
    if (o.banner) view.notice('info', o.banner);
    if (sandbox.kind === 'none')
      view.notice('warn', `Commands are not sandboxed (${sandbox.reason}); every command will ask.`);
  };
  if (!later) announce();
  let sandboxCheck: Promise<void> | undefined = later ? undefined : Promise.resolve();
  /** Runs the deferred probe once; every caller (the app after its first frame, the gate) shares it. */
  const sandboxChecked = (): Promise<void> =>
    (sandboxCheck ??= Promise.resolve()
      .then(() => {
        // A session closed before its first call starts nothing more.
        if (!closed) housekeeping();
        return pickSandbox('auto');
      })
      .catch(
        (err: Error): SandboxInfo => ({ kind: 'none', reason: `the sandbox check failed: ${err.message}` }),
      )
      .then((found) => {
        sandbox = found;
        state.sandboxed = found.kind !== 'none';
        delete state.sandboxChecking;
        // Closed meanwhile (the app ended within the check): its files are shut, nothing more is said.
        if (closed) return;
        announce();
        emit({ type: 'state_changed' });
      }));

  // No audit line, no execution: while the log cannot be written the gate refuses every call, and the
  // state says so (the TUI's banner, headless's exit code) until a write or the writer's probe succeeds.
  // Commands carry a run id; a run a killed warden left behind is ended now (run-ledger.ts).
  recordRunsIn(join(o.home, 'runs'));
  const leftovers = sweepLeftoverRuns(join(o.home, 'runs')).then(({ runs, processes }) => {
    if (processes > 0)
      emit({
        type: 'notice',
        level: 'warn',
        text: `Stopped ${processes} process${processes === 1 ? '' : 'es'} left running by ${runs} command${runs === 1 ? '' : 's'} of an earlier warden that did not shut down.`,
      });
  });
  const writer = createAuditWriter({
    dir: join(o.home, 'audit'),
    sessionId,
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
  const audit = auditSinkOf(writer, (record) => {
    view.addAudit(record);
    emit({ type: 'audit_recorded', record });
  });
  // A plan grant covers calls only while its plan is the one in force and not done (issue 14 §6).
  const grants: GrantStore = new GrantStore(Date.now, (): string | undefined => {
    const plan: PlanState | undefined = hub.currentPlan();
    if (!plan || plan.steps.every((step) => step.done)) return undefined;
    return planKeyOf(
      plan.title,
      plan.steps.map((step) => step.text),
    );
  });
  // Repeated approvals and edits become offers (never rules by themselves); rejections reach every agent.
  const feedback: Feedback = new Feedback({
    home: o.home,
    root: fence.root,
    emit: (event) => emit(event),
    audit: (entry) => audit.append(entry),
    saveRule: (target, rule): ReturnType<SessionCommands['writeRule']> =>
      commandsHandler.writeRule(target, rule),
    ...(o.suggestions ? { thresholds: o.suggestions, enabled: o.suggestions.enabled !== false } : {}),
  });
  // A revert writes and removes project files through verified folders, like write_file (safe-fs.ts).
  // Checkpoints: a shadow git repository of the project (commands' changes included), else copies of writes.
  const checkpoints = createCheckpointStore({
    home: o.home,
    root: fence.root,
    sessionId,
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root: fence.root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root: fence.root }),
    },
    exclude: homePatternsInProject(o.home, fence.root).map((p) => p.replace(/^\/|\/$/g, '')),
    ...(o.checkpointGit !== undefined ? { git: o.checkpointGit } : {}),
  });
  state.checkpoints =
    checkpoints.mode.kind === 'git' ? { kind: 'git' } : { kind: 'copies', reason: checkpoints.mode.reason };
  const startWarnings: string[] = [];
  if (checkpoints.mode.kind === 'copies') {
    const text = `Checkpoints: ${checkpoints.mode.reason}, so /undo and the turn review cover only warden's own file writes, not what commands change, and not after a restart.`;
    view.notice('warn', text);
    startWarnings.push(text);
  }
  const revertTurn = createRevertTurnTool(checkpoints);
  // Approved once is approved: the turn review does not ask again for what a card showed (issue 27 §3).
  const approvedWrites = new ApprovedWrites();
  const escalate = createEscalateTool();
  // Built in one direction: tools → gate → hub. The agent tools reach the hub through their ToolContext.
  const tools: AnyTool[] = [
    ...createCoreTools(o.home, o.sandboxReadPaths),
    ...createWebTools(o.webSearchUrl ? { search: { kind: 'searxng', url: o.webSearchUrl } } : {}),
    createSpawnAgentsTool(),
    createProposePlanTool(),
    createUpdatePlanTool(),
    createAskUserTool(),
    escalate,
    revertTurn,
  ];
  const gate = new Gate({
    tools,
    deps: {
      fence,
      commands,
      // Whether undo can take a write back decides its risk (issue 27 §1).
      coverage: checkpointCoverage(fence.root, { git: checkpoints.mode.kind === 'git' }),
      get sandbox(): SandboxInfo {
        return sandbox;
      },
    },
    loadCommandGuard: guardReady,
    ready: sandboxChecked,
    policy: () => ({ rules, mode }),
    approvals: {
      timeoutMs: o.approvalTimeoutSec * 1000,
      onEvent: (e) => {
        // The decided request's final preview (an edit included) is the diff its transcript card keeps.
        if (e.type === 'resolved') {
          view.rememberApproved(e.request);
          approvedWrites.heard(e.request, e.outcome);
        }
        emit(approvalEvent(e));
      },
    },
    grants,
    audit,
    sessionId,
    checkpointsCoverProject: () => checkpoints.mode.kind === 'git',
    onDecided: (decided) => {
      feedback.heard(decided);
      if (decided.decision.kind === 'reject') hub.refreshPrompts();
    },
  });
  const readOnly = new Set(tools.filter((t) => t.kind === 'read' || t.kind === 'network').map((t) => t.name));
  const changing = new Set(
    tools.filter((t) => t.kind === 'write' || t.kind === 'execute').map((t) => t.name),
  );
  const kinds = new Map(
    tools.map((t) => [t.name, t.kind === 'write' || t.kind === 'execute' ? t.kind : ('other' as const)]),
  );
  // The context figure, /compact and /model; it reaches the hub built next through these closures.
  const context: ContextControl = new ContextControl({
    model: o.model,
    hub: {
      get busy(): boolean {
        return hub.busy;
      },
      conversation: () => hub.conversation(),
      replaceHistory: (messages) => hub.replaceHistory(messages),
    },
    emit: (event) => emit(event),
    state,
    window: o.contextWindowTokens,
    offer: o.offerCompact === true,
    offerTimeoutMs: o.approvalTimeoutSec * 1000,
    tools: () => gate.specs(false),
  });
  const hub = new AgentHub({
    model: o.model,
    gate,
    emit,
    maxSteps: o.maxStepsPerTurn,
    contextWindowTokens: o.contextWindowTokens,
    contextWatch: context,
    runsInParallel: (name) => readOnly.has(name),
    onUsage: (u) => {
      state.usage.promptTokens += u.promptTokens;
      state.usage.completionTokens += u.completionTokens;
    },
    specs: (sub) => gate.specs(sub),
    checkpoints,
    root: fence.root,
    mode: () => mode,
    journal: recorder.journal,
    context: (): string | undefined => feedback.context(),
    escalation: { thresholds: o.escalation ?? DEFAULT_ESCALATION, tool: escalate.name },
    recordCancel: (task, reason) => gate.recordCancel(task, reason),
    ...withAgentsMd(readAgentsMd(fence.root, (reason) => view.notice('warn', reason))),
  });

  if (loaded) {
    hub.restore(loaded.restored.history, loaded.restored.plan, loaded.restored.turns);
    for (const n of resumeNotices(loaded, o.modeFromFlag ? o.mode : undefined, o.mode)) {
      view.notice(n.level, n.text);
      if (n.level === 'warn') startWarnings.push(n.text);
    }
  }

  /**
   * What no first screen needs, run with the deferred sandbox check when the app draws first (no call
   * runs before that check answers) and at once otherwise.
   */
  const housekeeping = (): void => {
    // Temp files of writes that a crash interrupted (kill -9 mid-write) must not linger for `git add -A`.
    void sweepStaleTemps(fence.root).then((swept) => {
      if (swept.removed.length > 0)
        emit({
          type: 'notice',
          level: 'info',
          text: `Removed ${swept.removed.length} temp file(s) an interrupted write left behind: ${swept.removed.slice(0, 5).join(', ')}.`,
        });
    });
  };
  if (!later) housekeeping();
  // A root deleted mid-session stops the session: nothing more runs, and no write recreates it. Its
  // identity is taken now, with the fence's real path, so a root swapped during start-up is caught.
  let rootGone: string | undefined;
  const stopRootWatch = watchProjectRoot(fence.root, (message) => {
    rootGone = message;
    emit({ type: 'error', message });
    hub.cancel();
    gate.close('task_cancelled', message);
  });

  // The MCP SDK is loaded only when servers are configured, and the servers start on the next turn
  // of the event loop — after the UI's first frame is on screen: start-up is a feature.
  const servers = o.mcpServers ?? {};
  let mcp: McpManager | undefined;
  const mcpStarted: Promise<void> =
    Object.keys(servers).length === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => setImmediate(resolve))
          .then(async () => {
            const { createMcpManager } = await import('../mcp/manager');
            if (closed) return; // warden ended before its first frame: start nothing
            mcp = createMcpManager({
              servers,
              hold: (name) =>
                o.mcpServers?.[name]?.source === 'project'
                  ? "Declared by this project's .warden/config.json, so not started automatically; start it from /mcp (r) if you trust it."
                  : undefined,
              onStatus: (status) => {
                if (!mcp) return;
                state.mcp = mcp.status().map((s) => ({
                  name: s.name,
                  status: s.status,
                  tools: s.tools,
                  ...(s.error ? { error: s.error } : {}),
                }));
                gate.replaceTools('mcp__', mcp.tools());
                if (status.status !== 'ready') grants.dropServer(status.name);
                emit({ type: 'state_changed' });
              },
            });
            await mcp.start();
          })
          .catch((err: Error) =>
            emit({ type: 'notice', level: 'error', text: `MCP servers did not start: ${err.message}` }),
          );

  /** Trust turned on or off: its settings follow, unless the person changed the mode since. */
  function applyTrustValues(to: TrustedValues, from: TrustedValues): void {
    if (to.mode !== from.mode && mode === from.mode) {
      mode = to.mode;
      state.mode = to.mode;
      emit({
        type: 'notice',
        level: 'info',
        text: `Mode: ${to.mode} (from the project's config.json, ${to === o.project?.values.trusted ? 'now trusted' : 'no longer trusted'}).`,
      });
    }
    if (to.webSearch?.url !== from.webSearch?.url) {
      const search = to.webSearch
        ? createWebTools({ search: { kind: 'searxng', url: to.webSearch.url } }).filter(
            (t) => t.name === WEB_SEARCH,
          )
        : [];
      gate.replaceTools(WEB_SEARCH, search);
    }
  }

  /**
   * A call that had begun when warden stopped hard (a second signal, `kill -9`) left its decision line
   * without an outcome: the resume closes it, so the log says what became of every call it allowed.
   */
  function closeInterrupted(tool: string, rawArgs: string): void {
    const argsHash = gate.argsHashOf(tool, rawArgs);
    if (argsHash === undefined) return;
    const decision = openDecision(join(o.home, 'audit'), { sessionId, tool, argsHash });
    if (decision) audit.append(interruptedOutcome(decision, INTERRUPTED.reason ?? 'interrupted'));
  }

  /**
   * After every call of a tool that may change something, and once no call runs any more (a read-only
   * call of warden's own cannot write there; a process the gate cannot fence is found at the latest
   * when the batch it ran beside ends): warden's own settings files changed behind the gate are put
   * back (src/trust/home-guard.ts).
   */
  function guardHome(tool: string): void {
    // Only a process the call started can have been the writer (issue 29 §2): with none that could
    // write there, a change is the person's editor or another warden — kept and read again.
    const couldWrite = [tool, ...inFlight.values()].some((t) =>
      mayWriteHome({
        kind: readOnly.has(t) ? 'read' : (kinds.get(t) ?? 'other'),
        mcp: t.startsWith('mcp__'),
        sandboxed: sandbox.kind !== 'none',
        homeInProject: isInside(fence.root, o.home),
      }),
    );
    if (!couldWrite) {
      const changed = homeGuard.acceptAll();
      if (changed.length === 0) return;
      trust.refresh();
      emit(keptNotice(o.home, changed, tool));
      return;
    }
    for (const t of homeGuard.restoreChanged()) {
      const kept = t.savedAs
        ? ` The changed file is kept as ${t.savedAs}; if you made that change yourself, copy it back while no tool runs.`
        : '';
      const done = t.restored
        ? 'warden put back the version it had loaded'
        : `warden could not put it back (${t.error ?? 'unknown content'}); check it before the next start`;
      emit({
        type: 'notice',
        level: 'error',
        code: 'settings_restored',
        text: `${join(o.home, t.file)} changed behind the gate while ${tool} ran; ${done}.${kept}`,
      });
    }
  }

  const commandsHandler = new SessionCommands({
    started: sandboxChecked,
    trust,
    homeGuard,
    hub,
    gate,
    grants,
    feedback,
    view,
    emit,
    home: o.home,
    root: fence.root,
    auditDir: join(o.home, 'audit'),
    undoTool: revertTurn.name,
    attachTool: READ_FILE_TOOL,
    fence,
    // The person's `!command` runs through the tool that judges commands (execute_command).
    personTool: tools.find((t) => t.guarded?.command !== undefined)?.name,
    checkpoints,
    context,
    reviewTurns: o.reviewTurns !== false,
    approvedWrites,
    mode: () => mode,
    setMode: (next) => {
      mode = next;
      state.mode = next;
    },
    reloadRules: (next) => {
      rules = next;
    },
    restartMcp: async (name) => {
      grants.dropServer(name);
      await mcpStarted;
      if (!mcp) throw new Error('No MCP servers are configured.');
      await mcp.restart(name);
    },
  });

  // Snapshots are immutable: a new object (with new arrays) after any change, the same one otherwise,
  // so a UI can tell by identity whether to render again.
  let version = 0;
  let cached: { version: number; state: CoreState } | undefined;
  listen(() => {
    version += 1;
  });
  const snapshot = (): CoreState => {
    if (cached?.version === version) return cached.state;
    const plan = hub.currentPlan();
    const next: CoreState = {
      ...state,
      pending: gate.pending(),
      grants: grants.list(),
      busy: hub.busy,
      prompt: hub.prompts,
      agents: hub.agents().map((a) => ({ ...a })),
      transcript: [...state.transcript],
      recentAudit: [...state.recentAudit],
      mcp: [...state.mcp],
      usage: { ...state.usage },
      policy: { sources: policySources(rules, policyFiles(o.home, fence.root), trust.state()) },
      trust: trust.state(),
      ...(hub.paused() ? { paused: hub.paused() } : {}),
      ...(feedback.pending().length > 0 ? { suggestions: feedback.pending() } : {}),
      ...(plan ? { plan: { title: plan.title, steps: plan.steps.map((x) => ({ ...x })) } } : {}),
    };
    if (!plan) delete next.plan;
    cached = { version, state: next };
    return next;
  };

  let closed = false;
  let continuing: Promise<TurnResult> | undefined;
  /** /resume's list, and its choice handed to the app (which starts the chosen session in place of this one). */
  const sessionsCommand = (c: Extract<CoreCommand, { type: 'list_sessions' | 'resume_session' }>): void => {
    if (c.type === 'list_sessions')
      return emit({ type: 'sessions_listed', sessions: listSessions(o.home, fence.root) });
    const refusal = !o.onResume
      ? 'Resuming another session needs the app (warden --continue or --resume).'
      : hub.busy
        ? 'A turn is running: wait for it or cancel it (Esc) before resuming another session.'
        : c.id === sessionId
          ? 'That is this session.'
          : !listSessions(o.home, fence.root).some((s) => s.id === c.id)
            ? `There is no saved session ${c.id} for this project.`
            : undefined;
    if (refusal) return emit({ type: 'notice', level: 'warn', text: refusal });
    o.onResume?.(c.id);
  };
  return {
    client: {
      subscribe(listener, only) {
        return listen(ofTypes(listener, only));
      },
      changes(listener) {
        return listen((event) => listener(event.type));
      },
      send: (command) => {
        if (rootGone && command.type === 'submit') return emit({ type: 'error', message: rootGone });
        if (command.type === 'list_sessions' || command.type === 'resume_session')
          return sessionsCommand(command);
        commandsHandler.handle(command);
        if (command.type === 'clear') recorder.cleared();
      },
      snapshot,
    },
    run: (prompt) =>
      rootGone
        ? Promise.resolve({ status: 'failed' as const, text: rootGone })
        : commandsHandler.runPrompt(prompt),
    attachApprover: () => gate.attachApprover(),
    warmUp: () =>
      void startIdleWarmUp({
        busy: () => closed || hub.busy,
        openCheckpoints: () => checkpoints.prepare(),
        tools,
        model: o.model,
      }),
    resumeTurn(): Promise<TurnResult | undefined> {
      const step = loaded?.restored.interrupted;
      if (!step || continuing || closed) return Promise.resolve(undefined);
      const settle = (caller: Caller): Promise<ChatMessage[]> =>
        settleInterrupted(step, caller, {
          gate,
          emit,
          contextWindowTokens: o.contextWindowTokens,
          recordInterrupted: (tool, rawArgs) => closeInterrupted(tool, rawArgs),
        });
      const turn: Promise<TurnResult> = hub
        .continueTurn(settle)
        .finally(() => emit({ type: 'state_changed' }));
      continuing = turn;
      emit({ type: 'state_changed' });
      return turn;
    },
    loadCommandGuard: guardReady,
    checkSandbox: sandboxChecked,
    mcpStarted,
    startWarnings,
    // MCP tools are opaque: any of them may change something.
    changes: (tool) => changing.has(tool) || tool.startsWith('mcp__'),
    async close() {
      if (closed) return;
      closed = true;
      stopRootWatch();
      relay.close();
      // The saved session ends as it stood: a waiting request is offered again on resume, not failed.
      recorder.freeze();
      hub.cancel();
      gate.close('input_closed', 'warden is shutting down.');
      // Every way out ends the same way: the cancelled turns kill their commands and write their
      // outcome lines before the log closes (bounded; the exit handler kills what is left).
      await commandsHandler.settled(SHUTDOWN_WAIT_MS);
      if (continuing) await settledWithin(continuing, SHUTDOWN_WAIT_MS);
      await recorder.close();
      sessionLock.release();
      await leftovers;
      await mcp?.close();
      // A checkpoint started when a card showed may still be writing the shadow repository.
      await checkpoints.settled();
      await writer.flush();
      writer.close();
    },
  };
}

/** Where the rules in force came from, for /policy. */
function policySources(
  rules: readonly LoadedRule[],
  files: { user: string; project: string },
  trust: ProjectTrustState,
): PolicySourceInfo[] {
  const count = (source: 'user' | 'project') => rules.filter((r) => r.source === source).length;
  return [
    { source: 'builtin', rules: DEFAULT_RULES.length },
    { source: 'user', path: files.user, rules: count('user') },
    {
      source: 'project',
      path: files.project,
      rules: count('project'),
      ...(trust.status === 'untrusted' ? { held: trust.items.filter((i) => i.kind === 'rule').length } : {}),
    },
  ];
}

async function pickSandbox(setting: SessionOptions['sandbox']): Promise<SandboxInfo> {
  // Placeholders a killed warden left in a project (empty `.warden`, `package.json` …) go first.
  new MountPointLedger().sweep();
  if (setting === 'off') return { kind: 'none', reason: 'sandbox is off in the config' };
  const found = await detectSandbox();
  if (setting === 'require' && found.kind === 'none')
    throw new Error(`The config requires a sandbox, but ${found.reason}.`);
  return found;
}

function withAgentsMd(text: string | undefined): { agentsMd?: string } {
  return text ? { agentsMd: text } : {};
}

function approvalEvent(e: ApprovalEvent): CoreEvent {
  switch (e.type) {
    case 'requested':
      return { type: 'approval_requested', request: e.request };
    case 'updated':
      return { type: 'state_changed' };
    case 'invalid_input':
      return { type: 'approval_input_invalid', requestId: e.requestId, count: e.count, limit: e.limit };
    case 'resolved': {
      const o = e.outcome;
      if (o.kind === 'decided')
        return {
          type: 'approval_resolved',
          requestId: e.request.id,
          outcome:
            o.decision.kind === 'reject' ? 'rejected' : o.decision.kind === 'skip' ? 'skipped' : 'executed',
          approver: o.approver,
        };
      if (o.kind === 'blocked')
        return {
          type: 'approval_resolved',
          requestId: e.request.id,
          outcome: 'blocked',
          approver: 'policy',
          reason: o.reason,
        };
      return {
        type: 'approval_resolved',
        requestId: e.request.id,
        outcome:
          o.code === 'timeout' || o.code === 'expired'
            ? 'timeout'
            : o.code === 'task_cancelled'
              ? 'cancelled'
              : 'error',
        approver: 'none',
        reason: `${o.code}: ${o.reason}`,
      };
    }
  }
}

/** Resolves once `turn` settles or `ms` pass, whichever is first. Never rejects. */
async function settledWithin(turn: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    turn.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
