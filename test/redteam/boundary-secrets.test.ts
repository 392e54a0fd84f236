/**
 * Red team, issue 26 §2: secrets are masked by the sandbox, not recognised by the parser. In manual
 * mode `.env` reached the model through an input redirect, a glob, a `..` path, a recursive grep or a
 * link the clone ships, and credential names were missed (`.env-production`, `id_rsa.bak`,
 * `terraform.tfstate`, `serviceAccountKey.json`). Inside the sandbox every credential file of the
 * project — by name or by content — now reads as empty, whatever the command's text; a card a person
 * approved that names one shows exactly that one for that run.
 */
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Boundary, bwrap, MARK, makeBoundary } from './boundary-harness';

const SECRET_FILES: Record<string, string> = {
  '.env': `API_KEY=${MARK}\n`,
  '.env-production': `K=${MARK}\n`,
  '.env.local': `K=${MARK}\n`,
  '.env~': `K=${MARK}\n`,
  'config/.env.staging.bak': `K=${MARK}\n`,
  'keys/id_rsa.bak': `${MARK}\n`,
  'keys/deploy_ed25519': `${MARK}\n`,
  'infra/terraform.tfstate': `{"secret":"${MARK}"}\n`,
  'infra/terraform.tfstate.backup': `{"secret":"${MARK}"}\n`,
  'infra/prod.tfvars': `token = "${MARK}"\n`,
  'serviceAccountKey.json': `{"k":"${MARK}"}\n`,
  'gcp/service-account-prod.json': `{"k":"${MARK}"}\n`,
  'certs/server.pem': `${MARK}\n`,
  'certs/server.key': `${MARK}\n`,
  'store.p12': `${MARK}\n`,
  '.npmrc': `//r/:_authToken=${MARK}\n`,
  '.pypirc': `password = ${MARK}\n`,
  '.git-credentials': `https://u:${MARK}@github.com\n`,
  'notes.txt': `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARK}\n-----END OPENSSH PRIVATE KEY-----\n`,
  'deploy/settings.json': `{"type": "service_account", "private_key_id": "${MARK}", "private_key": "x"}\n`,
  'aws.conf': `[default]\naws_secret_access_key = ${MARK}\n`,
  'registry.cfg': `//registry.example.com/:_authToken=${MARK}\n`,
};

const READS: [string, string][] = [
  ['cat', 'cat .env'],
  ['an input redirect', 'while read l; do echo "$l"; done < .env'],
  ['a glob', 'cat .e*'],
  ['a .. path', 'cat config/../.env'],
  ['a recursive grep', `grep -r ${MARK.slice(0, 12)} .`],
  ['find -exec cat', 'find . -type f -exec cat {} +'],
  ['a tar of the project', 'tar -cf - . | strings'],
  ['base64', 'base64 .env | base64 -d'],
  ['python', 'python3 -c "print(open(\'.env\').read())"'],
  ['node', "node -e \"console.log(require('fs').readFileSync('.env','utf8'))\""],
  ['a copy into /tmp', 'cp .env /tmp/e && cat /tmp/e'],
  ['dd', 'dd if=.env 2>/dev/null'],
  ['sed', 'sed -n p .env'],
  ['every name at once', `cat ${Object.keys(SECRET_FILES).join(' ')}`],
  ['a link made in the run', 'ln -s .env x.txt && cat x.txt'],
  ['a hard link made in the run', 'ln .env hard.txt 2>&1; cat hard.txt'],
  ['moving the mask away', 'mv .env moved 2>&1; cat moved .env'],
  ['unmounting it', 'umount .env 2>&1; cat .env'],
  ['reading it through /proc', 'cat /proc/self/root$PWD/.env'],
];

describe.skipIf(!bwrap)('credential files are masked inside the sandbox', () => {
  let b: Boundary;
  beforeAll(() => {
    b = makeBoundary();
    for (const [rel, content] of Object.entries(SECRET_FILES)) b.write(rel, content);
    symlinkSync('.env', join(b.root, 'shipped-link'));
    b.write('src/app.ts', 'export const ok = 1;\n');
    b.write('.env.example', 'API_KEY=\n');
    b.write('keys/id_rsa.pub', 'ssh-ed25519 AAAA public\n');
  });
  afterAll(() => b.cleanup());

  it.each(READS)('%s: no secret in the output', async (_name, command) => {
    const r = await b.run(command);
    expect(r.text).not.toContain(MARK);
  });

  it.each(Object.keys(SECRET_FILES))('%s reads as empty', async (rel) => {
    const r = await b.run(`wc -c < '${rel}'`);
    expect(r.text).toMatch(/^0\n/);
  });

  it('a link the clone ships leads to the mask', async () => {
    const r = await b.run('cat shipped-link; echo end');
    expect(r.text).toMatch(/^end/);
  });

  it('writing a masked file fails and the host file is unchanged', async () => {
    const r = await b.run('echo X=1 >> .env 2>&1; echo > notes.txt 2>&1');
    expect(r.text).toMatch(/Read-only file system/);
    expect(readFileSync(join(b.root, '.env'), 'utf8')).toBe(SECRET_FILES['.env']);
  });

  it('the result names the masked files the command named', async () => {
    const r = await b.run('cat .env notes.txt');
    expect(r.text).toContain('.env, notes.txt are credential files, masked in the sandbox');
  });

  it('an approved card that names .env shows exactly .env, for that run only', async () => {
    const approved = await b.run('cat .env .env.local', { unmask: ['.env'] });
    expect(approved.text).toContain(`API_KEY=${MARK}`);
    expect(approved.text.match(new RegExp(MARK, 'g'))?.length).toBe(1);
    const next = await b.run('cat .env');
    expect(next.text).not.toContain(MARK);
  });

  it.each([
    ['.env.example', 'API_KEY='],
    ['keys/id_rsa.pub', 'public'],
    ['src/app.ts', 'export const ok'],
  ])('twin: %s reads as it is', async (rel, expected) => {
    const r = await b.run(`cat ${rel}`);
    expect(r.text).toContain(expected);
  });
});
