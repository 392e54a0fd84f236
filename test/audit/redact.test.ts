import { describe, expect, it } from 'vitest';
import { isSecretName, redact, redactString, redactWithJson, redactedJson } from '../../src/audit/redact';

// Fake credentials built at run time so no scanner mistakes this file for a leak.
const rep = (s: string, n: number) => s.repeat(n);
const OPENAI = `sk-${rep('a1B2', 12)}`;
const OPENAI_PROJ = `sk-proj-${rep('Zx9_', 10)}`;
// Anthropic's exact form: 93 characters, then `AA`.
const ANTHROPIC = `sk-ant-api03-${rep('Qw3-', 23)}QAA`;
const GHP = `ghp_${rep('A1b2', 9)}`;
const GHS = `ghs_${rep('k9L0', 9)}`;
const GH_PAT = `github_pat_11${rep('AbC9_', 12)}`;
const AWS_ID = `AKIA${rep('Q7RT', 4)}`;
const SLACK = `xoxb-123456789012-${rep('aB3', 8)}`;
const GOOGLE = `AIza${rep('Sy9_-', 7)}`;
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rep('dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 1)}`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${rep('x', 64)}\n${rep('y', 64)}\n-----END RSA PRIVATE KEY-----`;
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';
const UUID = '123e4567-e89b-12d3-a456-426614174000';

type Case = [name: string, input: string, expected: string];

const cases: Case[] = [
  // Known token shapes, in context.
  ['openai key in env export', `export OPENAI_API_KEY=${OPENAI}`, 'export OPENAI_API_KEY=[REDACTED:openai]'],
  ['openai project key', `key is ${OPENAI_PROJ} ok`, 'key is [REDACTED:openai] ok'],
  ['anthropic key', `x ${ANTHROPIC} y`, 'x [REDACTED:anthropic] y'],
  [
    'github ghp in a clone url',
    `git clone https://${GHP}@github.com/o/r.git`,
    'git clone https://[REDACTED:github]@github.com/o/r.git',
  ],
  ['github ghs', `token=${GHS}`, 'token=[REDACTED:github]'],
  [
    'github fine-grained pat',
    `gh auth login --with-token ${GH_PAT}`,
    'gh auth login --with-token [REDACTED:github]',
  ],
  ['aws access key id', `aws_access_key_id ${AWS_ID}`, 'aws_access_key_id [REDACTED:aws]'],
  [
    'slack bot token',
    `curl -d token=${SLACK} https://slack.com/api`,
    'curl -d token=[REDACTED:slack] https://slack.com/api',
  ],
  [
    'google api key in query',
    `https://maps.googleapis.com/maps/api?key=${GOOGLE}&q=x`,
    'https://maps.googleapis.com/maps/api?key=[REDACTED:google]&q=x',
  ],
  ['jwt alone', `cookie ${JWT}`, 'cookie [REDACTED:jwt]'],
  ['pem block keeps the text around it', `before\n${PEM}\nafter`, 'before\n[REDACTED:private_key]\nafter'],
  [
    'truncated pem block',
    `cat <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk`,
    'cat <<EOF\n[REDACTED:private_key]',
  ],
  // Framed secrets.
  [
    'bearer header keeps the curl command',
    'curl -H "Authorization: Bearer abc.def-123456" https://api.x.com/v1',
    'curl -H "Authorization: Bearer [REDACTED:bearer]" https://api.x.com/v1',
  ],
  ['bearer with a jwt', `Authorization: Bearer ${JWT}`, 'Authorization: Bearer [REDACTED:bearer]'],
  [
    'basic auth header',
    "curl -H 'Authorization: Basic dXNlcjpwYXNz' x",
    "curl -H 'Authorization: Basic [REDACTED:basic]' x",
  ],
  [
    'url password only',
    'psql postgres://admin:s3cr3t@db:5432/app',
    'psql postgres://admin:[REDACTED:password]@db:5432/app',
  ],
  ['url password with empty user', 'redis://:hunter2@cache:6379', 'redis://:[REDACTED:password]@cache:6379'],
  ['curl -u user:pass', 'curl -u alice:wonder1and https://x', 'curl -u alice:[REDACTED:password] https://x'],
  // Names that hold secrets.
  [
    'query string password',
    'https://x.io/login?user=bob&password=hunter2&next=/',
    'https://x.io/login?user=bob&password=[REDACTED:param]&next=/',
  ],
  ['query string access_token', 'GET /cb?access_token=abc123', 'GET /cb?access_token=[REDACTED:param]'],
  [
    'env assignment before a command',
    'DB_PASSWORD=hunter2 npm run migrate',
    'DB_PASSWORD=[REDACTED:assignment] npm run migrate',
  ],
  ['quoted env assignment', 'export API_KEY="abc def"', 'export API_KEY="[REDACTED:assignment]"'],
  [
    'secret flag with space',
    'vault login --token s.abc123 -address=x',
    'vault login --token [REDACTED:flag] -address=x',
  ],
  ['secret flag with equals', 'tool --api-key=abc123 run', 'tool --api-key=[REDACTED:flag] run'],
  [
    'json inside a string',
    'curl -d \'{"user":"bob","password":"hunter2"}\' x',
    'curl -d \'{"user":"bob","password":"[REDACTED:key]"}\' x',
  ],
  [
    'escaped json inside a string',
    'echo "{\\"secret\\": \\"abc\\"}"',
    'echo "{\\"secret\\": \\"[REDACTED:key]\\"}"',
  ],
  [
    'api key header',
    'curl -H "X-Api-Key: abc123" https://x',
    'curl -H "X-Api-Key: [REDACTED:key]" https://x',
  ],
  ['cookie header', "curl -H 'Cookie: sid=abc; theme=dark' x", "curl -H 'Cookie: [REDACTED:key]' x"],
  [
    'yaml password line',
    'db:\n  user: app\n  password: hunter2\n',
    'db:\n  user: app\n  password: [REDACTED:key]\n',
  ],
  // Not secrets: must come back untouched.
  ['git sha', `git checkout ${SHA}`, `git checkout ${SHA}`],
  ['uuid', `task ${UUID}`, `task ${UUID}`],
  [
    'long path',
    '/home/user/projects/some-really-long-name/src/components/ApprovalDrawer.tsx',
    '/home/user/projects/some-really-long-name/src/components/ApprovalDrawer.tsx',
  ],
  ['skeleton', 'render the skeleton loader', 'render the skeleton loader'],
  [
    'task id',
    'close task-123 and desk-lamp-0123456789abcdefghij',
    'close task-123 and desk-lamp-0123456789abcdefghij',
  ],
  [
    'sk- words without digits',
    'pip install sk-learn-model-selection-tutorial',
    'pip install sk-learn-model-selection-tutorial',
  ],
  [
    'env reference is not a secret',
    'curl -H "Authorization: Bearer $TOKEN" x',
    'curl -H "Authorization: Bearer $TOKEN" x',
  ],
  ['assignment of a reference', 'GITHUB_TOKEN=$GH_TOKEN gh pr list', 'GITHUB_TOKEN=$GH_TOKEN gh pr list'],
  [
    'non-secret assignments',
    'NODE_ENV=production PWD=/tmp KEYBOARD=us max_tokens=100 npm test',
    'NODE_ENV=production PWD=/tmp KEYBOARD=us max_tokens=100 npm test',
  ],
  [
    'non-secret flags',
    'git log --max-count 5 --key-file ./k.pem --keys 3',
    'git log --max-count 5 --key-file ./k.pem --keys 3',
  ],
  [
    'prose about bearer tokens',
    'Use Bearer authentication for the API',
    'Use Bearer authentication for the API',
  ],
  [
    'typescript type annotation',
    'interface A {\n  token: string;\n  apiKey: string,\n}',
    'interface A {\n  token: string;\n  apiKey: string,\n}',
  ],
  [
    'ssh url without password',
    'git clone ssh://git@github.com/o/r.git',
    'git clone ssh://git@github.com/o/r.git',
  ],
  ['url with a port', 'curl http://localhost:8080/path@v2', 'curl http://localhost:8080/path@v2'],
  ['empty string', '', ''],
];

describe('redactString', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    expect(redactString(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const [, input] of cases) {
      const once = redactString(input);
      expect(redactString(once)).toBe(once);
    }
  });
});

