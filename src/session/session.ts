/**
 * The composition root: builds the guards, settings, policy, gate, audit, tools and agents of one
 * session, in order, and exposes them to a UI only as a `CoreClient`. The only module that creates
 * tools. It builds and owns nothing: the settings have their owner (session-settings.ts), the events
 * theirs (session-events.ts), each part's wiring its own module (wiring/), and the session's face —
 * client, run, close — is wiring/session-face.ts. The one forward reference is the hub (HubRef).
 */
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { READ_FILE_TOOL } from '../tools/fs/read-file';
import { WRITE_FILE_TOOL } from '../tools/fs/write-file';
import { watchProjectRoot } from '../tools/fs/safe-fs-root';
import { ESCALATE_TOOL } from '../tools/interact/escalate';
import { REVERT_TURN_TOOL } from '../tools/interact/revert-turn';
import { createTools } from '../tools/index';
import { WEB_SEARCH } from '../tools/web/web-search';
import { HomeGuard } from '../trust/home-guard';
import { CustomCommands } from '../commands/custom-commands';
import { BUILT_IN_COMMANDS } from '../protocol';
import { AnswerBox, watchAnswers } from '../answers/inbox';
import { loadApprovers } from '../answers/approvers';
import { managedName, readManagedSettings } from '../config/managed';
import { policyDigest } from '../gate/hash';
import { ApprovedWrites } from './approved-writes';
import { Feedback } from './feedback/feedback';
import { takeSessionLock } from './saved/session-lock';
import { loadSession, replayTranscript, resumeNotices, resumedMode } from './saved/session-resume';
import { SessionCommands } from './session-commands';
import { createNotifier } from './notify';
import { SessionEvents } from './session-events';
import { SessionSettings } from './session-settings';
import { SessionInstructions } from './session-instructions';
import { SessionState, initialCoreState } from './session-state';
import type { Session, SessionOptions } from './session-types';
import { wireAgents } from './wiring/agents-wiring';
import { wireAudit } from './wiring/audit-wiring';
import { wireCheckpoints } from './wiring/checkpoints';
import { watchModelAnswers } from './answer-watch';
import { answerHooks, lazyCommandGuard } from './wiring/command-guard-loader';
import { inFlightWarmUp } from './in-flight-warm-up';
import { HubRef, planGrants, wireGate } from './wiring/gate-wiring';
import { HomeWatch, readOnlyTools } from './wiring/home-watch';
import { endLeftoverRuns, sweepInterruptedWrites } from './wiring/housekeeping';
import { wireMcp } from './wiring/mcp-wiring';
import { wireRecorder } from './wiring/recorder';
import { announceStart, deferredSandboxCheck, pickSandbox } from './wiring/sandbox-check';
import { sessionFace } from './wiring/session-face';
import { wireHooks } from './wiring/hooks-wiring';
import { sessionFence } from './wiring/session-fence';
import { projectStartOf, wireTrust, writeRule } from './wiring/trust-wiring';

export type { Session, SessionOptions } from './session-types';

