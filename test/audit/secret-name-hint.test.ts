import { describe, expect, it } from 'vitest';
import { redactString } from '../../src/audit/secret-patterns';
import { NAMED_RULES } from '../../src/audit/secret-named';
import { SECRET_NAME_HINT, isSecretName } from '../../src/audit/secret-names';

// Words names are made of: the secret ones and their neighbours, in any case, with any separator.
const WORDS = [
  'token',
  'tokens',
  'key',
  'keys',
  'secret',
  'secrets',
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'pw',
  'passcode',
  'auth',
  'authorization',
  'author',
  'cookie',
  'setcookie',
  'credential',
  'credentials',
  'apikey',
  'privatekey',
  'accesskey',
  'secretkey',
  'signingkey',
  'masterkey',
  'base',
  'db',
  'api',
  'x',
  'access',
  'client',
  'github',
  'path',
  'max',
  'count',
  'session',
  'id',
  'monkey',
  'keyboard',
  'user',
  'name',
  'mysql',
  'smtp',
  'aws',
  'dbpassword',
  'accesstoken',
  'clientsecret',
];
const SEPARATORS = ['_', '-', '.', ''];

let seed = 11;
const next = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return Math.floor((seed / 2 ** 31) * n);
};
const cased = (word: string): string =>
  [word, word.toUpperCase(), word[0]?.toUpperCase() + word.slice(1)][next(3)] as string;
function randomName(): string {
  const words = Array.from({ length: 1 + next(4) }, () => cased(WORDS[next(WORDS.length)] as string));
  const sep = SEPARATORS[next(SEPARATORS.length)] as string;
  return words.join(sep);
}

describe('SECRET_NAME_HINT: the by-name rules skip text that cannot name a secret', () => {
  it('every name isSecretName accepts holds the hint (20,000 generated names)', () => {
    let secret = 0;
    for (let i = 0; i < 20_000; i++) {
      const name = randomName();
      if (!isSecretName(name)) continue;
      secret++;
      expect(SECRET_NAME_HINT.test(name), name).toBe(true);
    }
    expect(secret).toBeGreaterThan(2_000);
  });

  const plain = [
    'path',
    'status',
    'output',
    'totalLines',
    'x-request-id',
    'user_name',
    'session.id',
    'MAX_COUNT',
  ];
  const shapes = (name: string, value: string) => [
    `--${name} ${value}`,
    `-H ${name}:${value}`,
    `${name}=${value}`,
    `[db]\n${name} = ${value}`,
    `{"${name}": "${value}"}`,
    `curl -H "${name}: ${value}"`,
    `${name}: ${value}`,
    `aws configure set ${name} ${value}`,
  ];

  it('a by-name rule leaves text without the hint as it is', () => {
    const byName = NAMED_RULES.filter((r) => r.byName);
    expect(byName.length).toBeGreaterThanOrEqual(8);
    for (const name of plain)
      for (const text of shapes(name, 'Zq8vLw2nRt5yXc7m')) {
        expect(SECRET_NAME_HINT.test(text)).toBe(false);
        for (const rule of byName) expect(rule.apply(text)).toBe(text);
        expect(redactString(text)).toBe(text);
      }
  });

  it('the same shapes with a secret name are still redacted', () => {
    for (const name of ['api_key', 'aws_secret_access_key', 'DB_PASSWORD', 'client-secret'])
      for (const text of shapes(name, 'Zq8vLw2nRt5yXc7m')) {
        const out = redactString(text);
        expect(out, text).toContain('[REDACTED:');
        expect(out).not.toContain('Zq8vLw2nRt5yXc7m');
      }
  });

  it('a tool result as JSON text is left whole (and costs one look, not every rule)', () => {
    const json = JSON.stringify({
      status: 'executed',
      output: '     1→a',
      data: { path: 'a.txt', totalLines: 1 },
    });
    expect(redactString(json)).toBe(json);
    expect(redactString(`{"password":"hunter2hunter2","path":"a.txt"}`)).toBe(
      '{"password":"[REDACTED:key]","path":"a.txt"}',
    );
  });
});
