/**
 * Pure builder for the card's "who, why, what, risk, rule, undo" lines, already wrapped to the
 * width, so the card knows exactly how many rows they take.
 */
import type { ApprovalRequest } from '../../src/protocol';
import { formatAge, formatDurationCoarse } from '../../src/text/duration';
import { wrap } from '../../src/text/wrap';
import { identityLine } from '../../src/text/identity-line';
import { cardKind } from './card-kinds';

export type DetailTone = 'plain' | 'dim' | 'low' | 'medium' | 'high' | 'error' | 'ok';
export type DetailLine = { label: string; text: string; tone: DetailTone };

export const DETAIL_LABEL_WIDTH = 6;

/** A one-line summary of what the call does: the path, the command, or the arguments. */
export function shortArgs(request: ApprovalRequest): string {
  return cardKind(request).what(request.preview, request);
}

/** The risk label that reads without colour. */
export function riskLabel(level: ApprovalRequest['risk']['level']): string {
  return level === 'high' ? 'HIGH' : level === 'medium' ? 'MEDIUM' : 'low';
}

/** Lines for the card; `parentName` names the parent agent when the core knows it. */
export function approvalDetailLines(
  request: ApprovalRequest,
  width: number,
  nowMs: number,
  parentName?: string,
): DetailLine[] {
  const w = Math.max(10, width - DETAIL_LABEL_WIDTH);
  const out: DetailLine[] = [];
  const add = (label: string, text: string, tone: DetailTone, maxLines = 1) => {
    wrap(text, w, maxLines).forEach((line, i) => {
      out.push({ label: i === 0 ? label : '', text: line, tone });
    });
  };
  const who = [request.agentName];
  if (request.parentAgentId) who.push(`sub-agent of ${parentName ?? request.parentAgentId}`);
  who.push(`task ${request.taskId}`);
  if (request.step) {
    const of = request.step.total ? `/${request.step.total}` : '';
    who.push(`step ${request.step.index}${of}${request.step.title ? ` "${request.step.title}"` : ''}`);
  }
  add('who', who.join(' · '), 'plain');
  add('why', request.why ?? '(the model gave no reason)', request.why ? 'plain' : 'dim', 2);
  add('what', `${request.tool} ${shortArgs(request)}`, 'plain');
  const reasons = request.risk.reasons.length ? ` — ${request.risk.reasons.join('; ')}` : '';
  add('risk', `${riskLabel(request.risk.level)}${reasons}`, request.risk.level, 2);
  add('rule', `${request.rule.id} (${request.rule.source}) — ${request.explanation}`, 'plain', 2);
  const timing = [`asked ${formatAge(request.createdAt, nowMs)} ago`];
  if (request.expiresAt) {
    const left = Date.parse(request.expiresAt) - nowMs;
    if (!Number.isNaN(left)) timing.push(left > 0 ? `expires in ${formatDurationCoarse(left)}` : 'expired');
  }
  add('undo', `${undoLabel(request, 'long')} · ${timing.join(' · ')}`, request.reversible ? 'ok' : 'medium');
  if (request.resumedFrom) add('was', resumedLine(request.resumedFrom), 'medium', 2);
  if (cardKind(request).listsGrants) {
    const grants = request.grantOptions.map((g) => g.label).join(' | ');
    add(
      'all',
      grants ? `a → ${grants}` : 'no approve-all scope is offered for this call',
      grants ? 'plain' : 'dim',
    );
  }
  const two = twoPersonLine(request);
  if (two) add('two', two, request.twoPerson?.approvedBy.length ? 'ok' : 'medium', 2);
  if (request.editError) add('edit', `refused: ${request.editError}`, 'error', 2);
  if (request.edited) {
    add('edit', editedLine(request.edited), 'ok', 2);
    // What differs from the model's call; a file's changed lines are in the diff below.
    for (const change of request.edited.changes.slice(0, 3)) add('', change.split('\n')[0] ?? '', 'plain');
  }
  return out;
}

/**
 * The card's details when rows are short (or in full screen): what, the risk with whether it can
 * be undone, and a refused edit. Risk is never the line that gets cut.
 */
export function compactDetailLines(request: ApprovalRequest, width: number): DetailLine[] {
  const w = Math.max(10, width - DETAIL_LABEL_WIDTH);
  const reasons = request.risk.reasons.length ? ` — ${request.risk.reasons.join('; ')}` : '';
  const undo = undoLabel(request, 'short');
  const out: DetailLine[] = [
    {
      label: 'what',
      text: wrap(`${request.tool} ${shortArgs(request)} · ${request.agentName}`, w, 1)[0] ?? '',
      tone: 'plain',
    },
    {
      label: 'risk',
      text: wrap(`${riskLabel(request.risk.level)} · ${undo}${reasons}`, w, 1)[0] ?? '',
      tone: request.risk.level,
    },
  ];
  if (request.resumedFrom)
    out.push({ label: 'was', text: wrap(resumedLine(request.resumedFrom), w, 1)[0] ?? '', tone: 'medium' });
  const two = twoPersonLine(request);
  if (two)
    out.push({
      label: 'two',
      text: wrap(two, w, 1)[0] ?? '',
      tone: request.twoPerson?.approvedBy.length ? 'ok' : 'medium',
    });
  if (request.editError)
    out.push({ label: 'edit', text: wrap(`refused: ${request.editError}`, w, 1)[0] ?? '', tone: 'error' });
  if (request.edited)
    out.push({ label: 'edit', text: wrap(editedLine(request.edited), w, 1)[0] ?? '', tone: 'ok' });
  return out;
}

/** The card's word on a staged edit: the person sees their version and one more key runs it. */
function editedLine(edited: NonNullable<ApprovalRequest['edited']>): string {
  return edited.changes.length > 0
    ? 'edited by you: this is your version · y runs it · e edits again · n rejects'
    : "your edit matches the model's call · y runs it · e edits again";
}

/** The mark of a request offered again after a restart. */
export function resumedLine(resumed: NonNullable<ApprovalRequest['resumedFrom']>): string {
  return `from before the restart — checked again now${resumed.fileChanged ? '; the file changed since it was first asked: this is the new diff' : ''}`;
}

/** Whether undo puts the call's effect back: wholly, only the project's files (a checkpointed command), or not at all. */
function undoLabel(request: ApprovalRequest, form: 'long' | 'short'): string {
  // Approving a plan or answering a question runs nothing: there is nothing for undo to take back.
  if (request.preview.kind === 'plan' || request.preview.kind === 'question') return 'changes nothing itself';
  if (request.reversible) return form === 'long' ? 'reversible (undo restores it)' : 'reversible';
  if (request.undoRestoresFiles)
    return form === 'long'
      ? 'project files reversible (undo restores them) · effects outside the project are NOT'
      : 'files reversible, other effects NOT';
  return 'NOT reversible';
}

/** A two-person card's line: what it needs, or who approved first and what it waits for. */
export function twoPersonLine(request: Pick<ApprovalRequest, 'id' | 'twoPerson'>): string | undefined {
  const two = request.twoPerson;
  if (!two) return undefined;
  const first = two.approvedBy[0];
  if (!first)
    return `needs two people: two approvals from distinct identities, the second never yours (warden approve ${request.id.slice(0, 8)} --key FILE)`;
  return `approved by ${identityLine(first)} — needs a second person (warden approve ${request.id.slice(0, 8)} --key FILE from another identity)`;
}
