/**
 * Feedback that becomes rules — only with consent. Hears every person's decision
 * (Gate `onDecided`): the same shape of approval N times → offers, once per shape and session, the
 * exact allow rule (user or project policy file); the same edit N times → offers the exact line for
 * the project's AGENTS.md; every rejection → remembered for every agent's system prompt. Nothing
 * is written without `accept`; a declined offer is never made again this session. Each answer is
 * audited (decision line before the write, as for tool calls: no audit line, no write).
 */
import { randomUUID } from 'node:crypto';
import type { DecidedCall } from '../../gate/gate';
import { hashArgs } from '../../gate/hash';
import { policyFiles } from '../../policy/load-policy';
import type { PolicyRule } from '../../policy/rules';
import type { CoreEvent, Suggestion, SuggestionTarget } from '../../protocol';
import type { AuditWrite } from '../../protocol/audit';
import type { AuditEntry } from '../../audit/writer';
import { approvalShape } from './approval-shape';
import { editShapes, preferenceLine } from './edit-shape';
import { appendInstruction, instructionsFile } from './instructions-file';
import { RejectionMemory } from './rejection-memory';
import { SUGGESTION_DEFAULTS } from '../../config/schema';

/** How many repeats make an offer; see `suggestions` in the config schema. */
export type SuggestionThresholds = { commandApprovals: number; pathApprovals: number; editRepeats: number };

export const DEFAULT_THRESHOLDS: SuggestionThresholds = SUGGESTION_DEFAULTS;

export type FeedbackDeps = {
  home: string;
  root: string;
  emit: (event: CoreEvent) => void;
  /** The session's audit sink (redacts, writes one line). */
  audit: (entry: AuditEntry) => AuditWrite;
  /** The policy-save path of save_grant: appends the rule, accepts warden's own write, refreshes trust. */
  saveRule: (
    target: SuggestionTarget,
    rule: PolicyRule,
  ) => Promise<{ ok: true; file: string } | { ok: false; error: string }>;
  thresholds?: Partial<SuggestionThresholds>;
  /** false: no offers at all (rejections are still shared). */
  enabled?: boolean;
  /** false: a rule in the user's or project's policy.json would not count (the managed config allows its own only): no rule offers. */
  rulesCount?: boolean;
};

type Offer = { suggestion: Suggestion; rule?: PolicyRule };

export class Feedback {
  private readonly counts = new Map<string, number>();
  /** Shapes offered this session (accepted, declined or still open): never offered again. */
  private readonly offered = new Set<string>();
  private readonly open = new Map<string, Offer>();
  private readonly rejections = new RejectionMemory();
  private readonly preferences: string[] = [];
  private readonly limits: SuggestionThresholds;

  constructor(private readonly d: FeedbackDeps) {
    this.limits = { ...DEFAULT_THRESHOLDS, ...d.thresholds };
  }

  /** The offers waiting for an answer, oldest first. */
  pending(): Suggestion[] {
    return [...this.open.values()].map((o) => o.suggestion);
  }

  /** What every agent's system prompt carries: the session's rejections and the preferences saved in it. */
  context(): string | undefined {
    const blocks = [this.rejections.context()];
    if (this.preferences.length > 0)
      blocks.push(
        ['Preferences the person saved this session (also in AGENTS.md):', ...this.preferences].join('\n'),
      );
    const text = blocks.filter(Boolean).join('\n\n');
    return text || undefined;
  }

  /** A person's decision, from the gate. Contract: never throws (the gate guards it too). */
  heard(d: DecidedCall): void {
    const kind = d.decision.kind;
    if (kind === 'reject' && !d.facts.interactive) {
      this.rejections.add({
        agentName: d.caller.agentName,
        taskId: d.caller.taskId,
        call: `${d.tool} ${d.summary}`,
        ...(d.decision.reason ? { reason: d.decision.reason } : {}),
      });
      return;
    }
    if (this.d.enabled === false) return;
    if (kind === 'approve') this.approved(d);
    else if (kind === 'edit' && d.edited && !d.facts.interactive) this.editedArgs(d, d.edited);
  }

  private approved(d: DecidedCall): void {
    if (this.d.rulesCount === false) return;
    const shape = approvalShape(d.facts, d.policy);
    if (!shape || this.offered.has(shape.key)) return;
    const count = this.bump(shape.key);
    if (count < (shape.kind === 'command' ? this.limits.commandApprovals : this.limits.pathApprovals)) return;
    const files = policyFiles(this.d.home, this.d.root);
    this.offer(shape.key, {
      suggestion: {
        kind: 'rule',
        id: randomUUID(),
        label: shape.label,
        count,
        ruleText: JSON.stringify(shape.rule),
        files: { project: files.project, user: files.user },
      },
      rule: shape.rule,
    });
  }

