/**
 * Look-alikes the reference's own measures let go, each beside a real twin in the same form, which is
 * still hidden: a value typed along the alphabet where only gitleaks' generic rule or a loose shape
 * found it, an OpenAI-prefixed key laid out as OpenAI's with no marker, a token its form's own rule
 * finds too plain (gitleaks' entropy floor), a value under a provider's name that the provider's rule
 * and the generic rule both refused, and a documented example the result's cut broke. Each also
 * through a command line (`printf '%s\n' '…'`), as the binary's audit writes it.
 */
import { describe, expect, it } from 'vitest';
import { redactCommand, redactString, redactThenCut } from '../../src/audit/redact';
import { findGitleaks } from '../../src/audit/secret-gitleaks';
import { providerMarkers } from '../../src/audit/secret-provider-marked';
import { holdsAlphabetRun, isTypedRun } from '../../src/audit/secret-typed';

const RANDOM32 = 'Hq7Rt2mXc9LpV4sKzWb3Nd8Fg6Jy5Ae1';
const RANDOM74 = RANDOM32.repeat(3).slice(0, 74);
const printf = (text: string): string => `printf '%s\\n' '${text.replaceAll("'", `'\\''`)}'`;

describe('look-alikes by the reference’s measures stay; their real twins are hidden', () => {
  it.each([
    [
      "a typed value only gitleaks' generic rule reads (a name warden does not judge secret)",
      '"token_v2": "abcd-1234567890"',
      `"token_v2": "${RANDOM32.slice(0, 16)}"`,
    ],
    [
      'an sk- key with an alphabet run where a marker would be',
      `sk-${RANDOM32.slice(0, 10)}abcdefgh${RANDOM32.slice(10)}`,
      `sk-${RANDOM32}Qw3`,
    ],
    [
      "an OpenAI project key without OpenAI's marker",
      `sk-proj-${RANDOM74}Zz9YyXxW${RANDOM74}`,
      `sk-proj-${RANDOM74}T3BlbkFJ${RANDOM74}`,
    ],
    [
      "a Grafana token its own rule finds too plain (gitleaks' entropy floor)",
      `glc_${'2'.repeat(42)}=`,
      `glc_${RANDOM32}Qw3+/Zk9=`,
    ],
    [
      "a value under a provider's name, not of its form and too short for the generic rule",
      'SUMO_ACCESS_KEY: Qw7Er5Ty3',
      'ACCESS_KEY: Qw7Er5Ty3',
    ],
    [
      "a value of Telegram's form but a bot id of four digits (its rule asks 5 – 16; the generic rule cannot read a colon)",
      `telegram_bot_token = "1234:AA${RANDOM32}Q"`,
      `telegram_bot_token = "12345678:AA${RANDOM32}Q"`,
    ],
    [
      "a value of Telegram's form but a bot id of 17 digits",
      `telegram_api_token = "${'4'.repeat(17)}:Au${RANDOM32}Q"`,
      `telegram_api_token = "${'4'.repeat(16)}:Au${RANDOM32}Q"`,
    ],
    [
      "a Slack-like token in prose whose ids are all short (Slack's have nine digits and more)",
      `see xoxp-1234-1234-1234-${RANDOM32} in the docs`,
      `see xoxp-1234567890-1234567890-1234567890-${RANDOM32} in the docs`,
    ],
    [
      "a plain value under a provider's name, not of its form (the generic rule finds it too plain)",
      'OKTA_API_TOKEN: k3k3k3m9m9k3k3m9m9',
      'API_TOKEN: k3k3k3m9m9k3k3m9m9',
    ],
    [
      "a value typed after Databricks' marker that its rule refused (a `g` where it writes only hex)",
      'DATABRICKS_TOKEN=dapi123456789012345678a9bc01234defg5',
      `DATABRICKS_TOKEN=dapi${RANDOM32}`,
    ],
    [
      "a value typed after Hugging Face's marker, too short for its rule",
      "hf_token: 'hf_abcdefghijklmnop1234'",
      `hf_token: 'hf_${RANDOM32.slice(0, 19)}'`,
    ],
  ])('%s', (_, lookalike, real) => {
    expect(redactString(lookalike)).toBe(lookalike);
    expect(redactCommand(printf(lookalike))).toBe(printf(lookalike));
    expect(redactString(real)).toContain('[REDACTED:');
    expect(redactCommand(printf(real))).toContain('[REDACTED:');
  });

  it.each([
    ['a password under a provider’s name (a password has no provider’s form)', 'SUMO_PASSWORD: Qw7Er5Ty3'],
    [
      'a long random value under a provider’s name (the generic rule finds it)',
      `MERAKI_TOKEN=${RANDOM32}Qw3Er5Ty`,
    ],
    ['a Telegram bot token of its form', `telegram_bot_token = "123456789:AA${RANDOM32}Q"`],
    [
      'a value under Telegram’s name in no form a rule reads (a colon in it, no bot id)',
      `telegram_bot_token = "bot:${RANDOM32}Qw"`,
    ],
    [
      "an OpenAI project key of another length than OpenAI's layout (a near miss)",
      `sk-proj-${RANDOM74}Zz9YyXxW${RANDOM74.slice(1)}`,
    ],
    ['a short typed value under a key’s name (what a person types)', 'api_key = abcdef123456'],
    [
      'a long typed value under a name warden judges secret (tests fabricate secrets so)',
      'SERVICE_TOKEN=svc_0123456789abcdefghij',
    ],
    ['a long typed password in a flag', 'tool --password=Qw7Er5Ty3Ui9Op1As'],
    // Telegram's form of any length is kept only where its own rule refused it: what it finds, and
    // another provider's secret under its name, are still hidden.
    ['a Telegram token of the shortest bot id its rule takes', `telegram_bot_token = "12345:AA${RANDOM32}Q"`],
    ['a GitHub token under Telegram’s name', `telegram_bot_token = "ghp_${RANDOM32}Qw3E"`],
    [
      'a colon pair under Telegram’s name that is not its form (letters before the colon)',
      `telegram_bot_token = "admin:A${RANDOM32}Q"`,
    ],
    [
      'a Slack config token: one short number, then its long random part',
      `xoxe.xoxp-1-${RANDOM32.repeat(6).slice(0, 164)}`,
    ],
    // A typed value after a provider's marker is kept only where that provider's rule refused it.
    [
      "a typed value in Databricks' exact form (its rule's finding)",
      'DATABRICKS_TOKEN=dapi0123456789abcdef0123456789abcdef',
    ],
    ["a typed value in Hugging Face's exact form", 'HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzabcdefgh'],
    ['a typed password after a marker', 'DATABRICKS_PASSWORD=dapi123456789012345678a9bc01234defg5'],
    [
      'a typed value after no marker under a secret name',
      'DATABRICKS_TOKEN=xapi123456789012345678a9bc01234defg5',
    ],
  ])('%s is hidden', (_, text) => {
    expect(redactString(text)).toContain('[REDACTED:');
    expect(redactCommand(printf(text))).toContain('[REDACTED:');
  });

  it("the entropy floor of a form's own rule is what keeps the Grafana look-alike", () => {
    const plain = `glc_${'2'.repeat(42)}=`;
    expect(findGitleaks(plain).belowFloor.has(plain)).toBe(true);
    expect(findGitleaks(`glc_${RANDOM32}Qw3+/Zk9=`).belowFloor.size).toBe(0);
  });

  it('a documented example cut by the audit’s result cap reads as cut when the writer redacts it again', () => {
    // The writer redacts every string of the record; the cut must not turn `…EXAMPLE` into a new token.
    const example = `ABSKQmVkcm9ja0FQSUtleS1Zm9yIHRlc3Rz${'EXAMPLE'.repeat(30)}`;
    const cut = redactThenCut(`${example}\n[exit code 0]`, 200);
    expect(cut).toHaveLength(200);
    expect(cut.endsWith('…')).toBe(true);
    expect(redactString(cut)).toBe(cut);
    const real = redactThenCut(`ABSKQmVkcm9ja0FQSUtleS1${RANDOM32.repeat(6)}\n[exit code 0]`, 200);
    expect(real).toBe('[REDACTED:aws-amazon-bedrock-api-key-long-lived]\n[exit code 0]');
  });

  it('a JWT after Basic is hidden whole, its payload and signature too', () => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.${RANDOM32}`;
    expect(redactString(`curl -H "Authorization: Basic ${jwt}" https://x`)).toBe(
      'curl -H "Authorization: Basic [REDACTED:basic]" https://x',
    );
  });
});

describe("providers' markers", () => {
  it('are read from the rules where one of its keywords opens the value', () => {
    expect(providerMarkers()).toEqual(expect.arrayContaining(['dapi', 'hf_', 'pplx-', 'dop_v1_']));
    // OpenAI's keyword is the marker in the middle of its keys, not `sk-`.
    expect(providerMarkers()).not.toContain('sk-');
  });
});

describe('values typed along the alphabet', () => {
  it.each([
    [RANDOM32, false, false],
    ['abc123', false, false],
    ['abcdef123456', false, false],
    ['abcdef1234567890', true, false],
    ['zyxwvutsrqponmlk', true, true],
    ['7890123456789012', true, false],
    [`x1abcdefgh${RANDOM32.slice(0, 12)}`, false, true],
    ['123456789:AAaB3dE5fG7hJ9kL1mN2pQ4', false, false],
    ['Qw7Er5Ty3Ui9Op1As', false, false],
  ])('%s: typed %s, alphabet run %s', (value, typed, alphabet) => {
    expect(isTypedRun(value)).toBe(typed);
    expect(holdsAlphabetRun(value)).toBe(alphabet);
  });
});
