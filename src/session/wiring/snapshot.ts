import type { AgentHub } from '../../agent/hub';
import type { Gate } from '../../gate/gate';
import type { GrantStore } from '../../gate/grants';
import { DEFAULT_RULES } from '../../policy/defaults';
import { policyFiles } from '../../policy/load-policy';
import type { LoadedRule } from '../../policy/rules';
import type { CoreState, PolicySourceInfo, ProjectTrustState } from '../../protocol';
import type { ProjectTrust } from '../../trust/project-trust';
import type { Feedback } from '../feedback/feedback';
import type { SessionSettings } from '../session-settings';

/** The parts a snapshot reads: the folded state, and the owners of what is read live. */
export type SnapshotParts = {
  state: CoreState;
  settings: SessionSettings;
  hub: AgentHub;
  gate: Gate;
  grants: GrantStore;
  trust: ProjectTrust;
  feedback: Feedback;
  home: string;
  root: string;
};

/** A new snapshot of the session: every array copied, so a UI may keep it. */
export function buildSnapshot(p: SnapshotParts): CoreState {
  const { state, hub } = p;
  const plan = hub.currentPlan();
  const next: CoreState = {
    ...state,
    pending: p.gate.pending(),
    grants: p.grants.list(),
    busy: hub.busy,
    prompt: hub.prompts,
    agents: hub.agents().map((a) => ({ ...a })),
    transcript: [...state.transcript],
    recentAudit: [...state.recentAudit],
    mcp: [...state.mcp],
    usage: { ...state.usage },
    policy: { sources: policySources(p.settings.rules, policyFiles(p.home, p.root), p.trust.state()) },
    trust: p.trust.state(),
    ...(hub.paused() ? { paused: hub.paused() } : {}),
    ...(p.feedback.pending().length > 0 ? { suggestions: p.feedback.pending() } : {}),
    ...(plan ? { plan: { title: plan.title, steps: plan.steps.map((x) => ({ ...x })) } } : {}),
  };
  if (!plan) delete next.plan;
  return next;
}

/** Where the rules in force came from, for /policy. */
export function policySources(
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
