/**
 * Look-alikes of tokens that are not tokens, each beside its real twin in the same form, which is
 * still hidden: a name that says the value is a stand-in, a token masked or cut in the same word,
 * Slack-prefixed words, a versioned prefix whose exact form is known, Hugging Face's letters-only
 * form, a URL's too-short password and a URL the URL rules already judged. Each also through a
 * command line (`printf '%s\n' '…'`), as the binary's audit writes it.
 */
import { describe, expect, it } from 'vitest';
import { redactCommand, redactString } from '../../src/audit/redact';
import { namesStandIn } from '../../src/audit/secret-names';

const rep = (s: string, n: number): string => s.repeat(n);
const RANDOM16 = 'q7Rt2mXc9LpV4sKz';
const RANDOM32 = 'Hq7Rt2mXc9LpV4sKzWb3Nd8Fg6Jy5Ae1';
const printf = (text: string): string => `printf '%s\\n' '${text.replaceAll("'", `'\\''`)}'`;

describe('look-alikes stay; their real twins are hidden', () => {
  it.each([
    [
      'a Go test naming its value a non-match',
      `nonMatchingToken := "${RANDOM16}"`,
      `serviceToken := "${RANDOM16}"`,
    ],
    ['a fake token by name', `const fakeApiKey = "${RANDOM32}";`, `const apiKey = "${RANDOM32}";`],
    ['a dummy password by name', `DUMMY_PASSWORD=${RANDOM16}`, `DB_PASSWORD=${RANDOM16}`],
    ['a mock secret in YAML', `mock_client_secret: ${RANDOM32}`, `client_secret: ${RANDOM32}`],
    [
      'a token cut with an ellipsis in a doc',
      'export SERVICE_ACCOUNT_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoi...',
      `export SERVICE_ACCOUNT_TOKEN=ops_eyJ${rep(RANDOM32, 4)}`,
    ],
    [
      "a Slack-prefixed word in a file's name",
      'https://cdn.example.org/img/2019-40-xoxo-partyhats-2.png',
      `SLACK_BOT=xoxb-123456789012-987654321098-${RANDOM32.slice(0, 24)}`,
    ],
    [
      'a Slack-prefixed id with short numbers',
      'id: xoxb-4321-tab12',
      'id: xoxb-123456789012-Xw9q7Rt2mXc9LpV4sKz',
    ],
    ['a Slack config prefix on a word', 'xoxe.xoxp-1-firstrun', `xoxe.xoxp-1-${RANDOM32}`],
    [
      'a Slack token with its secret part masked',
      '"token": "xoxp-123456789012-123456789013-123456789014-####################"',
      `"token": "xoxp-123456789012-123456789013-123456789014-${RANDOM32.toLowerCase()}"`,
    ],
    [
      'a versioned Anthropic prefix of the wrong length',
      `sk-ant-api03-${rep('Qw3-', 10)}AA`,
      `sk-ant-api03-${rep('Qw3-', 23)}QAA`,
    ],
    [
      'a versioned Anthropic admin prefix ending otherwise',
      `sk-ant-admin01-${rep('Qw3-', 23)}QBB`,
      `sk-ant-admin01-${rep('Qw3-', 23)}QAA`,
    ],
    [
      'a Hugging Face prefix with digits (its tokens are 34 letters)',
      `hf_${rep('Word', 4)}1${rep('Word', 5)}`,
      `hf_${'QwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUi'}`,
    ],
    [
      'a URL password of three characters',
      'https://user:abc@api.example.com/v1',
      `https://user:${RANDOM16}@api.example.com/v1`,
    ],
    [
      'a URL under a secret name whose password is its user',
      'const DB_CREDENTIALS = "mongodb://mongo:mongo@localhost:27017/app";',
      `const DB_CREDENTIALS = "mongodb://mongo:${RANDOM16}@localhost:27017/app";`,
    ],
  ])('%s', (_, lookalike, real) => {
    expect(redactString(lookalike)).toBe(lookalike);
    expect(redactCommand(printf(lookalike))).toBe(printf(lookalike));
    expect(redactString(real)).toContain('[REDACTED:');
    expect(redactCommand(printf(real))).toContain('[REDACTED:');
  });

  it('a URL under a secret name keeps its URL, with only a real password hidden', () => {
    expect(redactString(`DB_CREDENTIALS="mongodb://app:${RANDOM16}@db:27017/x"`)).toBe(
      'DB_CREDENTIALS="mongodb://app:[REDACTED:password]@db:27017/x"',
    );
  });
});

describe('names that say their value is a stand-in', () => {
  it.each([
    ['nonMatchingToken', true],
    ['not_matching_secret', true],
    ['fakeApiKey', true],
    ['DUMMY_PASSWORD', true],
    ['mockClientSecret', true],
    ['invalid-token', true],
    ['TEST_API_KEY', false],
    ['example_token', false],
    ['non_prod_token', false],
    ['API_TOKEN', false],
    ['fake', false],
  ])('%s: %s', (name, standIn) => expect(namesStandIn(name)).toBe(standIn));
});
