/**
 * The words of `/compact`: what the model is asked when it summarises the conversation, and the
 * message the summary becomes. Shared by the session (which asks) and the demo model (which
 * recognises the request and answers from its script).
 */
import type { ChatMessage } from './types';

/** The last message of a summary request (no tools are offered with it). */
export const COMPACT_INSTRUCTION =
  'Summarise this conversation so that it can replace the history above and the work can go on from the summary alone. ' +
  "Keep: the person's goals and every request they made (the latest one in full), decisions and preferences, " +
  'files read or changed (paths) and what was learnt about them, commands run and their outcome, ' +
  'what was rejected or refused and why, and what remains to do. Leave out greetings and tool output that no longer matters. ' +
  'Answer with the summary only, as short notes; call no tool.';

/** What the summary becomes in the history: one user message after the system prompt. */
export const SUMMARY_PREFIX =
  "[The earlier conversation was compacted at the person's request. Summary of it so far:]\n\n";

/** The request that asks for a summary: the history as it is, then the instruction. */
export function compactMessages(history: readonly ChatMessage[]): ChatMessage[] {
  return [...history, { role: 'user', content: COMPACT_INSTRUCTION }];
}

/** True for a summary request (the demo model answers it with its scripted summary). */
export function isCompactRequest(messages: readonly ChatMessage[]): boolean {
  const last = messages.at(-1);
  return last?.role === 'user' && last.content === COMPACT_INSTRUCTION;
}

/** The history after an accepted summary: the system prompt (kept as it is), then the summary. */
export function compactedHistory(history: readonly ChatMessage[], summary: string): ChatMessage[] {
  const system = history[0]?.role === 'system' ? [history[0]] : [];
  return [...system, { role: 'user', content: `${SUMMARY_PREFIX}${summary}` }];
}
