import { join } from 'node:path';
import type { CheckpointStore } from '../../agent/checkpoints';
import type { AgentHub } from '../../agent/hub';
import type { TurnResult } from '../../agent/loop';
import { interruptedOutcome, openDecision } from '../../audit/open-decision';
import type { Gate } from '../../gate/gate';
import type { ModelClient } from '../../llm/types';
import { ofTypes } from '../../protocol/client';
import type { AnyTool } from '../../tools/types';
import type { PathFence } from '../../policy/guards/path-guard';
import type { AnswerWatch } from '../answer-watch';
import { commandWarmUp } from '../command-warm-up';
import type { LazyCommandGuard } from './command-guard-loader';
import { startIdleWarmUp } from '../idle-warm-up';
import { INTERRUPTED, settleInterrupted } from '../saved/resume-turn';
import type { LoadedSession } from '../saved/session-resume';
import type { SessionRecorder } from '../saved/store';
import type { SessionCommands } from '../session-commands';
import type { SessionEvents } from '../session-events';
import type { Session } from '../session-types';
import type { SessionAudit } from './audit-wiring';
import type { SessionMcp } from './mcp-wiring';
import { sessionsCommand } from './sessions-command';
import { type SnapshotParts, buildSnapshot } from './snapshot';

/** How long shutdown waits for cancelled turns to end: the command kill grace (2 s), its output drain (1 s), and room. */
const SHUTDOWN_WAIT_MS = 5000;

/** What the session's face reaches: the built parts, and the session's lifecycle (`life`, `rootGone`). */
export type FaceParts = SnapshotParts & {
  sessionId: string;
  model: ModelClient;
  contextWindowTokens: number;
  onResume?: ((sessionId: string) => void) | undefined;
  events: SessionEvents;
  hub: AgentHub;
  gate: Gate;
  commands: SessionCommands;
  recorder: SessionRecorder;
  checkpoints: CheckpointStore;
  tools: readonly AnyTool[];
  fence: PathFence;
  changing: ReadonlySet<string>;
  loaded: LoadedSession | undefined;
  audit: SessionAudit;
  mcp: SessionMcp;
  guard: LazyCommandGuard;
  /** The quiet between model answers, when the command warm-up runs its steps. */
  answering: AnswerWatch;
  sandboxChecked: () => Promise<void>;
  startWarnings: readonly string[];
  life: { closed: boolean; rootGone?: string };
  stopRootWatch: () => void;
  sessionLock: { release(): void };
  leftovers: Promise<void>;
  inbox: { close(): void };
  hooks: { settled(): Promise<void>; close(): Promise<void> };
};

/** The session as its caller sees it: the UI's client, headless's run, and one way to close. */
export function sessionFace(p: FaceParts): Session {
  const { events, hub, gate, commands, recorder, life, home, root, sessionId } = p;
  const { emit } = events;
  let continuing: Promise<TurnResult> | undefined;
  // The first command's judge, sandbox layout and protection scan, made ready ahead of it.
  const warmCommands = commandWarmUp({
    sandboxChecked: p.sandboxChecked,
    tools: p.tools,
    root: p.fence.root,
    fence: p.fence,
    prepareJudge: p.guard.prepare,
    quiet: (calmMs) => p.answering.quiet(calmMs),
    closed: () => life.closed,
  });
  /**
   * A call that had begun when warden stopped hard (a second signal, `kill -9`) left its decision line
   * without an outcome: the resume closes it, so the log says what became of every call it allowed.
   */
  const closeInterrupted = (tool: string, rawArgs: string): void => {
    const argsHash = gate.argsHashOf(tool, rawArgs);
    if (argsHash === undefined) return;
    const decision = openDecision(join(home, 'audit'), { sessionId, tool, argsHash });
    if (decision) p.audit.sink.append(interruptedOutcome(decision, INTERRUPTED.reason ?? 'interrupted'));
  };
  return {
    client: {
      subscribe: (listener, only) => events.listen(ofTypes(listener, only)),
      changes: (listener) => events.listen((event) => listener(event.type)),
      send: (command) => {
        if (life.rootGone && command.type === 'submit')
          return emit({ type: 'error', message: life.rootGone });
        if (command.type === 'list_sessions' || command.type === 'resume_session')
          return sessionsCommand(command, {
            home,
            root,
            sessionId,
            busy: hub.busy,
            onResume: p.onResume,
            emit,
          });
        commands.handle(command);
        if (command.type === 'clear') recorder.cleared();
        if (command.type === 'submit') void warmCommands();
      },
      snapshot: () => events.snapshot(() => buildSnapshot(p)),
    },
    run: (prompt) => {
      if (life.rootGone) return Promise.resolve({ status: 'failed' as const, text: life.rootGone });
      const turn = commands.runPrompt(prompt);
      void warmCommands();
      return turn;
    },
    attachApprover: () => gate.attachApprover(),
    hooksSettled: () => p.hooks.settled(),
    warmUp: () =>
      void startIdleWarmUp({
        busy: () => life.closed || hub.busy,
        openCheckpoints: () => p.checkpoints.prepare(),
        tools: [...p.tools],
        model: p.model,
      }).then(() => (life.closed || hub.busy ? undefined : warmCommands())),
    resumeTurn(): Promise<TurnResult | undefined> {
      const step = p.loaded?.restored.interrupted;
      if (!step || continuing || life.closed) return Promise.resolve(undefined);
      const deps = {
        gate,
        emit,
        contextWindowTokens: p.contextWindowTokens,
        recordInterrupted: closeInterrupted,
      };
      const turn = hub
        .continueTurn((caller) => settleInterrupted(step, caller, deps))
        .finally(() => emit({ type: 'state_changed' }));
      continuing = turn;
      emit({ type: 'state_changed' });
      return turn;
    },
    park(reason) {
      // What a resume finds is the session as it stood with the cards waiting; nothing after is recorded.
      recorder.freeze();
      gate.close('parked', reason);
      hub.cancel();
    },
    loadCommandGuard: p.guard.ready,
    checkSandbox: p.sandboxChecked,
    mcpStarted: p.mcp.started,
    startWarnings: p.startWarnings,
    // MCP tools are opaque: any of them may change something.
    changes: (tool) => p.changing.has(tool) || tool.startsWith('mcp__'),
    async close() {
      if (life.closed) return;
      life.closed = true;
      p.stopRootWatch();
      p.inbox.close();
      events.relay.close();
      // The saved session ends as it stood: a waiting request is offered again on resume, not failed.
      recorder.freeze();
      hub.cancel();
      gate.close('input_closed', 'warden is shutting down.');
      // Every way out ends the same way: the cancelled turns kill their commands and write their
      // outcome lines before the log closes (bounded; the exit handler kills what is left).
      await commands.settled(SHUTDOWN_WAIT_MS);
      if (continuing) await settledWithin(continuing, SHUTDOWN_WAIT_MS);
      // A hook still running (a Stop hook, a notifier) is stopped: its whole process group.
      await p.hooks.close();
      await recorder.close();
      p.sessionLock.release();
      await p.leftovers;
      await p.mcp.close();
      // A checkpoint started when a card showed may still be writing the shadow repository.
      await p.checkpoints.settled();
      await p.audit.close();
    },
  };
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
