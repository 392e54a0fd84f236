/**
 * The person's own dealings with the policy from the prompt and the cards: `/policy test` (what the
 * gate would decide for a command, nothing run), "don't ask again" (`A` on a card: approve, and
 * append the rule approve-all would grant to the policy file the person picked), and a session grant
 * kept as a rule (/grants).
 */
import type { ManagedSettings } from '../config/managed';
import type { Gate } from '../gate/gate';
import { rulesOnlyRefusal } from './wiring/trust-wiring';
import { scopeKey } from '../gate/gate-steps';
import { formatPolicyReport } from '../policy/policy-report';
import type { PolicyRule } from '../policy/rules';
import type { ApprovalRequest, Decision, Grant } from '../protocol';
import type { ProjectTrust } from '../trust/project-trust';

type Notice = (level: 'info' | 'warn' | 'error', text: string) => void;

/**
 * The rule a "don't ask again" decision saves: the `approve_all` scope must be one the card offered,
 * and a policy rule (a plan's steps are none); its text is the card's own, never the UI's copy. When
 * only the managed rules count, none is saved (nor approved: the person chooses again).
 */
export function ruleToKeep(
  pending: readonly ApprovalRequest[],
  id: string,
  decision: Decision,
  managed?: Pick<ManagedSettings, 'rulesOnly' | 'configPath' | 'dir'>,
): { ok: true; ruleText: string } | { ok: false; error: string } {
  if (managed?.rulesOnly)
    return {
      ok: false,
      error: `${rulesOnlyRefusal(managed)} Nothing was approved: approve once, or approve-all for this session.`,
    };
  if (decision?.kind !== 'approve_all')
    return { ok: false, error: "Don't ask again saves an approve-all scope only; nothing was approved." };
  const request = pending.find((r) => r.id === id);
  if (!request) return { ok: false, error: 'No such pending request; nothing was approved or saved.' };
  const key = scopeKey(decision.scope);
  const offered = request.grantOptions.find((s) => scopeKey(s) === key);
  if (!offered?.ruleText)
    return { ok: false, error: 'That scope cannot be saved as a rule; nothing was approved or saved.' };
  return { ok: true, ruleText: offered.ruleText };
}

export class PersonRules {
  constructor(
    private readonly d: {
      gate: Pick<Gate, 'explainCommand'>;
      trust: Pick<ProjectTrust, 'state'>;
      /** The one policy-save path (it accepts warden's own write and refreshes trust). */
      writeRule: (
        target: 'project' | 'user',
        rule: PolicyRule,
      ) => Promise<{ ok: true; file: string } | { ok: false; error: string }>;
      notice: Notice;
    },
  ) {}

  /** /policy test: the gate's verdict on a command, as the main agent would get it now. Contract: never rejects. */
  async test(command: string): Promise<void> {
    const trust = this.d.trust.state();
    const held = trust.status === 'untrusted' ? trust.items.filter((i) => i.kind === 'rule').length : 0;
    const check = await this.d.gate.explainCommand(command, { agentId: 'main', agentName: 'main' }, held);
    if (!check.ok) return this.d.notice('warn', `/policy test: ${check.error}`);
    this.d.notice('info', `/policy test (nothing ran):\n${formatPolicyReport(check.report)}`);
  }

  /** /grants: a session grant kept as a rule in the file the person picked. Contract: never rejects. */
  async saveGrant(grant: Grant | undefined, target: 'project' | 'user'): Promise<void> {
    if (!grant) return this.d.notice('warn', 'No such grant.');
    // A plan grant ends with its plan: it is no rule to keep.
    if (!grant.ruleText)
      return this.d.notice('warn', 'This grant ends with its plan; it cannot be saved as a rule.');
    const saved = await this.d.writeRule(target, JSON.parse(grant.ruleText) as PolicyRule);
    if (!saved.ok) return this.d.notice('error', saved.error);
    this.d.notice('info', `Saved to ${saved.file}: ${grant.ruleText}`);
  }

  /** The rule of a "don't ask again" approval, appended to the file the person picked. Contract: never rejects. */
  async keep(target: 'project' | 'user', ruleText: string): Promise<void> {
    let rule: PolicyRule;
    try {
      rule = JSON.parse(ruleText) as PolicyRule;
    } catch {
      return this.d.notice('error', 'The rule could not be read; nothing was saved.');
    }
    const saved = await this.d.writeRule(target, rule);
    if (!saved.ok)
      return this.d.notice('error', `${saved.error} The call was approved for this session only.`);
    // A rule in an untrusted project's file is held back with the file's other loosening (src/trust).
    const held = target === 'project' && this.d.trust.state().status === 'untrusted';
    this.d.notice(
      held ? 'warn' : 'info',
      held
        ? `Saved to ${saved.file}: ${ruleText} — but this project's .warden files are not trusted, so the rule is held back until you trust them (this session's grant still covers the call).`
        : `Saved to ${saved.file}: ${ruleText} — warden will not ask again for calls it covers.`,
    );
  }
}
