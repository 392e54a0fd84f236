/**
 * The families issue 28 found leaking on the peers' corpora, each in our own words (no corpus data)
 * with a benign twin that must come out unchanged: as text, and through the real audit writer as a
 * command that prints it (`printf '%s\n' '<text>'`, so quoting must not hide it) and its result.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactString } from '../../src/audit/redact';
import { loadShellGrammarWords } from '../../src/policy/shell-grammar-words';
import type { AuditRecord } from '../../src/protocol/audit';
import { record, tempAuditWriter } from './helpers';
import { auditDayFiles } from '../helpers/audit-lines';

type Family = { name: string; text: string; secret: string; benign: string };

const FAMILIES: Family[] = [
  {
    name: 'curl --user with the password quoted inside the word',
    text: "curl --user kevin:'Hq7Vw3Lk9Px2Nr8T' -X PATCH https://api.example.com",
    secret: 'Hq7Vw3Lk9Px2Nr8T',
    benign: 'curl --user "$API_USER:$API_PASS" -X PATCH https://api.example.com',
  },
  {
    name: 'curl -u with an API key as the user and no password',
    text: 'curl -u "k7Lm2Qx9Vw4Rt8Zp:" https://api.example.com/v1/charges',
    secret: 'k7Lm2Qx9Vw4Rt8Zp',
    benign: 'curl -u admin: https://api.example.com/v1/charges',
  },
  {
    name: 'a Square token escaped by the page it was copied from',
    text: 'SQUARE_SECRET_SETTING: sq0csp-q7\\_Vw3Lk9^P^x2Nr8Tz5Hc1Wb4Yd6Mf0Jg',
    secret: 'q7\\_Vw3Lk9^P^x2Nr8Tz5Hc1Wb4Yd6Mf0Jg',
    benign: 'the Square prefix sq0csp- starts an OAuth secret',
  },
  {
    name: 'Go var with a type',
    text: 'var deployToken string = "Qm7vX2pL9sK4wR8tZ1nB6cY3"',
    secret: 'Qm7vX2pL9sK4wR8tZ1nB6cY3',
    benign: 'var deployToken string = os.Getenv("DEPLOY_TOKEN")',
  },
  {
    name: 'PHP .=',
    text: '$apiSecret .= "h4Tq9Zr2Lw8Xv5Nc1Pk7";',
    secret: 'h4Tq9Zr2Lw8Xv5Nc1Pk7',
    benign: '$apiSecret .= $suffix;',
  },
  {
    name: 'System.setProperty',
    text: 'System.setProperty("BILLING_TOKEN", "r8Kd2Nq5Vx9Lm3Tz7Hc1Wb4");',
    secret: 'r8Kd2Nq5Vx9Lm3Tz7Hc1Wb4',
    benign: 'System.setProperty("BILLING_TOKEN", System.getenv("BILLING_TOKEN"));',
  },
  {
    name: 'Makefile ::=',
    text: 'RELEASE_TOKEN ::= Zp3Qw8Rt5Yx2Nv7Lk4Hs9Jd',
    secret: 'Zp3Qw8Rt5Yx2Nv7Lk4Hs9Jd',
    benign: 'RELEASE_TOKEN ::= $(shell cat token.path)',
  },
  {
    name: 'Makefile :::=',
    text: 'UPLOAD_SECRET :::= Wn5Ht8Jq2Lx6Vb9Rk3Mz7Pd',
    secret: 'Wn5Ht8Jq2Lx6Vb9Rk3Mz7Pd',
    benign: 'UPLOAD_SECRET :::= $(UPLOAD_SECRET_FROM_CI)',
  },
  {
    name: 'Makefile ?=',
    text: 'PUBLISH_TOKEN ?= Ys4Fk9Wq1Tn6Hz3Lc8Rv2Bx',
    secret: 'Ys4Fk9Wq1Tn6Hz3Lc8Rv2Bx',
    benign: 'PUBLISH_TOKEN ?= $(CI_TOKEN)',
  },
  {
    name: '1Password secret key (A3-…)',
    text: 'emergency kit: A3-K7PQ2M-X9TR4WL8ZNB-H3JD6-Q8WE2-M5RT7',
    secret: 'A3-K7PQ2M-X9TR4WL8ZNB-H3JD6-Q8WE2-M5RT7',
    benign: 'emergency kit: A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX',
  },
  {
    name: 'Slack webhook URL',
    text: 'notify: https://hooks.slack.com/services/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',
    secret: 'q8Zr2Lw5Xn9Pk3Vt7Hc1Mb6s',
    benign: 'see https://api.slack.com/messaging/webhooks for how to make one',
  },
  {
    name: 'quoted shell argument holding an assignment',
    text: 'adobeToken = 9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    secret: '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    benign: 'adobe token rotation is due on Monday',
  },
  {
    name: 'a secret name with a version suffix (SESSION_SECRET_V2)',
    text: 'SESSION_SECRET_V2=Lq8Xz3Vn6Tb1Kw9Rm4Hp7Yc2',
    secret: 'Lq8Xz3Vn6Tb1Kw9Rm4Hp7Yc2',
    benign: 'SESSION_SECRET_V2_LENGTH=64',
  },
  {
    name: 'Discord bot token',
    text: 'discord_bot_token = "6b1e9c4f7a2d8e3b5c0f9a6d1e4b7c2f8a3d5e0b9c6f1a4d7e2b8c5f0a3d6e9b"',
    secret: '6b1e9c4f7a2d8e3b5c0f9a6d1e4b7c2f8a3d5e0b9c6f1a4d7e2b8c5f0a3d6e9b',
    benign: 'discord_channel = "release-notes"',
  },
  {
    name: 'DigitalOcean personal access token',
    text: 'DIGITALOCEAN_ACCESS_TOKEN=dop_v1_4f8a2c6e0b9d3f7a1c5e8b2d6f0a4c9e3b7d1f5a8c2e6b0d4f9a3c7e1b5d8f2a',
    secret: 'dop_v1_4f8a2c6e0b9d3f7a1c5e8b2d6f0a4c9e3b7d1f5a8c2e6b0d4f9a3c7e1b5d8f2a',
    benign: 'export DIGITALOCEAN_ACCESS_TOKEN=$(pass show do/token)',
  },
  {
    name: 'GCP private_key_id',
    text: '{"type": "service_account", "private_key_id": "3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e2b4d6f01"}',
    secret: '3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e2b4d6f01',
    benign: '{"type": "service_account", "private_key_id": "<your key id>"}',
  },
];

const printCommand = (text: string): string => `printf '%s\\n' '${text.replaceAll("'", `'\\''`)}'`;

const audit = tempAuditWriter('warden-secret-families-');
beforeAll(async () => {
  await loadShellGrammarWords();
});

/** Appends a command printing `text` and `text` as its result; the line as read back from disk. */
function throughWriter(text: string): AuditRecord {
  expect(audit.writer.append(record({ args: { command: printCommand(text) }, result: text })).ok).toBe(true);
  const lines = auditDayFiles(audit.dir).flatMap((f) =>
    readFileSync(join(audit.dir, f), 'utf8').split('\n').filter(Boolean),
  );
  return JSON.parse(lines[lines.length - 1] ?? '{}') as AuditRecord;
}

describe('the families that leaked on the peers corpora', () => {
  it.each(FAMILIES)('$name: hidden as text', ({ text, secret }) => {
    const out = redactString(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED:');
  });

  it.each(FAMILIES)('$name: hidden in the command that prints it and in its result', ({ text, secret }) => {
    const line = throughWriter(text);
    const command = (line.args as { command: string }).command;
    expect(command).not.toContain(secret);
    expect(command.startsWith("printf '%s\\n' '")).toBe(true);
    expect(line.result).not.toContain(secret);
  });

  it.each(FAMILIES)('$name: the benign twin is left as it is', ({ benign }) => {
    expect(redactString(benign)).toBe(benign);
    const line = throughWriter(benign);
    expect((line.args as { command: string }).command).toBe(printCommand(benign));
    expect(line.result).toBe(benign);
  });
});
