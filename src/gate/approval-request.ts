import { randomUUID } from 'node:crypto';
import type { ApprovalPreview, ApprovalRequest, Approver, Decision } from '../protocol';
import type { CallFacts } from '../policy/facts';
import type { RecordBase } from './audit-record';
import type { BrokerOutcome } from './broker';
import { copyArgs, finalArgs, protectedWrites } from './gate-steps';
import { buildPreview, declaredOf } from './preview';
import { type Provenance, runsProjectCode } from './provenance';
import type { Caller, Checked, GateOptions, RunExtras, ToolCall } from './gate-types';
import { grantOptions, planGrantOptions } from './grants';
import { hashArgs, policyDigest } from './hash';
import { resumedRequestFields } from './resume-check';
import { needsTwoPeople, personOnly, type TwoPersonRule } from './two-person';

/**
 * The card for a call that asks: its preview (the diff, the command, what the tool declares) and the
 * request around it, or why no card can be made (an edit that cannot apply to the file as it is).
 */
export async function cardFor(
  checked: Checked,
  call: ToolCall,
  caller: Caller,
  base: RecordBase,
  note: string | undefined,
  o: Pick<GateOptions, 'defaultCommandTimeoutMs' | 'approvals' | 'checkpointsCoverProject' | 'twoPerson'>,
  provenance: Provenance,
): Promise<{ ok: true; request: ApprovalRequest; fileHash?: string } | { ok: false; invalid: string }> {
  const { tool, args, facts } = checked;
  const { preview, fileHash, invalid } = await buildPreview(
    facts,
    o.defaultCommandTimeoutMs ?? 60_000,
    declaredOf(tool, args),
  );
  if (invalid !== undefined) return { ok: false, invalid };
  if (preview.kind === 'command' && runsProjectCode(facts)) {
    const unreviewed = provenance.unreviewed();
    if (unreviewed.files.length > 0 || unreviewed.commands > 0) preview.unreviewed = unreviewed;
  }
  const undoRestoresFiles =
    tool.reversible !== true &&
    tool.changesFiles === true &&
    caller.checkpoint !== undefined &&
    o.checkpointsCoverProject?.() === true;
  const digest = checked.context ? policyDigest(checked.context) : undefined;
  const input = {
    checked,
    call,
    caller,
    base,
    preview,
    fileHash,
    note,
    undoRestoresFiles,
    policyDigest: digest,
  };
  const twoPerson = o.twoPerson?.();
  const settings = { timeoutMs: o.approvals.timeoutMs, ...(twoPerson ? { twoPerson } : {}) };
  const request = approvalRequest({ ...input, ...settings }, copyArgs(args));
  return { ok: true, request, ...(fileHash !== undefined ? { fileHash } : {}) };
}

/** What the request is built from besides the checked call: the card's preview and the gate's settings. */
export type RequestInput = {
  checked: Checked;
  call: ToolCall;
  caller: Caller;
  base: RecordBase;
  preview: ApprovalPreview;
  fileHash?: string;
  note?: string;
  undoRestoresFiles: boolean;
  /** The digest of the policy the card is asked under (what a decision from elsewhere binds). */
  policyDigest?: string;
  /** The queue's decision timeout, from which a resumed request's expiry is counted. */
  timeoutMs: number;
  /** Which cards need two people. */
  twoPerson?: TwoPersonRule;
};

/** The card a person decides on (the person step); the arguments are a copy nobody holding it can change. */
export function approvalRequest(input: RequestInput, args: Record<string, unknown>): ApprovalRequest {
  const { checked, call, caller, base, preview, fileHash, note } = input;
  const { tool, facts, policy } = checked;
  const twoPerson = needsTwoPeople(input.twoPerson, { ...policy, tool: tool.name, preview: preview.kind });
  // Only a person's decision on this card lets it run: approve-all is not offered.
  const ownCardOnly = twoPerson || personOnly(policy, tool.name, undefined);
  return {
    id: randomUUID(),
    agentId: caller.agentId,
    agentName: caller.agentName,
    ...(caller.parentAgentId ? { parentAgentId: caller.parentAgentId } : {}),
    taskId: caller.taskId,
    callId: call.id,
    ...(caller.step ? { step: caller.step } : {}),
    ...(call.why ? { why: call.why } : {}),
    tool: tool.name,
    args,
    argsHash: base.argsHash,
    risk: policy.risk,
    rule: policy.rule,
    explanation: note ? `${note} ${policy.explanation}` : policy.explanation,
    preview,
    reversible: tool.reversible === true,
    ...(input.undoRestoresFiles ? { undoRestoresFiles: true as const } : {}),
    createdAt: new Date().toISOString(),
    // A plan card may grant its known steps; a tool card the scopes of its call.
    grantOptions: ownCardOnly
      ? []
      : preview.kind === 'plan'
        ? planGrantOptions(preview, caller)
        : grantOptions(facts, policy.risk, caller),
    ...(fileHash !== undefined ? { preImageHash: fileHash } : {}),
    ...(call.resumedFrom ? resumedRequestFields(call.resumedFrom, fileHash, input.timeoutMs) : {}),
    ...(input.policyDigest ? { policyDigest: input.policyDigest } : {}),
    ...(twoPerson ? { twoPerson: { approvedBy: [] } } : {}),
  };
}

