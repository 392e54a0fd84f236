import { describe, expect, it } from 'vitest';
import { isSecretVariable, scrubEnv } from '../../../src/tools/exec/env-scrub';
import { HeadTailBuffer } from '../../../src/tools/exec/output-cap';

describe('HeadTailBuffer', () => {
  it('keeps everything under the limit', () => {
    const b = new HeadTailBuffer(8192);
    b.push(Buffer.from('hello '));
    b.push(Buffer.from('world'));
    expect(b.text()).toBe('hello world');
    expect(b.cutBytes).toBe(0);
  });

  it('keeps head and tail and counts the cut bytes', () => {
    const b = new HeadTailBuffer(8192);
    const body = `${'H'.repeat(4096)}${'m'.repeat(50_000)}${'T'.repeat(4096)}`;
    for (let i = 0; i < body.length; i += 1000) b.push(Buffer.from(body.slice(i, i + 1000)));
    expect(b.totalBytes).toBe(58_192);
    expect(b.cutBytes).toBe(50_000);
    expect(b.text()).toBe(`${'H'.repeat(4096)}\n... [50000 bytes cut] ...\n${'T'.repeat(4096)}`);
  });
});

describe('scrubEnv', () => {
  it.each([
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'ANTHROPIC_API_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'NPM_TOKEN',
    'STRIPE_SECRET',
    'DB_PASSWORD',
    'MYSQL_PWD_PASSWORD',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_AUTH_SOCK',
    'SIGNING_KEY',
    'HF_TOKEN',
  ])('removes %s', (name) => {
    expect(isSecretVariable(name, 'x')).toBe(true);
  });

  it.each([
    'PATH',
    'HOME',
    'LANG',
    'TERM',
    'USER',
    'SHELL',
    'LC_ALL',
    'NODE_ENV',
    'KEYTIMEOUT',
    'EDITOR',
    'JAVA_HOME',
  ])('keeps %s', (name) => {
    expect(isSecretVariable(name, '/usr/bin')).toBe(false);
  });

  it('removes URLs that carry a password, whatever the name, and reports names only', () => {
    const { env, removed } = scrubEnv({
      PATH: '/bin',
      MY_DB: 'postgres://u:hunter2@db/x',
      SITE: 'https://example.com/a:b@c',
      API_TOKEN: 't',
    });
    expect(env).toEqual({ PATH: '/bin', SITE: 'https://example.com/a:b@c' });
    expect(removed).toEqual(['API_TOKEN', 'MY_DB']);
  });
});
