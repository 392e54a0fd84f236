/**
 * What stands where a secret goes — placeholders, templates, names, substitutions, a doc's empty key
 * block — comes out as it went in (the peers' benign look-alikes were changed 122 times in 294);
 * each beside a real secret in the same form, which is still hidden.
 */
import { describe, expect, it } from 'vitest';
import { redactString } from '../../src/audit/redact';

const REAL = 'Tq8Zr2Lw5Xn9Pk3Vb7Hc';

describe('placeholders are not secrets', () => {
  it.each([
    [
      'x placeholder of a GitHub token',
      'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      `ghp_${REAL}Rt5Yx2Nv7Lk4Hs9Jd6M`,
    ],
    ['X placeholder of a GitLab token', 'glpat-XXXXXXXXXXXXXXXXXXXX', 'glpat-Zp3Qw8Rt5Yx2Nv7Lk4Hs'],
    ['repeated character', 'SERVICE_TOKEN=aaaaaaaaaaaaaaaaaaaaaaaa', `SERVICE_TOKEN=${REAL}`],
    [
      'a word written for the password',
      'curl -u admin:password https://ci.example.com',
      `curl -u admin:${REAL} https://ci.example.com`,
    ],
    ['your-… template', 'API_KEY=your_api_key_here', `API_KEY=${REAL}`],
    ['not a real one, says so', 'DOCKER_TOKEN=not_a_real_token', `DOCKER_TOKEN=${REAL}`],
    ['angle-bracket template', 'password: <set me in the vault>', `password: ${REAL}`],
    ['brace template', 'ACCESS_KEY={AccessKeyFromVault}', `ACCESS_KEY=${REAL}`],
    [
      'bracket template',
      'curl --user neo4j:[PASSWORD] http://db:7474',
      `curl --user neo4j:${REAL} http://db:7474`,
    ],
    [
      'an UPPER_SNAKE name standing for the value',
      'https://api.example.com/x?access_token=ACCESS_TOKEN',
      `https://api.example.com/x?access_token=${REAL}`,
    ],
    [
      'a command substitution',
      '-e SIGNING_KEY=`vault read -field=key secret/sign`',
      `-e SIGNING_KEY=${REAL}`,
    ],
    ['a label, not a value', 'auth_token = "token:"', `auth_token = "${REAL}"`],
    ['markup, not a value', 'api_token = "<xsd:element name="', `api_token = "${REAL}"`],
    ['the head of another assignment, quoted', 'api_token = "api_token = "', `api_token = "${REAL}"`],
    ['a value cut with an ellipsis', 'export SESSION_TOKEN=eyJhbGciOi...', `export SESSION_TOKEN=${REAL}`],
    ['says it is not real', 'ANTHROPIC_KEY=sk-ant-api02-notarealkey', `ANTHROPIC_KEY=sk-ant-api02-${REAL}`],
    [
      '…Here at the end',
      'SLACK=xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere',
      `SLACK=xoxe.xoxp-1-${REAL}`,
    ],
    [
      "Google's documented p12 password",
      'openssl pkcs12 -password "pass:notasecret"',
      `openssl pkcs12 -password "pass:${REAL}"`,
    ],
    [
      'openssl reading it from a variable',
      'openssl pkcs12 -password "pass:${PASS}"',
      `openssl pkcs12 -password "pass:${REAL}"`,
    ],
    [
      'openssl naming where it is',
      'openssl rsa -passin env:KEY_PASS -in k.pem',
      `openssl rsa -passin pass:${REAL} -in k.pem`,
    ],
    [
      "AWS's documented example key",
      'aws_access_key: AKIAIOSFODNN7EXAMPLE',
      'aws_access_key: AKIAZP3QW8RT5YX2NV7L',
    ],
    [
      'a template in angle brackets',
      'curl -u <user:password> https://test.com/e',
      `curl -u user:${REAL} https://test.com/e`,
    ],
    [
      'a URL with no credentials',
      'const MONGO_NO_AUTH = "mongodb://localhost:27017/db";',
      `const MONGO_NO_AUTH = "mongodb://u:${REAL}@localhost:27017/db";`,
    ],
    [
      'a password that is its user (a default)',
      'postgres://postgres:postgres@localhost:5432/db',
      `postgres://postgres:${REAL}@localhost:5432/db`,
    ],
    ['one character repeated', 'https://user:1111@service.com/api', `https://user:${REAL}@service.com/api`],
    [
      'my-password in a guide',
      'https://username:mypassword@test.com/endpoint',
      `https://username:${REAL}@test.com/endpoint`,
    ],
    [
      'a public key by name',
      'DOTENV_PUBLIC_KEY="037cfbfc90234cfdab7eb540505662937"',
      `DOTENV_PRIVATE_KEY="037cfbfc90234cfdab7eb540505662937"`,
    ],
  ])('%s', (_, placeholder, real) => {
    expect(redactString(placeholder)).toBe(placeholder);
    expect(redactString(real)).toContain('[REDACTED:');
  });

  it('a private key block with no key in it (a doc example) stays; a real or cut-off one does not', () => {
    const empty = '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----';
    expect(redactString(empty)).toBe(empty);
    const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7'.repeat(3);
    expect(redactString(`-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`)).toBe(
      '[REDACTED:private_key]',
    );
    expect(redactString('-----BEGIN PRIVATE KEY-----\nMIIEvQ')).toBe('[REDACTED:private_key]');
  });
});
