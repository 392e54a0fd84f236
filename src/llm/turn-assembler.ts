/**
 * Builds one ModelTurn from streamed chat.completion.chunk objects. Servers differ: OpenAI sends a
 * tool call's id and name once and its arguments in pieces keyed by `index`; others send the whole
 * call in one chunk, omit `index` or `type`, repeat the name, or give every parallel call index 0.
 * Chunks are read as unknown JSON, so a missing field is never a crash.
 */
import type { ModelTurn, ToolCallRequest, Usage } from './types';

type Slot = { id: string; name: string; args: string };

/**
 * The assembler's view of one chunk: the text it added that a caller may show, and whether it
 * carried any part of the answer at all (text, reasoning, a tool call piece, a finish reason or
 * usage). A chunk without progress is what a server that streams empty chunks forever sends.
 * `named`: the tool calls whose names this chunk brought (each call's name once; valid until the next push).
 */
export type ChunkEffect = { text: string; progress: boolean; named: readonly string[] };

export type TurnAssembler = {
  /** Folds one parsed chunk in; returns the text it carried ('' when none). */
  push(chunk: unknown): ChunkEffect;
  /** How many chunks have been pushed. */
  readonly chunks: number;
  /** The turn so far. Calls without an id get a generated one; empty arguments become '{}'. */
  finish(): ModelTurn;
};

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Creates an assembler; `newId` names calls a server sent without an id. */
export function createTurnAssembler(newId: () => string): TurnAssembler {
  const slots: Slot[] = [];
  const byIndex = new Map<number, Slot>();
  // Calls by id: a burst of thousands of calls would otherwise search every slot for each piece.
  const byId = new Map<string, Slot>();
  let text = '';
  const named: string[] = [];
  let usage: Usage | undefined;
  let finishReason: string | null = null;
  let chunks = 0;

  function slotFor(delta: Record<string, unknown>): Slot {
    const id = str(delta.id) || undefined;
    const index = num(delta.index);
    const known = id === undefined ? undefined : byId.get(id);
    if (known) return known;
    const atIndex = index === undefined ? undefined : byIndex.get(index);
    // A different id at a used index means a server that numbers every call 0: a new call.
    if (atIndex && !(id !== undefined && atIndex.id !== '' && atIndex.id !== id)) return atIndex;
    const last = slots[slots.length - 1];
    // Without index or id, a name starts the next call (names arrive once per call); pieces continue the last.
    const named = str(record(delta.function)?.name);
    if (index === undefined && id === undefined && last && !(named && last.name)) return last;
    const slot: Slot = { id: '', name: '', args: '' };
    slots.push(slot);
    if (index !== undefined) byIndex.set(index, slot);
    return slot;
  }

  /** Folds one tool-call delta in; true when it carried an id, a name or argument text. */
  function pushToolCall(delta: Record<string, unknown>): boolean {
    const slot = slotFor(delta);
    const id = str(delta.id);
    if (id && !slot.id) {
      slot.id = id;
      if (!byId.has(id)) byId.set(id, slot);
    }
    const fn = record(delta.function);
    const name = str(fn?.name);
    // Names arrive once; some servers repeat them on every piece, so only the first one counts.
    if (name && !slot.name) {
      slot.name = name;
      named.push(name);
    }
    const args = fn?.arguments;
    if (typeof args === 'string') slot.args += args;
    else if (record(args)) slot.args += JSON.stringify(args); // a few servers send an object
    return Boolean(id || name || (typeof args === 'string' ? args : record(args)));
  }

  function readUsage(raw: unknown): boolean {
    const u = record(raw);
    if (!u) return false;
    const prompt = num(u.prompt_tokens);
    const completion = num(u.completion_tokens);
    if (prompt === undefined && completion === undefined) return false;
    usage = { promptTokens: prompt ?? 0, completionTokens: completion ?? 0 };
    return true;
  }

  return {
    get chunks() {
      return chunks;
    },
    push(chunk) {
      chunks += 1;
      const c = record(chunk);
      if (!c) return { text: '', progress: false, named: [] };
      let progress = readUsage(c.usage);
      let added = '';
      named.length = 0;
      const choices = Array.isArray(c.choices) ? c.choices : [];
      for (const rawChoice of choices) {
        const choice = record(rawChoice);
        // Only the first choice is ours; n > 1 is never requested.
        if (!choice || (num(choice.index) ?? 0) !== 0) continue;
        const delta = record(choice.delta) ?? record(choice.message);
        const content = str(delta?.content);
        if (content) added += content;
        // Reasoning models think for minutes before any text; their thoughts are progress, not shown.
        if (str(delta?.reasoning_content) || str(delta?.reasoning)) progress = true;
        const calls = delta?.tool_calls;
        if (Array.isArray(calls))
          for (const call of calls)
            if (record(call) && pushToolCall(record(call) as Record<string, unknown>)) progress = true;
        const reason = str(choice.finish_reason);
        if (reason) {
          finishReason = reason;
          progress = true;
        }
      }
      text += added;
      return { text: added, progress: progress || added !== '', named };
    },
    finish() {
      const toolCalls: ToolCallRequest[] = slots
        .filter((s) => s.name !== '' || s.args !== '')
        .map((s) => {
          if (!s.id) s.id = newId();
          return {
            id: s.id,
            type: 'function',
            function: { name: s.name, arguments: s.args.trim() === '' ? '{}' : s.args },
          };
        });
      return { text, toolCalls, usage, finishReason };
    },
  };
}
