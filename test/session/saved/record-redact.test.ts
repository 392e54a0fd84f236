import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redactJsonText, redactString } from '../../../src/audit/redact';
import type { ChatMessage, ToolCallRequest } from '../../../src/llm/types';
import { redactedRecordJson } from '../../../src/session/saved/record-redact';
import { testRecorder } from '../../helpers/session-recorder';
import { sessionFile } from '../../../src/session/saved/store-index';

/**
 * Text a file or a command may hold, each with a secret only a line rule finds: behind the `\n`
 * escapes of JSON text those rules read nothing (the session file kept them in the clear).
 */
const LINE_SECRETS: [string, string][] = [
  ['a YAML line', 'name: app\npassword: hunter2xyz\nport: 80\n'],
  ['an INI line', '[client]\npassword = s3cr3tpass\n'],
  ['an .env line after another', 'X=1\nDB_PASSWORD=s3cretvalue9\n'],
  ['an indented assignment', 'x\n  api_key = abcdef123456\n'],
  ['a name and a random value', 'run:\naws_secret_access_key wJalrXUtnFEMI/K7MDENG\n'],
];
const secretOf = (text: string) =>
  (/(hunter2xyz|s3cr3tpass|s3cretvalue9|abcdef123456|wJalrXUtnFEMI)/.exec(text) ?? [''])[0];

const toolMessage = (output: string): ChatMessage => ({
  role: 'tool',
  tool_call_id: 'call-1',
  content: JSON.stringify({ status: 'executed', output }),
});
const callsWriting = (content: string): ToolCallRequest[] => [
  {
    id: 'call-1',
    type: 'function',
    function: { name: 'write_file', arguments: JSON.stringify({ path: '.env', content }) },
  },
];
const writeCall = (content: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: callsWriting(content),
});

describe('the session file redacts JSON text as the data it encodes', () => {
  it.each(LINE_SECRETS)(
    '%s: the raw text is redacted, and so are a result and arguments that hold it',
    (_, text) => {
      const secret = secretOf(text);
      expect(redactString(text)).not.toContain(secret);
      const history = redactedRecordJson({
        t: 'history',
        ts: 't',
        messages: [writeCall(text), toolMessage(text)],
      });
      const asked = redactedRecordJson({
        t: 'asked',
        ts: 't',
        content: null,
        calls: callsWriting(text),
      });
      for (const line of [history, asked]) {
        expect(line).not.toContain(secret);
        expect(line).toContain('[REDACTED:');
      }
      // Still what the model read: a result and arguments that parse, with the secret's line marked.
      const [call, result] = JSON.parse(history).messages;
      expect(JSON.parse(call.tool_calls[0].function.arguments).content).toBe(redactString(text));
      expect(JSON.parse(result.content)).toEqual({ status: 'executed', output: redactString(text) });
    },
  );

  it('a result with nothing to hide is kept as the same text', () => {
    const content = JSON.stringify({ status: 'executed', output: 'line one\nline two\n' });
    const line = redactedRecordJson({
      t: 'history',
      ts: 't',
      messages: [{ role: 'tool', tool_call_id: 'c', content }],
    });
    expect(JSON.parse(line).messages[0].content).toBe(content);
    expect(redactJsonText(content)).toBe(content);
  });

  it('a repeated key cannot keep the copy the parse dropped, and text that is not JSON is redacted as text', () => {
    const twice = '{"content":"X=1\\nDB_PASSWORD=s3cretvalue9","content":"x"}';
    expect(redactJsonText(twice)).toBe('{"content":"x"}');
    expect(redactJsonText('{"path": "a.txt"}')).toBe('{"path":"a.txt"}');
    expect(redactJsonText('not json DB_PASSWORD=s3cretvalue9')).not.toContain('s3cretvalue9');
    expect(redactJsonText('{"cut": "DB_PASSWORD=s3cretvalue9')).not.toContain('s3cretvalue9');
  });

  it('keys that name a secret are hidden inside JSON text, and escapes cannot hide a token', () => {
    const args = JSON.stringify({
      headers: { Authorization: 'Bearer abcdefghijklmnop1234' },
      api_key: 'zzzz9999yyyy',
    });
    expect(redactJsonText(args)).not.toMatch(/abcdefghijklmnop1234|zzzz9999yyyy/);
    const escaped = '{"k":"\\u0041KIAZ7Q4R2M8N6P3L5K1"}';
    expect(redactString(escaped)).toContain('Z7Q4R2M8N6P3L5K1');
    expect(redactJsonText(escaped)).not.toContain('Z7Q4R2M8N6P3L5K1');
  });

  it('a message keeps only the fields of its kind (a stranger field is not written)', () => {
    const odd = { role: 'user', content: 'hi', secret: 'hunter2xyz' } as unknown as ChatMessage;
    const line = redactedRecordJson({ t: 'history', ts: 't', messages: [odd] });
    expect(JSON.parse(line).messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('a recorded session', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps no secret a read file or a write held, in its history, its asked step or its events', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-record-redact-'));
    dirs.push(home);
    const rec = testRecorder(home, 's');
    const text = LINE_SECRETS.map(([, t]) => t).join('');
    rec.journal.prompt('read the config');
    const ask = writeCall(text);
    rec.journal.asked(null, callsWriting(text));
    rec.onEvent({
      type: 'tool_finished',
      agentId: 'main',
      callId: 'call-1',
      tool: 'read_file',
      result: { status: 'executed', output: text },
    });
    rec.journal.sync([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'read the config' },
      ask,
      toolMessage(text),
    ]);
    await rec.close();
    const file = readFileSync(sessionFile(home, 's'), 'utf8');
    for (const [, t] of LINE_SECRETS) expect(file).not.toContain(secretOf(t) || 'no secret');
    expect(file.split('\n').filter((l) => l.includes('[REDACTED:')).length).toBe(3);
  });
});
