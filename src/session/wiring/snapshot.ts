import type { AgentHub } from '../../agent/hub';
import type { Gate } from '../../gate/gate';
import type { GrantStore } from '../../gate/grants';
import { DEFAULT_RULES } from '../../policy/defaults';
import { policyFiles } from '../../policy/load-policy';
import type { LoadedRule } from '../../policy/rules';
import type { CoreState, PolicySourceInfo, ProjectTrustState } from '../../protocol';
import type { ProjectTrust } from '../../trust/project-trust';
import { describeRule } from '../../trust/describe';
import type { ManagedSettings } from '../../config/managed';
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
  /** The managed layer, for the locked rules /policy lists. */
  managed?: ManagedSettings;
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
    policy: {
      sources: policySources(p.settings.rules, policyFiles(p.home, p.root), p.trust.state(), {
        ignored: p.trust.ignored(),
        ...(p.managed ? { managed: p.managed } : {}),
      }),
    },
    trust: p.trust.state(),
    ...(hub.paused() ? { paused: hub.paused() } : {}),
    ...(p.feedback.pending().length > 0 ? { suggestions: p.feedback.pending() } : {}),
    ...(plan ? { plan: { title: plan.title, steps: plan.steps.map((x) => ({ ...x })) } } : {}),
  };
  if (!plan) delete next.plan;
  return next;
}

/**
 * Where the rules in force came from, for /policy: the managed rules listed one by one (locked), and
 * the user's and project's counted, with those the managed config keeps out (`ignored`).
 */
export function policySources(
  rules: readonly LoadedRule[],
  files: { user: string; project: string },
  trust: ProjectTrustState,
  more: { ignored?: readonly LoadedRule[]; managed?: ManagedSettings } = {},
): PolicySourceInfo[] {
  const count = (source: 'user' | 'project') => rules.filter((r) => r.source === source).length;
  const ignored = (source: 'user' | 'project') => {
    const n = (more.ignored ?? []).filter((r) => r.source === source).length;
    return n > 0 ? { ignored: n } : {};
  };
  const managedRules = rules.filter((r) => r.source === 'managed');
  const managed: PolicySourceInfo[] =
    more.managed && (managedRules.length > 0 || more.managed.configPath || more.managed.rulesOnly)
      ? [
          {
            source: 'managed',
            path: more.managed.policyPath,
            rules: managedRules.length,
            locked: true,
            lines: managedRules.map(describeRule),
            ...(more.managed.rulesOnly ? { only: true } : {}),
          },
        ]
      : [];
  return [
    { source: 'builtin', rules: DEFAULT_RULES.length },
    ...managed,
    { source: 'user', path: files.user, rules: count('user'), ...ignored('user') },
    {
      source: 'project',
      path: files.project,
      rules: count('project'),
      ...ignored('project'),
      ...(trust.status === 'untrusted' ? { held: trust.items.filter((i) => i.kind === 'rule').length } : {}),
    },
  ];
}
