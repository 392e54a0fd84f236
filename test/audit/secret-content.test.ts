/** Credential-file content, whatever the file is called (the predicate issue 26's content check can reuse). */
import { describe, expect, it } from 'vitest';
import { holdsCredentialContent, holdsPrivateKey } from '../../src/audit/secret-content';

const PEM = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');

describe('holdsCredentialContent', () => {
  it.each([
    ['a PEM private key', `notes\n${PEM}\n`],
    [
      'a base64-wrapped PEM key (kubeconfig client-key-data)',
      `client-key-data: ${Buffer.from(PEM).toString('base64')}`,
    ],
    ['an npm token line', '//registry.npmjs.org/:_authToken=npm_Zq8Lw2Vn6Tb1Kw9Rm4Hp7Yc2Xs5Jd3Fg0Qa'],
    [
      'AWS credentials',
      '[default]\naws_access_key_id = AKIAZ7Q4R2M8N6P3L5K1\naws_secret_access_key = Wq8Lz2Vn6Tb1Kw9Rm4Hp7Yc2Xs5Jd3Fg0QaBn1Mc\n',
    ],
    [
      'a GCP service-account key',
      '{"type": "service_account", "project_id": "p", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n"}',
    ],
  ])('%s', (_, text) => {
    expect(holdsCredentialContent(text)).toBe(true);
  });

  it.each([
    ['a public key', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----'],
    ['an .npmrc without a token', 'registry=https://registry.npmjs.org/\nsave-exact=true\n'],
    ['AWS config without a secret', '[profile dev]\nregion = eu-west-1\noutput = json\n'],
    [
      'a service-account reference without a key',
      '{"type": "service_account", "client_email": "ci@p.iam.gserviceaccount.com"}',
    ],
    [
      'source that mentions keys',
      'const keyName = "private_key"; // read aws_secret_access_key from the env\n',
    ],
  ])('not %s', (_, text) => {
    expect(holdsCredentialContent(text)).toBe(false);
  });

  it('tells a private key apart from base64 that is not one', () => {
    expect(holdsPrivateKey(Buffer.from(PEM).toString('base64'))).toBe(true);
    expect(holdsPrivateKey(Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB').toString('base64'))).toBe(false);
  });
});
