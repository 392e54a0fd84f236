import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactString, redactThenCut } from '../../src/audit/redact';
import { EXCLUDED_RULES, RULE_KEYWORDS, presetRuleKinds } from '../../src/audit/secret-maintained';
import type { AuditRecord } from '../../src/protocol/audit';
import { createAuditWriter } from '../../src/audit/writer';
import { BENIGN, POSITIVE } from './secret-corpus';
import { record, tempAuditWriter } from './helpers';

const audit = tempAuditWriter('warden-secret-corpus-');

/** Appends `text` as a command, a file's content and a result, then reads the line back from disk. */
function throughWriter(text: string): { line: string; parsed: AuditRecord } {
  const before = readLines().length;
  const result = audit.writer.append(
    record({ args: { command: text, content: text }, result: text, reason: text }),
  );
  expect(result.ok).toBe(true);
  const lines = readLines();
  expect(lines.length).toBe(before + 1);
  const line = lines[lines.length - 1] ?? '';
  return { line, parsed: JSON.parse(line) as AuditRecord };
}

function readLines(): string[] {
  const files = readdirSync(audit.dir);
  return files.flatMap((f) => readFileSync(join(audit.dir, f), 'utf8').split('\n').filter(Boolean));
}

describe('secret corpus through the real audit writer', () => {
  it('has at least 50 secret shapes', () => {
    expect(POSITIVE.length).toBeGreaterThanOrEqual(50);
  });

  it.each(POSITIVE)('$name', ({ text, secret, keep }) => {
    expect(text).toContain(secret);
    const { line, parsed } = throughWriter(text);
    expect(line).not.toContain(secret);
    expect(line).not.toContain(JSON.stringify(secret).slice(1, -1));
    const args = parsed.args as { command: string; content: string };
    expect(args.command).toContain('[REDACTED:');
    expect(args.command).toContain(keep);
    expect(parsed.result).toBe(args.command);
  });

  it.each(BENIGN)('leaves benign text alone: %j', (text) => {
    expect(redactString(text)).toBe(text);
    const { parsed } = throughWriter(text);
    expect((parsed.args as { command: string }).command).toBe(text);
  });

  it('is idempotent on every case', () => {
    for (const { text } of POSITIVE) {
      const once = redactString(text);
      expect(redactString(once)).toBe(once);
    }
  });
});

describe('redaction before a cut', () => {
  const token = `ghp_${'aB3dE5fG7h'.repeat(4).slice(0, 36)}`;

  it.each([150, 180, 195, 199, 200])(
    'a token starting at %i is hidden whole, not kept as its first half',
    (at) => {
      const text = `${'x'.repeat(at - 1)} ${token} tail`;
      const cut = redactThenCut(text, 200);
      expect(cut.length).toBeLessThanOrEqual(200);
      for (let n = 8; n <= token.length; n++) expect(cut).not.toContain(token.slice(0, n));
    },
  );

  it('a private key longer than the cut is hidden from its first line', () => {
    const text = `key:\n-----BEGIN RSA PRIVATE KEY-----\n${'MIIEpAIBAAKCAQEA'.repeat(400)}\n-----END RSA PRIVATE KEY-----`;
    expect(redactThenCut(text, 200)).toBe('key:\n[REDACTED:private_key]');
  });

  it('the writer cuts long strings after redacting them', () => {
    const cutWriter = createAuditWriter({
      dir: mkdtempSync(join(tmpdir(), 'warden-cut-')),
      sessionId: 's',
      onError: () => {},
      maxStringLength: 100,
    });
    const appended = cutWriter.append(record({ result: `${'y'.repeat(89)} ${token}` }));
    cutWriter.close();
    expect(appended.record.result).not.toContain(token.slice(0, 8));
    expect(appended.record.result).toMatch(/^y{89} \[REDACTED:/);
  });
});

describe('the maintained rule set', () => {
  it('every rule of the preset is run (with its keyword) or excluded for a stated reason', () => {
    const kinds = presetRuleKinds();
    expect(kinds.length).toBeGreaterThan(20);
    for (const kind of kinds) expect(kind in RULE_KEYWORDS || EXCLUDED_RULES.has(kind), kind).toBe(true);
    // One case-sensitive union of the keywords gates them all: a flag on one would be lost.
    for (const keyword of Object.values(RULE_KEYWORDS)) expect(keyword.flags).toBe('');
  });

  it('every keyword names a rule of the preset: the trigger, built without the preset, is the union of the rules run', () => {
    const kinds = new Set(presetRuleKinds());
    for (const kind of Object.keys(RULE_KEYWORDS)) expect(kinds.has(kind), kind).toBe(true);
  });

  it.each([
    ['Groq key', 'groq'],
    ['Linear key', 'linear'],
    ['Notion token', 'notion'],
    ['Docker PAT', 'docker'],
    ['Figma token', 'figma'],
    ['Cloudflare token', 'cloudflare'],
    ['Tailscale key', 'tailscale'],
    ['Grafana service account', 'grafana'],
    ['Vercel token', 'vercel'],
    ['Slack webhook', 'slack'],
  ])('%s is found by the preset rule %s', (name, kind) => {
    const found = POSITIVE.find((c) => c.name === name);
    expect(found).toBeDefined();
    expect(redactString(found?.text ?? '')).toContain(`[REDACTED:${kind}]`);
  });

  it('a secretlint-disable comment in the text does not switch redaction off', () => {
    const token = `glpat-${'aB3dE5fG7h'.repeat(2)}`;
    const text = `// secretlint-disable\nconst t = "${token}";\n// secretlint-enable`;
    expect(redactString(text)).not.toContain(token);
  });
});