describe('isSecretName', () => {
  it.each([
    'token',
    'api_key',
    'apiKey',
    'APIKey',
    'apikey',
    'x-api-key',
    'OPENAI_API_KEY',
    'key',
    'private_key',
    'privateKey',
    'secret',
    'client_secret',
    'clientSecret',
    'password',
    'DB_PASSWORD',
    'passwd',
    'Authorization',
    'Proxy-Authorization',
    'cookie',
    'Set-Cookie',
    'credentials',
    'credential',
    'accessToken',
    'access_token',
    'GITHUB_TOKEN',
    'dbpassword',
    'aws_secret_access_key',
  ])('%s is secret', (name) => expect(isSecretName(name)).toBe(true));

  it.each([
    'keyboard',
    'monkey',
    'keys',
    'maxTokens',
    'max_tokens',
    'tokenCount',
    'PWD',
    'author',
    'path',
    'sessionId',
    'argsHash',
    'key_file',
    'passwordHint',
    'turkey',
    'hotkeys',
    '',
  ])('%s is not secret', (name) => expect(isSecretName(name)).toBe(false));
});

describe('redact', () => {
  it('redacts values under secret keys at any depth and leaves the rest', () => {
    const input = {
      command: 'ls',
      env: { API_KEY: 'abc', HOME: '/home/u', PWD: '/p' },
      headers: [{ Authorization: 'Bearer abcdefgh12345' }],
      nested: { credentials: { user: 'u', pass: 'p' }, keyboard: 'us', monkey: 1, keys: ['a'] },
      password: 1234,
      token: null,
      secret: '',
      apiKey: false,
    };
    expect(redact(input)).toEqual({
      command: 'ls',
      env: { API_KEY: '[REDACTED:key]', HOME: '/home/u', PWD: '/p' },
      headers: [{ Authorization: '[REDACTED:key]' }],
      nested: { credentials: '[REDACTED:key]', keyboard: 'us', monkey: 1, keys: ['a'] },
      password: '[REDACTED:key]',
      token: null,
      secret: '',
      apiKey: false,
    });
  });

  it('deep-copies without mutating the input', () => {
    const input = { a: { b: [`x ${GHP}`] } };
    const out = redact(input) as { a: { b: string[] } };
    expect(out.a.b[0]).toBe('x [REDACTED:github]');
    expect(input.a.b[0]).toBe(`x ${GHP}`);
    expect(out.a).not.toBe(input.a);
  });

  it('survives cycles, throwing getters, bigint, dates and errors', () => {
    const cyclic: Record<string, unknown> = { name: 'c' };
    cyclic.self = cyclic;
    const shared = { v: 1 };
    const throwing = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const out = redact({
      cyclic,
      pair: [shared, shared],
      throwing,
      big: 10n,
      when: new Date(0),
      err: new Error(`failed with ${OPENAI}`),
    });
    expect(out).toEqual({
      cyclic: { name: 'c', self: '[Circular]' },
      pair: [{ v: 1 }, { v: 1 }],
      throwing: '[Unreadable]',
      big: '10',
      when: '1970-01-01T00:00:00.000Z',
      err: 'Error: failed with [REDACTED:openai]',
    });
  });

  it('passes primitives through', () => {
    expect(redact(3)).toBe(3);
    expect(redact(undefined)).toBeUndefined();
    expect(redact(`Bearer ${JWT}`)).toBe('Bearer [REDACTED:bearer]');
  });
});