/** The decisions after which the call runs; every other ending is handled before. */
const RUNNING_DECISIONS: ReadonlySet<Decision['kind']> = new Set([
  'approve',
  'approve_all',
  'edit',
  'answer',
  'approve_plan',
  'escalation',
]);

/** A running decision's arguments and what the run carries: the token's hash, the answer, the lifted paths. */
export type ApprovedRun = {
  decision: Decision;
  approver: Approver;
  args: Record<string, unknown>;
  edited: boolean;
  argsHash: string;
  extras: Omit<RunExtras, 'fileHash' | 'checked'>;
};

/**
 * What a person's running decision (approve, approve-all, edit, answer, plan, escalation) runs: the
 * arguments as approved, the hash the token binds, and what only this card's approval grants.
 * Synchronous, so nothing else runs between the decision and its decision line.
 */
export function approvedRun(
  outcome: BrokerOutcome,
  original: Checked,
  accepted: Checked | undefined,
  argsHash: string,
): ApprovedRun {
  if (outcome.kind !== 'decided' || !RUNNING_DECISIONS.has(outcome.decision.kind))
    throw new Error(`no decision to run on (${outcome.kind})`);
  const { decision, approver } = outcome;
  const { args, facts } = original;
  const final = finalArgs(args, decision, accepted?.args);
  const answer = answerOf(decision);
  // Only a person's approval of this very card lifts the read-only mounts of the protected paths it listed.
  const approvedFacts: CallFacts = decision.kind === 'edit' ? (accepted?.facts ?? facts) : facts;
  const byPerson = approver === 'human' && (decision.kind === 'approve' || decision.kind === 'edit');
  const lift = byPerson ? protectedWrites(approvedFacts) : [];
  // The same for the credential files the card named: shown to this one run instead of masked.
  const unmask = byPerson ? (approvedFacts.secretPaths ?? []) : [];
  // And for the hosts it named (approve-all is not offered for hosts only a person approves: grants.ts).
  const network = approvedHosts(approvedFacts, byPerson);
  return {
    decision,
    approver,
    args: final.args,
    edited: final.edited,
    // The token binds what the person approved: the arguments hashed when the request was made, or the accepted edit.
    argsHash: final.edited ? hashArgs(final.args) : argsHash,
    extras: {
      ...(answer !== undefined ? { answer } : {}),
      ...(lift.length > 0 ? { lift } : {}),
      ...(unmask.length > 0 ? { unmask } : {}),
      ...(network.length > 0 ? { network } : {}),
      seen: approvedFacts,
    },
  };
}

/**
 * The hosts a run may reach: all the call names when a person approved its card, else only when the
 * person's own `sandbox.network` lists every one of them (then no card was needed for them).
 */
export function approvedHosts(facts: CallFacts, byPerson: boolean): string[] {
  const network = facts.network;
  if (!network || (!byPerson && network.unlisted.length > 0)) return [];
  return network.entries.map((e) => e.text);
}

/**
 * What a run allowed without a card carries: the facts just gathered (its execution-time check) and
 * the hosts it may reach, which only the person's own `sandbox.network` can allow without a card.
 */
export function unasked(facts: CallFacts): RunExtras {
  const network = approvedHosts(facts, false);
  return { checked: facts, ...(network.length > 0 ? { network } : {}) };
}

/** The text an answering decision hands the tool (a question's answer, an escalation's choice). */
function answerOf(decision: Decision): string | undefined {
  if (decision.kind === 'answer') return decision.text;
  if (decision.kind === 'escalation')
    return JSON.stringify({ choice: decision.choice, instruction: decision.instruction });
  return undefined;
}
