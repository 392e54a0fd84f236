/**
 * An escalation card's rows, pure: who stopped and why, the goal, each attempt with its
 * result, what the agent needs and — when there is room — what each of the four choices does. It
 * is its own kind of card: no tool-call details (no raw JSON, rule or "NOT reversible"), and the
 * key line is the drawer's footer, once. Every row is one line, so the card knows its height.
 */
import type { ApprovalPreview, ApprovalRequest } from '../../../src/protocol';
import { truncateCells } from '../../../src/text/truncate';
import { displayLine, wrap } from '../../../src/text/wrap';
import { ESCALATION_KEYS } from '../../keys/keymap';

type Escalation = Extract<ApprovalPreview, { kind: 'escalation' }>;

export type EscalationLine = { text: string; tone: 'title' | 'label' | 'plain' | 'dim' | 'needs' };

/** Why the agent stopped, by trigger (the card's title and the queue's summary). */
export const ESCALATION_WHY: Record<Escalation['trigger'], string> = {
  failures: 'failed the same step repeatedly',
  rejections: 'had similar calls rejected',
  max_steps: 'reached its step limit',
  model: 'is stuck and asks for help',
};

const LABEL = 7;

/** The card's rows in `width` × `height` (the instruction field, when open, takes one more). */
export function escalationLines(
  request: Pick<ApprovalRequest, 'agentName' | 'parentAgentId' | 'step'>,
  p: Escalation,
  width: number,
  height: number,
  parentName?: string,
): EscalationLine[] {
  const w = Math.max(10, width - LABEL);
  const who = [`⚑ ${displayLine(request.agentName)} ${ESCALATION_WHY[p.trigger]} and stopped`];
  if (request.step)
    who.push(`step ${request.step.index}${request.step.total ? `/${request.step.total}` : ''}`);
  if (request.parentAgentId) who.push(`sub-agent of ${parentName ?? request.parentAgentId}`);
  const title: EscalationLine = { text: truncateCells(who.join(' · '), width), tone: 'title' };
  const labelled = (label: string, lines: string[], tone: EscalationLine['tone']): EscalationLine[] =>
    lines.map((text, i) => ({ text: `${(i === 0 ? label : '').padEnd(LABEL)}${text}`, tone }));
  const goal = labelled('Goal', wrap(p.goal, w, 2), 'plain');
  const needs = labelled('Needs', wrap(p.needs, w, 3), 'needs');
  const choices: EscalationLine[] = [
    ESCALATION_KEYS.retry,
    ESCALATION_KEYS.take_over,
    ESCALATION_KEYS.skip,
    ESCALATION_KEYS.cancel_task,
  ].map((k, i) => ({
    text: truncateCells(`${(i === 0 ? 'Choose' : '').padEnd(LABEL)}${k.show}  ${k.help}`, width),
    tone: 'dim',
  }));
  const room = Math.max(1, height - 1 - goal.length - needs.length);
  const tried = p.tried.length;
  // Two lines an attempt (call, then → result) when they fit, else one; the oldest go first.
  const twoLines = tried * 2 <= room;
  const perAttempt = twoLines ? 2 : 1;
  const fit = tried * perAttempt <= room ? tried : Math.max(1, room - 1);
  const from = tried - fit;
  const attempts: EscalationLine[] = [];
  if (from > 0) attempts.push({ text: `${'Tried'.padEnd(LABEL)}… ${from} earlier not shown`, tone: 'dim' });
  p.tried.slice(from).forEach((t, i) => {
    const n = `${from + i + 1}. `;
    const label = (attempts.length === 0 ? 'Tried' : '').padEnd(LABEL);
    const call = displayLine(t.call);
    const result = displayLine(t.result);
    if (twoLines) {
      attempts.push({ text: truncateCells(`${label}${n}${call}`, width), tone: 'plain' });
      attempts.push({
        text: truncateCells(`${' '.repeat(LABEL + n.length)}→ ${result}`, width),
        tone: 'dim',
      });
    } else attempts.push({ text: truncateCells(`${label}${n}${call} → ${result}`, width), tone: 'plain' });
  });
  if (tried === 0) attempts.push({ text: `${'Tried'.padEnd(LABEL)}(nothing recorded)`, tone: 'dim' });
  const lines = [title, ...goal, ...attempts, ...needs];
  return lines.length + choices.length <= height
    ? [...lines, ...choices]
    : lines.slice(0, Math.max(1, height));
}
