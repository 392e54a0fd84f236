import { describe, expect, it } from 'vitest';
import { redactedJson, redactString } from '../../src/audit/redact';

/**
 * JSON text inside a string (a command's `-o json` output, a tool's JSON answer) writes its lines as
 * `\n` escapes; the rules that find a secret by its line must still see them.
 */
const HIDDEN: [string, string, string][] = [
  [
    'an .env line inside a JSON value',
    '{"data":{"app.env":"A=1\\nDB_PASSWORD=hunter2xyz\\nB=2"}}',
    'hunter2xyz',
  ],
  [
    'a YAML line inside a JSON value',
    '{"config":"name: app\\npassword: hunter2xyz\\nport: 80"}',
    'hunter2xyz',
  ],
  ['an indented INI line', '{"c":"[x]\\n  api_key = abcdef123456\\n"}', 'abcdef123456'],
  ['a flag at the start of an escaped line', '"curl\\n-u admin:hunter2xyz https://x"', 'hunter2xyz'],
  ['CRLF escapes', '{"env":"A=1\\r\\nSECRET_TOKEN=zz99yy88xx77\\r\\n"}', 'zz99yy88xx77'],
  ['after an escape and a real line break too', 'x\\n\nfirst\\npassword: hunter2xyz', 'hunter2xyz'],
];

describe('secrets on escaped lines', () => {
  it.each(HIDDEN)('%s is hidden, and redacting again changes nothing', (_, text, secret) => {
    const once = redactString(text);
    expect(once).not.toContain(secret);
    expect(once).toContain('[REDACTED:');
    expect(redactString(once)).toBe(once);
  });

  it.each([
    'const s = "a\\nb";\nif (x) return "\\r\\n";',
    'C:\\\\new\\\\path\\\\readme.txt',
    '{"log":"started\\nlistening on :8080\\nkeyboard: ready"}',
    'printf "%s\\n" "$TOKEN"',
  ])('text with escapes and no secret is kept exactly: %j', (text) => {
    expect(redactString(text)).toBe(text);
  });

  it('a tool result that prints JSON keeps no such secret in its session event', () => {
    const output = JSON.stringify({ data: { 'app.env': 'A=1\nDB_PASSWORD=hunter2xyz\n' } }, null, 2);
    const line = redactedJson({
      t: 'event',
      event: { type: 'tool_finished', result: { status: 'executed', output } },
    });
    expect(line).not.toContain('hunter2xyz');
  });
});
