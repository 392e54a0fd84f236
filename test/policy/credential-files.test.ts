import { describe, expect, it } from 'vitest';
import { credentialWord, isCredentialPath } from '../../src/policy/credential-files';

describe('credential files by name (issue 9 §4)', () => {
  it.each([
    '.env',
    '.env.local',
    'a/.env',
    '.ENV',
    'config/.env.production',
    'prod.env',
    '.envrc',
    'keys/id_rsa',
    'id_ed25519',
    'certs/server.pem',
    'tls/server.KEY',
    'AuthKey_ABC.p8',
    'store.p12',
    'app.jks',
    '.npmrc',
    '.pypirc',
    '.netrc',
    '.git-credentials',
    'config/credentials.json',
    '.aws/credentials',
    '.ssh/id_x',
    '.docker/config.json',
    'client_secret_1.json',
    'prod.tfvars',
    '/home/u/.kube/config',
  ])('%s is a credential file', (path) => {
    expect(isCredentialPath(path)).toBe(true);
  });

  it.each([
    '.env.example',
    '.env.sample',
    'id_rsa.pub',
    'src/env.ts',
    'environment.ts',
    'docs/keys.md',
    'keyboard.ts',
    'package.json',
    'a.pem.txt',
    '.ssh/known_hosts',
    '.ssh/config',
    'src',
    '.',
    '',
  ])('%s is not', (path) => {
    expect(isCredentialPath(path)).toBe(false);
  });

  it('finds a credential file among a command’s words, option values included', () => {
    expect(credentialWord(['cat', '.env'])).toBe('.env');
    expect(credentialWord(['curl', '--cert=certs/client.pem', 'https://x'])).toBe('certs/client.pem');
    expect(credentialWord(['ls', '-la', 'src'])).toBeUndefined();
  });
});

describe('remembered verdicts', () => {
  it('stay right across the memo filling and starting again, and for near-miss names asked in between', () => {
    const asked = ['.env', 'src/.env.local', 'src/env.ts', '.envrc', 'a/.env/', './.env', 'id_rsa.pub.txt'];
    const first = asked.map(isCredentialPath);
    // More distinct paths than the memo keeps: it starts again at least once.
    for (let i = 0; i < 10_000; i++) isCredentialPath(`src/file-${i}.ts`);
    expect(asked.map(isCredentialPath)).toEqual(first);
    expect(isCredentialPath('.env')).toBe(true);
    expect(isCredentialPath('src/env.ts')).toBe(false);
  });
});
