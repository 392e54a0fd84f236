/**
 * Which scripted turn the demo plays next, given what happened: a call whose needs did not run is
 * left out (or ends the conversation), the next turn first says what did not run and why, and the
 * summary is built from the results — so "I said no" is never answered with "done".
 * Replayed from the history each time (no hidden state): a resumed session plays on the same way.
 */
import type { ToolResultEnvelope } from '../protocol';
import { type DemoReport, escalationOf, ranOk, resultsByLabel, spawnReports, whyNot } from './demo-facts';
import type { DemoConversation, DemoScript, ScriptedCall } from './demo-script';
import type { ChatMessage, ToolSpec } from './types';

/** A call to play, with the label that goes into its id. */
export type PlayedCall = { label: string; call: ScriptedCall };

/** What the demo plays next: a scripted turn, or a closing text. */
export type DemoPick =
  | { kind: 'turn'; agent: string; step: number; text: string; calls: PlayedCall[] }
  | { kind: 'final'; agent: string; text: string };

/** A call of the script as it stands now: its result, or why it was left out. */
type Entry = PlayedCall & { result?: ToolResultEnvelope; leftOut?: string };

type Facts = {
  results: Map<string, ToolResultEnvelope>;
  reports: DemoReport[];
  script: DemoScript;
  conversation: DemoConversation;
};

const PREFIX = /^\[demo\](?: [a-z0-9-]+:)? /;

/**
 * Picks the next turn for a conversation. Any first prompt plays the main script (it is a demo);
 * a turn that calls a tool the request does not offer ends the conversation instead, because a
 * real model could not call it either.
 */
export function pickDemoTurn(
  script: DemoScript,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): DemoPick {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const conversation =
    script.conversations.find((c) => c.match !== undefined && first.includes(c.match)) ??
    script.conversations.find((c) => c.match === undefined);
  if (!conversation) return { kind: 'final', agent: 'main', text: script.finalText };
  const agent = conversation.agent;
  const facts: Facts = {
    results: resultsByLabel(messages),
    reports: spawnReports(messages),
    script,
    conversation,
  };
  const played = messages.filter((m) => m.role === 'assistant').length;
  const entries: Entry[] = [];
  let consumed = 0;
  let pending: string[] = [];
  const closing = (stopped: boolean): DemoPick =>
    consumed === played
      ? { kind: 'final', agent, text: summaryText(facts, entries, messages, stopped) }
      : { kind: 'final', agent, text: script.finalText };

  for (const [i, turn] of conversation.turns.entries()) {
    const kept: PlayedCall[] = [];
    const said: string[] = [];
    for (const [j, call] of turn.toolCalls.entries()) {
      const label = call.id ?? `t${i}c${j}`;
      const unmet = call.needs.find((need) => !needMet(need, facts));
      if (unmet === undefined) {
        kept.push({ label, call });
        continue;
      }
      const leftOut = leftOutWhy(unmet, facts);
      entries.push({ label, call, leftOut });
      if (call.ifNot === 'stop') return closing(true);
      if (call.notDone) said.push(`I ${call.notDone}: ${leftOut}.`);
    }
    if (kept.length === 0 && turn.toolCalls.length > 0) {
      pending.push(...said);
      continue;
    }
    if (consumed === played) {
      const missing = kept.find((c) => !tools.some((t) => t.name === c.call.name));
      if (missing) {
        const text = `[demo] The next scripted step calls ${missing.call.name}, which this conversation does not offer, so the demo stops here.`;
        return { kind: 'final', agent, text };
      }
      return {
        kind: 'turn',
        agent,
        step: consumed,
        text: withNotes(turn.text, [...pending, ...said]),
        calls: kept,
      };
    }
    consumed += 1;
    const ran = kept.map((c) => ({ ...c, result: facts.results.get(c.label) }));
    entries.push(...ran);
    pending = ran
      .filter((e) => e.call.notDone && !ranOk(e.result))
      .map((e) => `I ${e.call.notDone}: ${whyNot(e.result)}.`);
  }
  return closing(false);
}

/** A need is met when the labelled call ran and worked, or the named sub-agent reported done. */
function needMet(need: string, facts: Facts): boolean {
  if (!need.startsWith('agent:')) return ranOk(facts.results.get(need));
  const name = need.slice('agent:'.length);
  const marker = facts.script.conversations.find((c) => c.agent === name)?.summary.done;
  const report = facts.reports.find((r) => r.name === name);
  return report?.status === 'done' && marker !== undefined && report.report.startsWith(marker);
}

function leftOutWhy(need: string, facts: Facts): string {
  if (need.startsWith('agent:')) return `the ${need.slice('agent:'.length)} did not finish`;
  const call = facts.conversation.turns.flatMap((t) => t.toolCalls).find((c) => c.id === need);
  return call?.notDone ? `not attempted, because I ${call.notDone}` : 'not attempted';
}

/** The scripted text with the notes about what did not run put right after its "[demo] agent:" label. */
function withNotes(text: string, notes: readonly string[]): string {
  if (notes.length === 0) return text;
  const prefix = PREFIX.exec(text)?.[0] ?? '';
  return `${prefix}${notes.join(' ')} ${text.slice(prefix.length)}`;
}

const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The closing words, from what happened: what ran, what did not and why, the person's answers. */
function summaryText(
  facts: Facts,
  entries: readonly Entry[],
  messages: readonly ChatMessage[],
  stopped: boolean,
): string {
  const s = facts.conversation.summary;
  const counted = entries.filter((e) => e.call.done !== undefined);
  const complete =
    !stopped &&
    counted.every((e) => e.call.optional || ranOk(e.result)) &&
    (!s.reports || facts.reports.every((r) => needMet(`agent:${r.name}`, facts)));
  const parts: string[] = [complete ? s.done : s.partly];
  const done = counted.filter((e) => ranOk(e.result)).map((e) => e.call.done as string);
  if (done.length > 0) parts.push(`I ${listed(done)}.`);
  for (const e of counted) {
    if (ranOk(e.result)) continue;
    if (e.result?.status === 'executed') parts.push(`I ${e.call.done}, but ${whyNot(e.result)}.`);
    else parts.push(`I ${e.call.notDone ?? `did not ${e.label}`}: ${e.leftOut ?? whyNot(e.result)}.`);
  }
  if (stopped && s.stopped) parts.push(s.stopped);
  const answer = escalationOf(messages);
  if (answer && s.escalation) {
    const template = s.escalation[answer.choice];
    const instruction = answer.choice === 'retry' && answer.instruction ? ` ("${answer.instruction}")` : '';
    const note = answer.choice === 'take_over' && answer.note ? ` (your note: "${answer.note}")` : '';
    parts.push(template.replace('{instruction}', instruction).replace('{note}', note));
  }
  let text = parts.join(' ');
  if (s.reports)
    for (const r of facts.reports) {
      const said = r.report.replace(/^\[demo\] /, '');
      text += `\n- ${r.status === 'done' ? said : `${r.name} ${r.status}: ${said}`}`;
    }
  return s.outro ? `${text}\n\n${s.outro}` : text;
}
