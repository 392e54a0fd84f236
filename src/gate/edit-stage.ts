import { waitsForParser } from '../policy/command/command-guard';
import type { AnyTool } from '../tools/types';
import type { ApprovalBroker, EditReview } from './broker';
import { describeChanges } from './edited-call';
import { copyArgs } from './gate-steps';
import type { Checked } from './gate-types';
import { hashArgs } from './hash';
import { buildPreview, declaredOf } from './preview';

/** The gate's check of a call (schema, guards, policy), as the edit review uses it. */
export type CheckCall = (
  tool: AnyTool,
  raw: unknown,
) => { ok: true; checked: Checked } | { ok: false; error: string };

/** A person's edited arguments, checked again: invalid (schema), blocked (guards, deny rules) or accepted. */
export function reviewEdit(
  check: CheckCall,
  tool: AnyTool,
  edited: unknown,
): Exclude<EditReview, { kind: 'accept' }> | { kind: 'accept'; checked: Checked } {
  const result = check(tool, edited);
  if (!result.ok) return { kind: 'invalid', error: result.error };
  // An edit is judged by what judges the call: never waved on because the grammar is still loading
  // (the gate loads it while a person reads a command's card; an answer sooner than that lands here).
  if (waitsForParser(result.checked.facts.command))
    return {
      kind: 'invalid',
      error: 'The shell parser is still loading to judge this command; send the edit again in a moment.',
    };
  if (result.checked.policy.decision === 'deny')
    return {
      kind: 'blocked',
      ruleId: result.checked.policy.rule.id,
      reason: result.checked.policy.explanation,
    };
  return { kind: 'accept', checked: result.checked };
}

/**
 * A person's edit to review before it runs: re-checked now (schema, guards, policy), then shown on the
 * card with its own preview (`request.edited`); the person's next approve runs it. Contract: a refused
 * edit keeps the request pending with `editError`; nothing runs here.
 */
export function stageEdit(
  broker: Pick<ApprovalBroker, 'pending' | 'refuseEdit' | 'stageEdit'>,
  tools: ReadonlyMap<string, AnyTool>,
  check: CheckCall,
  defaultTimeoutMs: number,
  id: string,
  edited: unknown,
): { ok: true } | { ok: false; error: string } {
  const request = broker.pending().find((r) => r.id === id);
  const tool = request && tools.get(request.tool);
  if (!request || !tool) return { ok: false, error: `No pending request ${id}.` };
  const review = reviewEdit(check, tool, edited);
  if (review.kind !== 'accept') {
    const error = review.kind === 'invalid' ? review.error : `blocked (${review.ruleId}): ${review.reason}`;
    broker.refuseEdit(id, error);
    return { ok: false, error };
  }
  const { args, facts } = review.checked;
  const proposed = request.edited?.proposed ?? request.args;
  const refuse = (error: string) => broker.refuseEdit(id, error);
  void buildPreview(facts, defaultTimeoutMs, declaredOf(tool, args)).then(
    ({ preview, invalid }) =>
      invalid !== undefined
        ? refuse(invalid)
        : broker.stageEdit(id, {
            args: copyArgs(args),
            argsHash: hashArgs(args),
            preview,
            edited: { proposed, changes: describeChanges(proposed, args) },
          }),
    (err: unknown) => refuse(`The edited call could not be previewed: ${(err as Error)?.message}`),
  );
  return { ok: true };
}
