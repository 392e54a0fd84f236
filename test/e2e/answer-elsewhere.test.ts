/**
 * Answers from elsewhere, through the real binary: a headless run parks on its card (exit 5), the
 * person answers from another terminal (`warden approve ID`), and `--resume SESSION` goes on: the
 * file lands and the audit names the approver and the channel. An answer that no longer fits the
 * world (the file changed, the policy changed, forged, unsigned) never runs anything.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeModel, headlessWarden, tempPlaces, useCleanup } from '../helpers/headless-run';
import { runWarden } from '../helpers/run-warden';

const later = useCleanup();

const writeA = [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] }];

/** The audit records of `home`, every day file, in order. */
function auditRecords(home: string): Record<string, unknown>[] {
  const dir = join(home, 'audit');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    );
}

/** Parks a run on the write of a.txt; returns the parked request and session ids. */
async function parkedRun(name: string, files: Record<string, string> = {}) {
  const at = tempPlaces(later, name, files);
  const server = await fakeModel(later, writeA);
  const run = await headlessWarden(at, server, ['--on-ask', 'park', '--json', '-p', 'write a.txt']);
  expect(run.code, run.stderr).toBe(5);
  const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
  expect(result).toMatchObject({ type: 'result', status: 'parked', exitCode: 5 });
  const requestId = result.parked[0].requestId as string;
  const sessionId = result.sessionId as string;
  return { at, server, requestId, sessionId };
}

describe('answers from elsewhere', () => {
  it('park → exit 5 → warden approve → --resume ID → the file lands, audited with who and how', async () => {
    const { at, server, requestId, sessionId } = await parkedRun('park');
    expect(existsSync(join(at.root, 'a.txt'))).toBe(false);
    const pending = await runWarden(['pending', '--json'], { WARDEN_HOME: at.home });
    expect(JSON.parse(pending.stdout.trim())).toMatchObject({ id: requestId, state: 'parked' });

    const approve = await runWarden(['approve', requestId.slice(0, 8)], { WARDEN_HOME: at.home });
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toContain('Approved');
    expect(approve.stdout).toContain(`--resume ${sessionId}`);

    const resumed = await headlessWarden(at, server, ['--resume', sessionId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('hi\n');
    const decided = auditRecords(at.home).filter(
      (r) => r.tool === 'write_file' && r.phase !== 'requested' && r.approver === 'human',
    );
    expect(decided.length).toBeGreaterThan(0);
    for (const r of decided)
      expect(r.decidedBy).toMatchObject({
        channel: 'cli',
        user: expect.any(String),
        keyId: expect.any(String),
      });
    expect(decided.at(-1)).toMatchObject({ outcome: 'executed', resumedFrom: requestId });
  });

  it('a parked run resumed with no answer parks again, and a rejection from elsewhere reaches the model', async () => {
    const { at, server, requestId, sessionId } = await parkedRun('park-again');
    const again = await headlessWarden(at, server, ['--resume', sessionId, '--on-ask', 'park']);
    expect(again.code, again.stderr).toBe(5);
    // Offered again after the restart, the call is a new card with an id of its own.
    const newId = /waiting for approval: (\S+)/.exec(again.stderr)?.[1] ?? '';
    expect(newId).not.toBe(requestId);
    const reject = await runWarden(['reject', newId, '--reason', 'not this file'], { WARDEN_HOME: at.home });
    expect(reject.code, reject.stderr).toBe(0);
    const resumed = await headlessWarden(at, server, ['--resume', sessionId]);
    expect(existsSync(join(at.root, 'a.txt'))).toBe(false);
    expect(resumed.code).toBe(3);
    const toModel = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(toModel).toContain('not this file');
  });

  it('an answer bound to a file that changed since never runs: the call parks again as a new card', async () => {
    const { at, server, requestId, sessionId } = await parkedRun('changed', { 'a.txt': 'old\n' });
    const approve = await runWarden(['approve', requestId], { WARDEN_HOME: at.home });
    expect(approve.code, approve.stderr).toBe(0);
    writeFileSync(join(at.root, 'a.txt'), 'changed by someone\n');
    const resumed = await headlessWarden(at, server, ['--resume', sessionId, '--on-ask', 'park']);
    expect(resumed.code, resumed.stderr).toBe(5);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('changed by someone\n');
  });

  it('a forged or unsigned answer file runs nothing', async () => {
    const { at, server, requestId, sessionId } = await parkedRun('forged');
    // The answer the model would write if it could reach $WARDEN_HOME: right fields, no valid signature.
    const approve = await runWarden(['approve', requestId], { WARDEN_HOME: at.home });
    expect(approve.code).toBe(0);
    const file = join(at.home, 'answers', `${requestId}.json`);
    const answer = JSON.parse(readFileSync(file, 'utf8'));
    answer.argsHash = answer.argsHash.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    writeFileSync(file, JSON.stringify(answer));
    const resumed = await headlessWarden(at, server, ['--resume', sessionId]);
    expect(existsSync(join(at.root, 'a.txt'))).toBe(false);
    expect(resumed.code).toBe(3);
    const result = JSON.parse(readFileSync(join(at.home, 'answers', `${requestId}.result.json`), 'utf8'));
    expect(result).toMatchObject({ ok: false, code: 'unsigned' });
  });

  it('bad use of the verbs is a clear error', async () => {
    const at = tempPlaces(later, 'verbs');
    const none = await runWarden(['approve', 'deadbeef'], { WARDEN_HOME: at.home });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no waiting request');
    const noReason = await runWarden(['reject', 'deadbeef'], { WARDEN_HOME: at.home });
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    const badFlag = await runWarden(['approve', 'deadbeef', '--yes'], { WARDEN_HOME: at.home });
    expect(badFlag.code).toBe(2);
  });
});
