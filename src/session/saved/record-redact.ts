/**
 * A session file line's JSON, redacted like the audit. The conversation's messages hold JSON text —
 * a call's `arguments`, a tool's result as the model reads it — where a secret sits behind `\n`
 * escapes and no line rule sees it; so each message is redacted field by field, JSON text as the
 * data it encodes (`redactJsonText`), and every other record as a whole.
 */
import { redactJsonText, redactString, redactedJson } from '../../audit/redact';
import type { ChatMessage, ToolCallRequest } from '../../llm/types';
import type { SavedMessage, SessionRecord } from './store-records';

/** `JSON.stringify` of `record` with its secrets replaced. Contract: never throws for a SessionRecord. */
export function redactedRecordJson(record: SessionRecord): string {
  switch (record.t) {
    case 'history':
      return JSON.stringify({
        t: record.t,
        ts: redactString(record.ts),
        messages: record.messages.map(savedMessage),
      });
    case 'asked':
      return JSON.stringify({
        t: record.t,
        ts: redactString(record.ts),
        content: record.content === null ? null : redactString(record.content),
        calls: record.calls.map(savedCall),
      });
    default:
      return redactedJson(record);
  }
}

/** A message as it is saved: its known fields only, each redacted as what it is. */
function savedMessage(m: SavedMessage): SavedMessage {
  if ('fromEvent' in m) return { role: 'tool', tool_call_id: redactString(m.tool_call_id), fromEvent: true };
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: redactString(m.content) };
    case 'assistant': {
      const saved: ChatMessage = {
        role: 'assistant',
        content: m.content === null ? null : redactString(m.content),
      };
      if (m.tool_calls) saved.tool_calls = m.tool_calls.map(savedCall);
      return saved;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: redactString(m.tool_call_id), content: redactJsonText(m.content) };
  }
}

function savedCall(c: ToolCallRequest): ToolCallRequest {
  return {
    id: redactString(c.id),
    type: 'function',
    function: { name: redactString(c.function.name), arguments: redactJsonText(c.function.arguments) },
  };
}
