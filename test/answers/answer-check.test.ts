import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnswerBody, parseAnswer, signAnswer } from '../../src/answers/answer';
import { answerRefusal, decisionOf } from '../../src/answers/answer-check';
import { AnswerBox, answerFile, answersDir, resultFile } from '../../src/answers/inbox';
import { loadOrCreateKey, readKey } from '../../src/answers/signing-key';
import type { ApprovalRequest } from '../../src/protocol';

const home = mkdtempSync(join(tmpdir(), 'warden-answer-check-'));
const other = mkdtempSync(join(tmpdir(), 'warden-answer-other-'));
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(other, { recursive: true, force: true });
});

const NOW = Date.parse('2026-12-02T10:00:00Z');

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'req-1',
  agentId: 'main',
  agentName: 'main',
  taskId: 't',
  tool: 'write_file',
  args: { path: 'a.txt', content: 'hi' },
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
  ...over,
});

const body = (over: Partial<AnswerBody> = {}): AnswerBody => ({
  v: 1,
  requestId: 'req-1',
  sessionId: 'sess-1',
  argsHash: 'h-args',
  preImageHash: 'h-file',
  policyDigest: 'h-policy',
  decision: { kind: 'approve' },
  by: { channel: 'cli', user: 'ana', host: 'box' },
  issuedAt: new Date(NOW).toISOString(),
  validUntil: new Date(NOW + 60_000).toISOString(),
  ...over,
});

const key = loadOrCreateKey(home);
const world = { sessionId: 'sess-1', policyDigest: 'h-policy', nowMs: NOW, key };

describe('answerRefusal', () => {
  it('applies an answer bound to exactly what waits', () => {
    expect(answerRefusal(signAnswer(body(), key), request(), world)).toBeUndefined();
  });

  it('applies to the request offered again after a restart (its old id)', () => {
    const resumed = request({ id: 'req-2', resumedFrom: { requestId: 'req-1' } });
    expect(answerRefusal(signAnswer(body(), key), resumed, world)).toBeUndefined();
  });

  it.each([
    ['unsigned', () => ({ ...signAnswer(body(), key), sig: '' }), request()],
    ['unsigned', () => ({ ...signAnswer(body(), key), argsHash: 'h-other' }), request()],
    ['unsigned', () => signAnswer(body(), loadOrCreateKey(other)), request()],
    ['other_session', () => signAnswer(body({ sessionId: 'sess-2' }), key), request()],
    ['other_request', () => signAnswer(body({ requestId: 'req-9' }), key), request()],
    ['args_changed', () => signAnswer(body({ argsHash: 'h-other' }), key), request()],
    ['file_changed', () => signAnswer(body({ preImageHash: 'h-old' }), key), request()],
    [
      'file_changed',
      () => signAnswer(body(), key),
      request({ id: 'req-2', resumedFrom: { requestId: 'req-1', fileChanged: true } }),
    ],
    ['policy_changed', () => signAnswer(body({ policyDigest: 'h-loose' }), key), request()],
    ['policy_changed', () => signAnswer({ ...body(), policyDigest: undefined }, key), request()],
    ['expired', () => signAnswer(body({ validUntil: new Date(NOW - 1).toISOString() }), key), request()],
    ['expired', () => signAnswer(body(), key), request({ expiresAt: new Date(NOW - 1).toISOString() })],
    ['high_unconfirmed', () => signAnswer(body(), key), request({ risk: { level: 'high', reasons: [] } })],
  ])('refuses %s', (code, answer, req) => {
    expect(answerRefusal(answer(), req, world)?.code).toBe(code);
  });

  it('a high-risk approve with its confirmation applies', () => {
    const high = request({ risk: { level: 'high', reasons: [] } });
    const answer = signAnswer(body({ decision: { kind: 'approve', confirmHigh: true } }), key);
    expect(answerRefusal(answer, high, world)).toBeUndefined();
    expect(decisionOf(answer)).toEqual({ kind: 'approve', confirmHigh: true });
  });

  it('with no key on this machine nothing is signed', () => {
    expect(answerRefusal(signAnswer(body(), key), request(), { ...world, key: undefined })?.code).toBe(
      'unsigned',
    );
  });
});

describe('parseAnswer', () => {
  it.each([
    ['not json', 'not JSON'],
    ['[]', 'not a JSON object'],
    [JSON.stringify({ ...signAnswer(body(), key), v: 2 }), 'unknown version'],
    [JSON.stringify({ ...signAnswer(body(), key), decision: { kind: 'approve_all' } }), 'no decision'],
    [
      JSON.stringify({ ...signAnswer(body(), key), decision: { kind: 'reject', reason: ' ' } }),
      'no decision',
    ],
    [JSON.stringify({ ...signAnswer(body(), key), by: { channel: 'hook' } }), 'who gave it'],
    [JSON.stringify({ ...signAnswer(body(), key), sessionId: 7 }), 'no sessionId'],
  ])('refuses %s', (text, error) => {
    const parsed = parseAnswer(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(error);
  });

  it('reads a signed answer back', () => {
    const parsed = parseAnswer(JSON.stringify(signAnswer(body(), key)));
    expect(parsed.ok).toBe(true);
  });
});

describe('the answer key', () => {
  it('is made once and read back the same (0600)', () => {
    const again = loadOrCreateKey(home);
    expect(again.keyId).toBe(key.keyId);
    expect(readKey(home)?.keyId).toBe(key.keyId);
  });
});

describe('AnswerBox: what it takes as an answer file', () => {
  const box = (events: unknown[]) =>
    new AnswerBox({
      home,
      sessionId: 'sess-1',
      policyDigest: () => 'h-policy',
      emit: (e) => events.push(e),
      now: () => NOW,
    });
  const place = (id: string, text: string) => {
    mkdirSync(answersDir(home), { recursive: true });
    writeFileSync(answerFile(home, id), text);
  };

  it('takes a signed answer once, and says so in the result file', () => {
    place('req-1', JSON.stringify(signAnswer(body(), key)));
    const [taken, more] = box([]).take(request());
    expect(more).toBeUndefined();
    expect(taken?.decision).toEqual({ kind: 'approve' });
    taken?.done({ ok: true });
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1'), 'utf8'))).toMatchObject({
      ok: true,
      appliedTo: 'req-1',
    });
    expect(box([]).take(request())).toEqual([]);
  });

  it('a symlink in place of the answer file is refused, not followed', () => {
    const real = join(home, 'elsewhere.json');
    writeFileSync(real, JSON.stringify(signAnswer(body(), key)));
    mkdirSync(answersDir(home), { recursive: true });
    symlinkSync(real, answerFile(home, 'req-1'));
    expect(box([]).take(request())).toEqual([]);
    expect(JSON.parse(readFileSync(resultFile(home, 'req-1'), 'utf8'))).toMatchObject({
      ok: false,
      code: 'unsigned',
    });
  });

  it('a file larger than an answer is refused unread', () => {
    place('req-1', 'x'.repeat(64 * 1024));
    expect(box([]).take(request())).toEqual([]);
  });

  it("another session's answer is left for its own warden", () => {
    place('req-1', JSON.stringify(signAnswer(body({ sessionId: 'sess-2' }), key)));
    expect(box([]).take(request())).toEqual([]);
    expect(existsSync(answerFile(home, 'req-1'))).toBe(true);
    rmSync(answerFile(home, 'req-1'));
  });
});