/** Builds a session. Contract: rejects with a clear message for a broken policy file or a required sandbox that is missing. */
export async function createSession(o: SessionOptions): Promise<Session> {
  const sessionId = o.resume ?? o.sessionId ?? randomUUID();
  const { home } = o;
  // The managed layer (/etc/warden): locked modes, managed rules only, two-person cards, approvers.
  const managed = o.managed ?? readManagedSettings(home);
  // Read before anything starts: a broken registry of approvers' keys stops the start (never half read).
  const approvers = loadApprovers(managed.approverDirs);
  const project = projectStartOf({ ...o, root: realpathSync.native(resolve(o.root)) });
  const fence = sessionFence({ ...o, managedDir: managed.dir, snapshot: project.snapshot });
  const root = fence.root;
  const model = { name: o.model.name, demo: o.model.demo };
  const state = initialCoreState({ sessionId, root, model, mode: o.mode, sandboxed: false });
  const locked = { modes: managed.lockModes, by: managedName(managed) };
  const settings = new SessionSettings(state, { mode: o.mode, webSearchUrl: o.webSearchUrl, locked });
  const events = new SessionEvents();
  const { emit } = events;
  const life: { closed: boolean; rootGone?: string } = { closed: false };
  const guard = lazyCommandGuard(o.loadCommandGuard, emit);
  // warden's own settings files are watched across tool calls so nothing behind the gate rewrites them.
  const homeGuard = new HomeGuard(home);
  const trust = wireTrust({ ...o, project, root, settings, homeGuard, managed, emit });
  const policy = trust.load();
  // Custom slash commands: yours, and the project's once its files are trusted (they follow trust).
  const customCommands = new CustomCommands({
    home,
    builtins: BUILT_IN_COMMANDS,
    project: () => trust.commands(),
    warn: (text) => emit({ type: 'notice', level: 'warn', text }),
    publish: (list) => {
      state.customCommands = list;
    },
  });
  events.tap((event) => {
    if (event.type === 'trust_changed') customCommands.refresh();
  });
  const answering = watchModelAnswers(events);
  // The probe (a bwrap spawn) waits for the first screen when the app asks so (wiring/sandbox-check.ts).
  const later = o.checkSandboxAfterStart === true && o.sandbox === 'auto';
  if (later) settings.checkingSandbox();
  else settings.setSandbox(await pickSandbox(o.sandbox));
  if (!policy.ok) throw new Error(policy.error);
  settings.setRules(policy.rules);
  // Resuming reads the saved session first: a damaged file stops here, before anything is written.
  const loaded = o.resume ? loadSession(home, o.resume, root) : undefined;
  // One process holds a session: a second warden is told who holds it.
  const sessionLock = takeSessionLock(home, sessionId);
  if (!sessionLock.ok) throw new Error(sessionLock.message);
  settings.setMode(o.modeFromFlag ? o.mode : resumedMode(loaded?.restored.mode, o.mode));
  const view = new SessionState(state);
  events.tap((event) => view.apply(event));
  if (loaded) replayTranscript(view, loaded.restored.replay);
  const recorder = wireRecorder({ home, sessionId, root, model: o.model.name, settings, loaded, emit });
  events.listen((event) => recorder.onEvent(event));
  const announce = () => announceStart(view, settings, { ...o, root });
  if (!later) announce();
  customCommands.refresh();
  // What no first screen needs runs with the deferred sandbox check, or at once (below) otherwise. The
  // command judge's module (not its grammar) starts loading with it: the first command finds it loaded
  // (its file read waits out the probe: bubblewrap's start stalls this process's reads, measured).
  const housekeeping = () => {
    sweepInterruptedWrites(root, emit);
    void guard.prepare();
  };
  const closed = () => life.closed;
  const sandboxChecked = later
    ? deferredSandboxCheck({ settings, closed, beforeProbe: housekeeping, announce, emit })
    : () => Promise.resolve();
  const leftovers = endLeftoverRuns(home, emit);
  const audit = wireAudit({ home, sessionId, state, view, emit, exportTo: o.auditExport });
  const hubRef = new HubRef();
  const grants = planGrants(hubRef);
  events.tap((event) => {
    if (event.type === 'plan_updated') grants.planChanged();
  });
  // Repeated approvals and edits become offers (never rules by themselves); rejections reach every agent.
  const feedback = new Feedback({
    home,
    root,
    emit,
    audit: (entry) => audit.sink.append(entry),
    saveRule: (target, rule) => writeRule({ root, home, homeGuard, trust, managed }, target, rule),
    rulesCount: !managed.rulesOnly,
    ...(o.suggestions ? { thresholds: o.suggestions, enabled: o.suggestions.enabled !== false } : {}),
  });
  const startWarnings: string[] = [...audit.warnings];
  const checkpoints = wireCheckpoints({
    ...{ home, root, sessionId, git: o.checkpointGit, state, view },
    warnings: startWarnings,
  });
  // Approved once is approved: the turn review does not ask again for what a card showed.
  const approvedWrites = new ApprovedWrites();
  // Built in one direction: tools → gate → hub. The agent tools reach the hub through their ToolContext.
  const tools = createTools({
    ...{ home, readPaths: o.sandboxReadPaths ?? [], checkpoints },
    ...(o.webSearchUrl ? { webSearch: { kind: 'searxng', url: o.webSearchUrl } } : {}),
  });
  // Answers given in another terminal (`warden approve`) reach the gate as decisions with who gave them.
  const answers = new AnswerBox({
    ...{ home, sessionId, emit, approvers },
    policyDigest: () => policyDigest(settings.policy()),
  });
  // The person's hooks and a trusted project's: where the gate judges, where its queue asks, and after.
  const mode = () => settings.policy().mode;
  const hooks = wireHooks({
    ...o,
    ...{ root, sessionId, managedHooksOnly: managed.hooksOnly, trust, tools, mode, emit },
  });
  events.listen(hooks.onEvent);
  // The person may not be looking: a card waiting, one about to expire, a turn's end (notify.ts).
  const notifier = createNotifier({
    method: o.notify?.method ?? 'auto',
    ...(o.notify?.command ? { command: o.notify.command } : {}),
    project: root,
    emit: (event) => life.closed || emit(event),
    onNotify: hooks.onNotify,
  });
  events.listen(notifier.onEvent);
  const gate = wireGate({
    ...{ tools, fence, commands: guard.commands, loadCommandGuard: guard.ready, ready: sandboxChecked },
    ...{ settings, checkpoints, approvalTimeoutSec: o.approvalTimeoutSec, view, approvedWrites, grants },
    ...{ audit: audit.sink, sessionId, home, feedback, hub: hubRef, answers, hooks, emit },
    network: o.sandboxNetwork ?? [],
    twoPerson: managed.twoPerson?.rule,
  });
  const inbox = watchAnswers(answers, gate, home);
  events.listen(inbox.onEvent);
  // The web search the trusted project names follows trust.
  settings.onChange(({ url }) => {
    const search = url ? createTools({ webSearch: { kind: 'searxng', url } }, ['web']) : [];
    gate.replaceTools(
      WEB_SEARCH,
      search.filter((t) => t.name === WEB_SEARCH),
    );
  });
  events.tap(new HomeWatch({ home, root, tools, homeGuard, trust, settings, emit }).onEvent);
  // AGENTS.md: the person's, the project's, and its folders' down to where warden started (/memory).
  const instructions = new SessionInstructions({
    ...{ home, root, cwd: o.cwd, state },
    warn: (text) => emit({ type: 'notice', level: 'warn', text }),
  });
  instructions.load();
  const { hub, context } = wireAgents({
    ...o,
    instructions: () => instructions.text(),
    ...{ gate, hubRef, state, view, settings, feedback, checkpoints, journal: recorder.journal, root },
    ...{ readOnly: readOnlyTools(tools), escalateTool: ESCALATE_TOOL, emit },
    answerHooks: answerHooks(
      tools,
      guard,
      answering,
      inFlightWarmUp({ tools, guard, model: o.model, answering }),
    ),
  });
  if (loaded) {
    hub.restore(loaded.restored.history, loaded.restored.plan, loaded.restored.turns);
    for (const n of resumeNotices(loaded, o.modeFromFlag ? o.mode : undefined, o.mode)) {
      view.notice(n.level, n.text);
      if (n.level === 'warn') startWarnings.push(n.text);
    }
  }
  if (!later) housekeeping();
  // A root deleted mid-session stops the session: nothing more runs, and no write recreates it. Its
  // identity is taken now, with the fence's real path, so a root swapped during start-up is caught.
  const stopRootWatch = watchProjectRoot(root, (message) => {
    life.rootGone = message;
    emit({ type: 'error', message });
    hub.cancel();
    gate.close('task_cancelled', message);
  });
  const mcp = wireMcp({ servers: o.mcpServers ?? {}, state, gate, grants, emit, closed });
  const commands = new SessionCommands({
    // A prompt typed before the start banner (the sandbox's verdict) waits for it.
    started: sandboxChecked,
    ...{ trust, homeGuard, hub, gate, grants, feedback, view, emit, home, root, fence, checkpoints },
    ...{ context, approvedWrites, settings, mcp, instructions, customCommands, managed },
    auditDir: join(home, 'audit'),
    undoTool: REVERT_TURN_TOOL,
    attachTool: READ_FILE_TOOL,
    writeTool: WRITE_FILE_TOOL,
    // The person's `!command` runs through the tool that judges commands (execute_command).
    personTool: tools.find((t) => t.guarded?.command !== undefined)?.name,
    reviewTurns: o.reviewTurns !== false,
  });
  const changing = new Set(
    tools.filter((t) => t.kind === 'write' || t.kind === 'execute').map((t) => t.name),
  );
  return sessionFace({
    ...{ state, settings, hub, gate, grants, trust, feedback, home, root, sessionId, model: o.model },
    ...{ contextWindowTokens: o.contextWindowTokens, onResume: o.onResume, events, commands, recorder },
    ...{ checkpoints, tools, fence, changing, loaded, audit, mcp, guard, answering, sandboxChecked },
    ...{ startWarnings, life, stopRootWatch, sessionLock, leftovers, inbox, managed, hooks },
  });
}
