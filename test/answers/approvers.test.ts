/**
 * Registered approvers (`approvers/NAME.pub`) and answers signed with their keys: the registry is read
 * whole or not at all, and the answer box takes every answer for a request — this user's own first —
 * each checked against this user's key or a registered one; a key nobody registered signs nothing.
 */
import { generateKeyPairSync } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerBody, signAnswer } from '../../src/answers/answer';
import { loadApprovers } from '../../src/answers/approvers';
import { AnswerBox, answerFile, answersDir, resultFile } from '../../src/answers/inbox';
import { keyIdOf, loadOrCreateKey, publicPem, type SigningKey } from '../../src/answers/signing-key';
import type { ApprovalRequest } from '../../src/protocol';

let base: string;
let home: string;
let approvers: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'warden-approvers-'));
  home = join(base, 'home');
  approvers = join(base, 'approvers');
  mkdirSync(home);
  mkdirSync(approvers);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const NOW = Date.parse('2026-12-02T10:00:00Z');

function someKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}
const register = (name: string, key: SigningKey) =>
  writeFileSync(join(approvers, `${name}.pub`), publicPem(key));

describe('loadApprovers', () => {
  it('reads NAME.pub files by key id; other files are no keys; a missing folder has none', () => {
    const bob = someKey();
    register('bob', bob);
    writeFileSync(join(approvers, 'README.txt'), 'not a key');
    const found = loadApprovers([approvers, join(base, 'nowhere')]);
    expect([...found.keys()]).toEqual([bob.keyId]);
    expect(found.get(bob.keyId)).toMatchObject({ name: 'bob', file: join(approvers, 'bob.pub') });
  });

  it.each([
    ['garbage', 'not a key at all', 'not a PEM public key'],
    ['private', 'private', 'holds a private key'],
    ['rsa', 'rsa', "approvers' keys are Ed25519"],
    ['bad name!', 'ed', "an approver's name"],
  ])('refuses %s, naming the file', (name, kind, says) => {
    const text =
      kind === 'private'
        ? someKey().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
        : kind === 'rsa'
          ? generateKeyPairSync('rsa', { modulusLength: 1024 })
              .publicKey.export({ type: 'spki', format: 'pem' })
              .toString()
          : kind === 'ed'
            ? publicPem(someKey())
            : kind;
    writeFileSync(join(approvers, `${name}.pub`), text);
    expect(() => loadApprovers([approvers])).toThrow(join(approvers, `${name}.pub`));
    expect(() => loadApprovers([approvers])).toThrow(says);
  });
});

describe('the answer box with other keys', () => {
  const request = (): ApprovalRequest => ({
    id: 'req-1',
    agentId: 'main',
    agentName: 'main',
    taskId: 't',
    tool: 'write_file',
    args: { path: 'a.txt' },
    argsHash: 'h-args',
    risk: { level: 'medium', reasons: [] },
    rule: { id: 'default-ask', source: 'builtin' },
    explanation: '',
    preview: { kind: 'diff', path: 'a.txt', before: '', after: 'hi', isNew: true },
    reversible: true,
    createdAt: new Date(NOW - 1000).toISOString(),
    expiresAt: new Date(NOW + 60_000).toISOString(),
    grantOptions: [],
    preImageHash: 'h-file',
    policyDigest: 'h-policy',
    twoPerson: { approvedBy: [] },
  });
  const body = (issuedAt: number, user: string): AnswerBody => ({
    v: 1,
    requestId: 'req-1',
    sessionId: 'sess-1',
    argsHash: 'h-args',
    preImageHash: 'h-file',
    policyDigest: 'h-policy',
    decision: { kind: 'approve' },
    // What the signer says of themselves; warden's own fields in it are not taken at their word.
    by: { channel: 'cli', user, host: 'box', keyName: 'root', hook: 'forged' },
    issuedAt: new Date(issuedAt).toISOString(),
    validUntil: new Date(NOW + 60_000).toISOString(),
  });
  const box = (events: unknown[] = []) =>
    new AnswerBox({
      home,
      sessionId: 'sess-1',
      policyDigest: () => 'h-policy',
      emit: (e) => events.push(e),
      now: () => NOW,
      approvers: loadApprovers([approvers]),
    });
  const place = (name: string, answer: unknown) => {
    mkdirSync(answersDir(home), { recursive: true });
    writeFileSync(join(answersDir(home), name), JSON.stringify(answer));
  };

  it("takes this user's answer first, then a registered approver's, each naming who", () => {
    const own = loadOrCreateKey(home);
    const bob = someKey();
    register('bob', bob);
    // Bob's was given first, but the requester's own answer applies first.
    place(`req-1.${bob.keyId}.json`, signAnswer(body(NOW - 500, 'bob'), bob));
    place('req-1.json', signAnswer(body(NOW, 'alice'), own));
    const taken = box().take(request());
    expect(taken.map((t) => t.by)).toEqual([
      { channel: 'cli', user: 'alice', host: 'box', keyId: own.keyId },
      { channel: 'cli', user: 'bob', host: 'box', keyId: bob.keyId, keyName: 'bob' },
    ]);
    taken[0]?.done({ ok: true, waiting: true });
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1'), 'utf8'))).toMatchObject({
      ok: true,
      waiting: true,
    });
    taken[1]?.done({ ok: true });
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1', bob.keyId), 'utf8'))).toMatchObject({
      ok: true,
    });
    expect(existsSync(answerFile(home, 'req-1', bob.keyId))).toBe(false);
    expect(box().take(request())).toEqual([]);
  });

  it('an answer signed by a key nobody registered is refused, its result beside it', () => {
    const mallory = someKey();
    place(`req-1.${mallory.keyId}.json`, signAnswer(body(NOW, 'mallory'), mallory));
    expect(box().take(request())).toEqual([]);
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1', mallory.keyId), 'utf8'))).toMatchObject({
      ok: false,
      code: 'unsigned',
    });
  });

  it("a file named for one key and signed by another is refused; a refusal's code reaches the result", () => {
    const bob = someKey();
    const carol = someKey();
    register('bob', bob);
    register('carol', carol);
    place(`req-1.${bob.keyId}.json`, signAnswer(body(NOW, 'carol'), carol));
    expect(box().take(request())).toEqual([]);
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1', bob.keyId), 'utf8')).text).toContain(
      'names another key',
    );
    place(`req-1.${carol.keyId}.json`, signAnswer(body(NOW, 'carol'), carol));
    const [taken] = box().take(request());
    taken?.done({ ok: false, error: 'Not counted: same', code: 'same_identity' });
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1', carol.keyId), 'utf8'))).toMatchObject({
      ok: false,
      code: 'same_identity',
    });
  });

  it.skipIf(process.getuid?.() !== 0)(
    "another user's file counts only when a registered approver signed it",
    () => {
      const own = loadOrCreateKey(home);
      const bob = someKey();
      register('bob', bob);
      place('req-1.json', signAnswer(body(NOW, 'someone'), own));
      place(`req-1.${bob.keyId}.json`, signAnswer(body(NOW, 'bob'), bob));
      for (const name of ['req-1.json', `req-1.${bob.keyId}.json`])
        chownSync(join(answersDir(home), name), 4242, 4242);
      const taken = box().take(request());
      expect(taken.map((t) => t.by.keyName)).toEqual(['bob']);
      expect(JSON.parse(readFileSync(resultFile(home, 'req-1'), 'utf8'))).toMatchObject({
        ok: false,
        code: 'unsigned',
        text: "the file is another user's, and not signed by a registered approver's key",
      });
    },
  );
});
