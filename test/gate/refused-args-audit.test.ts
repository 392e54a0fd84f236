import { afterEach, describe, expect, it } from 'vitest';
import { redactJsonText, redactedJson } from '../../src/audit/redact';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

/** A secret only a line rule finds: on a line of its own, so behind `\n` in JSON text. */
const TEXT = 'name: app\npassword: hunter2xyz\nport: 80\n';

describe('a call the gate refuses before reading it keeps no secret in the audit', () => {
  it.each([
    ['an unknown tool', 'write_everything', JSON.stringify({ path: 'a.yml', content: TEXT })],
    ['arguments its schema refuses', 'write_file', JSON.stringify({ path: 7, content: TEXT })],
  ])('%s: the line holds the data the JSON text encodes, redacted', async (_, tool, args) => {
    h = createGateHarness({ mode: 'auto' });
    expect(await h.call(tool, args)).toMatchObject({ status: 'error', by: 'gate' });
    expect(h.records.length).toBe(2);
    for (const record of h.records) {
      expect(typeof record.args).toBe('string');
      const line = redactedJson(record);
      expect(line).not.toContain('hunter2xyz');
      expect(line).toContain('[REDACTED:');
    }
  });

  it('a huge argument object from a model stays one bounded line (the writer cuts the text)', async () => {
    h = createGateHarness({ mode: 'auto' });
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 'v'])));
    await h.call('write_everything', many);
    for (const record of h.records) {
      expect(typeof record.args).toBe('string');
      expect(redactedJson(record, { maxStringLength: 8192 }).length).toBeLessThan(12_000);
    }
  });

  it('arguments that are not JSON (cut short) are redacted as what their escapes say', async () => {
    h = createGateHarness({ mode: 'auto' });
    const cut = JSON.stringify({ path: 'a.yml', content: TEXT }).slice(0, -12);
    expect(await h.call('write_file', cut)).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/not valid JSON/),
    });
    for (const record of h.records) expect(redactedJson(record)).not.toContain('hunter2xyz');
  });
});

describe('redactJsonText on text that is not JSON', () => {
  it.each([
    ['a line after an escaped newline', '{"content":"a\\npassword: hunter2xyz\\nb', 'hunter2xyz'],
    ['an assignment after an escaped newline', '{"c":"X=1\\nDB_PASSWORD=s3cretvalue9', 's3cretvalue9'],
    ['a \\u escape', '{"k":"\\u0041KIAZ7Q4R2M8N6P3L5K1', 'Z7Q4R2M8N6P3L5K1'],
  ])('%s is hidden', (_, text, secret) => {
    expect(redactJsonText(text)).not.toContain(secret);
  });

  it('malformed text with nothing to hide is kept exactly, escapes and all', () => {
    for (const text of ['{"a":"x\\ny', 'not json \\n at all', '{"a": "\\q\\u12"'])
      expect(redactJsonText(text)).toBe(text);
  });
});