  private editedArgs(d: DecidedCall, edited: Record<string, unknown>): void {
    for (const shape of editShapes(d.tool, d.args, edited)) {
      if (this.offered.has(shape.key)) continue;
      const count = this.bump(shape.key);
      if (count < this.limits.editRepeats) continue;
      this.offer(shape.key, {
        suggestion: {
          kind: 'preference',
          id: randomUUID(),
          label: `${shape.field}: ${shape.from} → ${shape.to}`,
          count,
          line: preferenceLine(shape, count),
          file: instructionsFile(this.d.root),
        },
      });
    }
  }

  private bump(key: string): number {
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }

  private offer(key: string, offer: Offer): void {
    this.offered.add(key);
    this.open.set(offer.suggestion.id, offer);
    this.d.emit({ type: 'suggestion_offered', suggestion: offer.suggestion });
  }

  /** Declines an offer for good. Contract: never throws; false for an unknown id. */
  decline(id: string): boolean {
    const offer = this.open.get(id);
    if (!offer) return false;
    this.open.delete(id);
    this.record(offer.suggestion, 'decision-declined');
    this.d.emit({ type: 'suggestion_resolved', id, outcome: 'declined' });
    return true;
  }

  /**
   * Writes exactly what the offer showed: the rule to the `target` policy file, or the line to
   * AGENTS.md. Contract: never rejects; the result names the file or the error.
   */
  async accept(
    id: string,
    target: SuggestionTarget = 'project',
  ): Promise<{ ok: true; file: string } | { ok: false; error: string }> {
    const offer = this.open.get(id);
    if (!offer)
      return { ok: false, error: 'No such suggestion (it was answered already, or never offered).' };
    this.open.delete(id);
    const s = offer.suggestion;
    const decided = this.record(s, 'decision', target);
    let result: { ok: true; file: string } | { ok: false; error: string };
    if (!decided.ok)
      result = { ok: false, error: `The audit log cannot be written (${decided.error}); nothing was saved.` };
    else if (s.kind === 'rule' && offer.rule)
      result = await this.d.saveRule(target, offer.rule).catch(failed);
    else if (s.kind === 'preference') result = await appendInstruction(this.d.root, s.line).catch(failed);
    else result = { ok: false, error: 'Nothing to write.' };
    if (decided.ok) this.record(s, result.ok ? 'executed' : 'error', target, result);
    if (result.ok && s.kind === 'preference') this.preferences.push(s.line);
    this.d.emit({
      type: 'suggestion_resolved',
      id,
      outcome: result.ok ? 'accepted' : 'failed',
      ...(result.ok ? { file: result.file } : {}),
    });
    return result;
  }

  /** One audit line for the person's answer to an offer (`origin: person`: not a tool call's decision). */
  private record(
    s: Suggestion,
    stage: 'decision' | 'decision-declined' | 'executed' | 'error',
    target?: SuggestionTarget,
    result?: { ok: true; file: string } | { ok: false; error: string },
  ): AuditWrite {
    const args =
      s.kind === 'rule'
        ? { suggestion: s.id, rule: s.ruleText, ...(target ? { target, file: s.files[target] } : {}) }
        : { suggestion: s.id, line: s.line, file: s.file };
    const declined = stage === 'decision-declined';
    const entry: AuditEntry = {
      agentId: 'user',
      agentName: 'you',
      taskId: 'feedback',
      tool: s.kind === 'rule' ? 'warden.save_rule' : 'warden.save_preference',
      args,
      argsHash: hashArgs(args),
      decision: declined ? 'deny' : 'allow',
      approver: 'human',
      phase: stage === 'decision' ? 'decision' : 'outcome',
      rule: 'suggestion',
      risk: 'low',
      origin: 'person',
      ...(declined ? { outcome: 'rejected' as const, reason: 'declined' } : {}),
      ...(stage === 'executed' ? { outcome: 'executed' as const } : {}),
      ...(stage === 'error' ? { outcome: 'error' as const } : {}),
      ...(result && !result.ok ? { reason: result.error } : {}),
      ...(result?.ok ? { result: result.file } : {}),
    };
    try {
      return this.d.audit(entry);
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
  }
}

const failed = (err: unknown): { ok: false; error: string } => ({
  ok: false,
  error: `Saving failed: ${(err as Error)?.message ?? String(err)}`,
});
