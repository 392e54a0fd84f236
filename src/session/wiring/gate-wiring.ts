import type { CheckpointStore } from '../../agent/checkpoints';
import type { AnswerBox } from '../../answers/inbox';
import { readKey } from '../../answers/signing-key';
import type { TwoPersonRule } from '../../gate/two-person';
import type { AgentHub } from '../../agent/hub';
import { type AuditSink, Gate } from '../../gate/gate';
import { GrantStore } from '../../gate/grants';
import { planKeyOf } from '../../gate/plan-scope';
import { checkpointCoverage } from '../../gate/write-coverage';
import type { CommandGuard } from '../../policy/command/command-types';
import { networkEntries } from '../../policy/network-hosts';
import type { PathFence } from '../../policy/guards/path-guard';
import type { CoreEvent } from '../../protocol';
import type { AnyTool } from '../../tools/types';
import { coreEventOfApproval } from '../approval-events';
import type { ApprovedWrites } from '../approved-writes';
import type { Feedback } from '../feedback/feedback';
import type { SessionSettings } from '../session-settings';
import type { SessionState } from '../session-state';
import type { SessionHooks } from './hooks-wiring';

/**
 * The hub is built last (it runs on the gate, which needs the grants, and the context figure it
 * watches needs the hub): the parts that ask the hub before it exists hold this one named reference.
 */
export class HubRef {
  private hub: AgentHub | undefined;

  /** The hub is built. */
  set(hub: AgentHub): void {
    this.hub = hub;
  }

  /** The hub. Contract: throws only when asked during the build, before `set`. */
  get(): AgentHub {
    if (!this.hub) throw new Error('the agent hub is not built yet');
    return this.hub;
  }
}

/** The session's grants: a plan grant covers calls only while its plan is the one in force and not done. */
export function planGrants(hub: HubRef): GrantStore {
  return new GrantStore(Date.now, (): string | undefined => {
    const plan = hub.get().currentPlan();
    if (!plan || plan.steps.every((step) => step.done)) return undefined;
    return planKeyOf(
      plan.title,
      plan.steps.map((step) => step.text),
    );
  });
}

/**
 * The one gate: its deps read the settings owner (the sandbox verdict, the rules and the mode, live);
 * its queue's events reach the UI as core events; a person's decision reaches the feedback.
 */
export function wireGate(d: {
  tools: AnyTool[];
  fence: PathFence;
  commands: CommandGuard;
  loadCommandGuard: (command?: string) => Promise<void>;
  ready: () => Promise<void>;
  settings: SessionSettings;
  checkpoints: CheckpointStore;
  approvalTimeoutSec: number;
  view: SessionState;
  approvedWrites: ApprovedWrites;
  grants: GrantStore;
  audit: AuditSink;
  sessionId: string;
  home: string;
  feedback: Feedback;
  hub: HubRef;
  /** Answers given elsewhere (`warden approve`), for a card nobody is there to ask. */
  answers: AnswerBox;
  /** Hosts the person's own config lets a command reach without a card (`sandbox.network`). */
  network?: readonly string[];
  /** Which cards need two people (the managed config's or the person's own `twoPerson`). */
  twoPerson?: TwoPersonRule | undefined;
  /** The PreToolUse hooks (the gate's) and the PermissionRequest hooks (its queue's). */
  hooks: Pick<SessionHooks, 'preToolUse' | 'screen'>;
  emit: (event: CoreEvent) => void;
}): Gate {
  const { settings, checkpoints, view } = d;
  return new Gate({
    tools: d.tools,
    deps: {
      fence: d.fence,
      commands: d.commands,
      // Whether undo can take a write back decides its risk.
      coverage: checkpointCoverage(d.fence.root, { git: checkpoints.mode.kind === 'git' }),
      network: networkEntries(d.network ?? []),
      get sandbox() {
        return settings.sandbox;
      },
    },
    loadCommandGuard: d.loadCommandGuard,
    ready: d.ready,
    policy: () => settings.policy(),
    approvals: {
      timeoutMs: d.approvalTimeoutSec * 1000,
      answerFor: (request) => d.answers.take(request),
      // The requester's identity on a two-person card: this user's own answer key.
      requesterKeyId: () => readKey(d.home)?.keyId,
      screen: d.hooks.screen,
      onEvent: (e) => {
        // The decided request's final preview (an edit included) is the diff its transcript card keeps.
        if (e.type === 'resolved') {
          view.rememberApproved(e.request);
          d.approvedWrites.heard(e.request, e.outcome);
        }
        d.emit(coreEventOfApproval(e));
      },
    },
    grants: d.grants,
    audit: d.audit,
    sessionId: d.sessionId,
    checkpointsCoverProject: () => checkpoints.mode.kind === 'git',
    ...(d.twoPerson ? { twoPerson: () => d.twoPerson } : {}),
    preToolUse: d.hooks.preToolUse,
    onDecided: (decided) => {
      d.feedback.heard(decided);
      if (decided.decision.kind === 'reject') d.hub.get().refreshPrompts();
    },
  });
}
