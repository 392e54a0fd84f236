/**
 * What happened in a demo conversation, read from its history as a model would: each scripted
 * call's result (found by the label in its call id), the sub-agents' reports, and the person's
 * answer to an escalation. Pure; the words for "why it did not run" live here too.
 */
import type { ToolResultEnvelope } from '../protocol';
import type { ChatMessage } from './types';

/** The id of a scripted call: its conversation's agent, its label and a unique tail. */
export function demoCallId(agent: string, label: string, unique: string): string {
  return `call_demo_${agent}_${label}_${unique}`;
}

const LABEL = /^call_demo_[a-z0-9-]+_([a-z0-9-]+)_[a-z0-9]+$/;

/** Each labelled call's result in `messages`, by label (a later result of the same label wins). */
export function resultsByLabel(messages: readonly ChatMessage[]): Map<string, ToolResultEnvelope> {
  const out = new Map<string, ToolResultEnvelope>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    const label = LABEL.exec(m.tool_call_id)?.[1];
    if (label) out.set(label, parseEnvelope(m.content));
  }
  return out;
}

function parseEnvelope(content: string): ToolResultEnvelope {
  try {
    const v = JSON.parse(content) as ToolResultEnvelope | null;
    if (v && typeof v.status === 'string') return v;
  } catch {
    // Not JSON: not the gate's envelope, so not a result the demo can trust as a run.
  }
  return { status: 'error', by: 'tool', reason: content.slice(0, 200) };
}

/** True when a call ran and worked: executed, and a command exited 0. */
export function ranOk(result: ToolResultEnvelope | undefined): boolean {
  if (result?.status !== 'executed') return false;
  const exit = (result.data as { exitCode?: unknown } | undefined)?.exitCode;
  return exit === undefined || exit === 0;
}

const short = (text: string, max = 140): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** Why a call did not run (or did not work), in the person's terms; `undefined` result: never attempted. */
export function whyNot(result: ToolResultEnvelope | undefined): string {
  if (!result) return 'it was not attempted';
  const reason = result.reason ?? '';
  const code = /^([a-z_]+):/.exec(reason)?.[1];
  switch (result.status) {
    case 'executed': {
      const exit = (result.data as { exitCode?: unknown } | undefined)?.exitCode;
      return `it ran and exited with code ${String(exit)}`;
    }
    case 'rejected':
      if (result.by !== 'user') return 'you had rejected the same call before';
      return reason ? `you rejected it ("${short(reason, 80)}")` : 'you rejected it';
    case 'skipped':
      return 'you skipped it';
    case 'blocked':
      return result.by === 'guard'
        ? `the ${result.rule ?? 'hard'} guard blocked it, which no approval can override`
        : `the policy blocked it (rule ${result.rule ?? 'unknown'})`;
    case 'timeout':
      return 'no decision came in time';
    case 'cancelled':
      return 'it was cancelled';
    default:
      if (code === 'no_approver') return 'nobody was there to approve it';
      if (code === 'input_closed') return 'the input closed before anyone decided';
      return `it failed: ${short(reason.replace(/^[a-z_]+: /, ''))}`;
  }
}

/** A sub-agent's report from a spawn_agents result. */
export type DemoReport = { name: string; status: string; report: string };

/**
 * The reports of every sub-agent spawned in this conversation, in order: results whose data is a
 * list of reports (what spawning sub-agents returns), found by shape, not by the tool's name.
 */
export function spawnReports(messages: readonly ChatMessage[]): DemoReport[] {
  const out: DemoReport[] = [];
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    const envelope = parseEnvelope(m.content);
    if (envelope.status !== 'executed' || !Array.isArray(envelope.data)) continue;
    for (const r of envelope.data as Partial<DemoReport>[])
      if (r && typeof r.name === 'string' && typeof r.report === 'string' && typeof r.status === 'string')
        out.push({ name: r.name, status: r.status, report: r.report });
  }
  return out;
}

/** The person's answer to an escalation, as the loop wrote it into the conversation. */
export type DemoEscalation =
  | { choice: 'retry'; instruction?: string }
  | { choice: 'take_over'; note?: string }
  | { choice: 'skip' };

/** The last escalation answer in the conversation (src/agent/loop.ts writes these sentences). */
export function escalationOf(messages: readonly ChatMessage[]): DemoEscalation | undefined {
  const users = messages.filter((m) => m.role === 'user').slice(1);
  let found: DemoEscalation | undefined;
  for (const m of users) {
    const text = m.content;
    if (!text.startsWith('You were stopped and the person was asked for help')) {
      // What the person wrote after taking over is their note (src/session/person-control.ts).
      const note = /^The person's note: ([\s\S]*)$/.exec(text)?.[1];
      if (found?.choice === 'take_over' && note) found = { choice: 'take_over', note: short(note, 120) };
      continue;
    }
    const retry = /The person answered: retry(?: with this instruction: ([\s\S]*))?\.$/.exec(text);
    if (retry)
      found = retry[1] ? { choice: 'retry', instruction: short(retry[1], 120) } : { choice: 'retry' };
    else if (text.includes('The person took over this step by hand')) found = { choice: 'take_over' };
    else if (text.includes('skip this step')) found = { choice: 'skip' };
  }
  return found;
}