/**
 * The full walk, whatever `value` holds: a secret-named key beside it makes the record not clean, so
 * the whole record — `value` included — takes the walk that existed before the clean fast path.
 */
const fullWalk = (value: unknown, maxStringLength?: number): unknown =>
  (
    redact({ api_key: 'x', value }, maxStringLength === undefined ? {} : { maxStringLength }) as {
      value: unknown;
    }
  ).value;

/** Every object and array reachable from `value` (for identity checks). */
function objectsOf(value: unknown, out = new Set<object>()): Set<object> {
  if (value === null || typeof value !== 'object' || out.has(value)) return out;
  out.add(value);
  for (const item of Object.values(value)) objectsOf(item, out);
  return out;
}

describe('redact: the clean fast path', () => {
  const cyclic: Record<string, unknown> = { name: 'c' };
  cyclic.self = cyclic;
  let deep: Record<string, unknown> = { leaf: 'x' };
  for (let i = 0; i < 40; i++) deep = { next: deep };
  const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: 'two' });
  const protoKey = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
  const sparse: unknown[] = new Array(3);
  sparse[2] = 1;
  const arrayWithToJson = Object.assign(['a'], { toJSON: () => 'custom' });
  const throwing = Object.defineProperty({}, 'boom', {
    enumerable: true,
    get() {
      throw new Error('no');
    },
  });
  const values: [name: string, value: unknown][] = [
    [
      'an audit record',
      { ts: '2026-01-01T00:00:00.000Z', tool: 'read_file', args: { path: 'a.txt' }, durationMs: 1.5 },
    ],
    [
      'a tool event',
      { type: 'tool_finished', result: { status: 'executed', output: '1→a', data: { n: 1 } } },
    ],
    ['a secret string deep in an array', { a: [{ b: ['ok', `x ${GHP}`] }] }],
    ['a secret-named key', { env: { OPENAI_API_KEY: 'v', HOME: '/h' } }],
    ['a secret-named key holding nothing', { token: null, secret: '', apiKey: false, password: undefined }],
    ['a token as a key', { [GHP]: 1 }],
    ['a __proto__ key', protoKey],
    [
      'toJSON, Date, Map, Set, Error, buffer',
      {
        d: new Date(0),
        m: new Map([['k', 1]]),
        s: new Set([1]),
        e: new Error('e'),
        b: Buffer.from('x'),
        t: { toJSON: () => ({ t: GHP }) },
      },
    ],
    ['bigint, function, symbol', { n: 1n, f: () => 1, y: Symbol('s'), list: [() => 1, Symbol('s')] }],
    [
      'undefined, sparse arrays, odd numbers',
      { u: undefined, list: sparse, nan: Number.NaN, inf: -Infinity, zero: -0 },
    ],
    ['a cycle', cyclic],
    ['nesting past the limit', deep],
    ['a null-prototype object', nullProto],
    ['an array with its own toJSON', { list: arrayWithToJson }],
    ['a throwing getter', { throwing }],
    ['a long string', { text: 'y'.repeat(300) }],
    ['primitives', 'plain'],
    ['a secret primitive', `Bearer ${JWT}`],
    ['nothing', undefined],
  ];

  it.each(values)('redact and redactedJson agree with the full walk: %s', (_name, value) => {
    for (const max of [undefined, 100]) {
      const options = max === undefined ? {} : { maxStringLength: max };
      // Held one level down, as in fullWalk, so the depth limit falls at the same place.
      const held = { value };
      expect((redact(held, options) as typeof held).value).toStrictEqual(fullWalk(value, max));
      expect(redactedJson(held, options)).toBe(JSON.stringify({ value: fullWalk(value, max) }));
      const both = redactWithJson(held, options);
      expect((both.value as typeof held).value).toEqual(fullWalk(value, max));
      expect(both.json).toBe(JSON.stringify({ value: fullWalk(value, max) }));
    }
  });

  it('agrees with the full walk on generated records', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const strings = [
      'a.txt',
      'read_file',
      `x ${OPENAI}`,
      'id-123',
      '',
      'ünïcode ✓',
      'line\nbreak "q"',
      PEM,
      UUID,
    ];
    const keys = ['path', 'tool', 'token', 'apiKey', 'content', 'args', 'x-api-key', 'keyboard', '0'];
    const make = (depth: number): unknown => {
      const r = next();
      if (depth > 3 || r < 0.35) return strings[Math.floor(next() * strings.length)];
      if (r < 0.45) return next() < 0.5 ? Math.floor(next() * 1000) : next() < 0.5;
      if (r < 0.5) return null;
      if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1));
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i--)
        out[keys[Math.floor(next() * keys.length)] as string] = make(depth + 1);
      return out;
    };
    let clean = 0;
    for (let i = 0; i < 2000; i++) {
      const value = make(0);
      const full = fullWalk(value, 64);
      expect(redact(value, { maxStringLength: 64 })).toStrictEqual(full);
      expect(redactedJson(value, { maxStringLength: 64 })).toBe(JSON.stringify(full));
      const both = redactWithJson(value, { maxStringLength: 64 });
      expect(both.value).toEqual(full);
      expect(both.json).toBe(JSON.stringify(full));
      // Nothing to hide: the value itself, not a copy; something hidden: a copy, the input untouched.
      if (JSON.stringify(full) === JSON.stringify(value)) expect(both.value).toBe(value);
      else expect(both.value).not.toBe(value);
      if (JSON.stringify(full) === JSON.stringify(value)) clean++;
    }
    // Both kinds were generated: records with nothing to hide, and records with something.
    expect(clean).toBeGreaterThan(200);
    expect(clean).toBeLessThan(1800);
  });

  it('a clean record is copied whole: no object is shared, so the caller may change its own later', () => {
    const args = { path: 'a.txt', options: { lines: [1, 2] } };
    const record = { tool: 'read_file', args, list: [args.options] };
    const out = redact(record) as typeof record;
    expect(out).toStrictEqual(record);
    const theirs = objectsOf(record);
    for (const object of objectsOf(out)) expect(theirs.has(object)).toBe(false);
    args.path = `/etc/${GHP}`;
    args.options.lines.push(3);
    expect(out.args).toEqual({ path: 'a.txt', options: { lines: [1, 2] } });
    expect(out.list).toEqual([{ lines: [1, 2] }]);
  });
});
