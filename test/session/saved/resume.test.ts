import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, lastToolMessage, startFakeOpenAI } from '../../helpers/fake-openai';
import { type Opened, type Places, openSession, places, snapshotHome } from '../../helpers/resume-harness';
import { latestSession, listSessions, sessionFile } from '../../../src/session/saved/store-index';
import { auditLines } from '../../helpers/audit-lines';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function setup(): Promise<{ at: Places; fake: FakeOpenAI }> {
  const at = places();
  const fake = await startFakeOpenAI([]);
  cleanup.push(
    () => at.dispose(),
    () => fake.close(),
  );
  return { at, fake };
}

async function open(at: { root: string; home: string }, fake: FakeOpenAI, extra = {}): Promise<Opened> {
  const s = await openSession(at, fake, extra);
  cleanup.push(() => s.close());
  return s;
}

const write = (path: string, content: string, id = 'call_w1') => ({
  text: `I will write ${path}.`,
  toolCalls: [{ name: 'write_file', args: { path, content }, id }],
});
const toolResult = (fake: FakeOpenAI, i: number) =>
  JSON.parse(
    lastToolMessage(fake.requests[i] as NonNullable<(typeof fake.requests)[number]>)?.content ?? '{}',
  );

/** Session A asks to write `a.txt` and waits; the disk as it is then is what a kill -9 leaves. */
async function crashWhilePending(at: Places, fake: FakeOpenAI, extra = {}) {
  writeFileSync(join(at.root, 'a.txt'), 'old\n');
  fake.push(write('a.txt', 'new\n'));
  const a = await open(at, fake, extra);
  void a.session.run('change a.txt');
  const request = await a.nextRequest();
  const id = a.session.client.snapshot().sessionId;
  const crashed = await snapshotHome(at.home);
  cleanup.push(() => rmSync(crashed, { recursive: true, force: true }));
  await a.close();
  return { request, id, home: crashed };
}

describe('sessions on disk', () => {
  it('resume after a normal exit: the model gets the old conversation and the transcript shows it', async () => {
    const { at, fake } = await setup();
    fake.push({ text: 'Hello! I am ready.' });
    const a = await open(at, fake);
    await a.session.run('remember the word kiwi');
    await a.close();
    const saved = latestSession(at.home, at.root);
    expect(saved).toMatchObject({ title: 'remember the word kiwi', turns: 1, model: 'fake-model' });
    fake.push({ text: 'The word was kiwi.' });
    const b = await open(at, fake, { resume: saved?.id });
    const snap = b.session.client.snapshot();
    expect(snap.sessionId).toBe(saved?.id);
    expect(
      snap.transcript.map((e) => (e.kind === 'user' || e.kind === 'assistant' ? e.text : e.kind)),
    ).toEqual(expect.arrayContaining(['remember the word kiwi', 'Hello! I am ready.']));
    expect(
      snap.transcript.some((e) => e.kind === 'notice' && /Grants .* are not restored/.test(e.text)),
    ).toBe(true);
    expect(await b.session.run('which word?')).toMatchObject({ status: 'done', text: 'The word was kiwi.' });
    const messages = fake.requests[1]?.body.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]).toMatchObject({ content: 'remember the word kiwi' });
    await b.close();
    expect(latestSession(at.home, at.root)?.turns).toBe(2);
  });

  it('a saved mode that asks as much or more comes back; a second project does not see the session', async () => {
    const { at, fake } = await setup();
    fake.push({ text: 'ok' });
    const a = await open(at, fake);
    a.session.client.send({ type: 'set_mode', mode: 'plan' });
    await a.session.run('hi');
    await a.close();
    const id = latestSession(at.home, at.root)?.id;
    const b = await open(at, fake, { resume: id });
    expect(b.session.client.snapshot().mode).toBe('plan');
    expect(listSessions(at.home, '/elsewhere')).toEqual([]);
  });

  it.each(['auto-edit', 'auto'] as const)(
    'a saved %s, looser than this start, is not taken back: the person chooses it again (red team: it may have come from a project trusted then, not now)',
    async (saved) => {
      const { at, fake } = await setup();
      fake.push({ text: 'ok' });
      const a = await open(at, fake);
      a.session.client.send({ type: 'set_mode', mode: saved });
      await a.session.run('hi');
      await a.close();
      const id = latestSession(at.home, at.root)?.id;
      const b = await open(at, fake, { resume: id });
      const snap = b.session.client.snapshot();
      expect(snap.mode).toBe('manual');
      const said = new RegExp(`the mode is manual: the session was in ${saved}, which asks less`);
      expect(snap.transcript.some((e) => e.kind === 'notice' && said.test(e.text))).toBe(true);
    },
  );
  it.each([
    [
      '--mode manual wins over a saved auto',
      'auto',
      'manual',
      /the mode is manual as --mode said \(it was auto\)/,
    ],
    [
      '--mode auto-edit over a saved plan',
      'plan',
      'auto-edit',
      /the mode is auto-edit as --mode said \(it was plan\)/,
    ],
  ] as const)(
    '%s: a mode named on the command line is kept, and the notice says so',
    async (_l, saved, flag, notice) => {
      const { at, fake } = await setup();
      fake.push({ text: 'ok' });
      const a = await open(at, fake);
      a.session.client.send({ type: 'set_mode', mode: saved });
      await a.session.run('hi');
      await a.close();
      const id = latestSession(at.home, at.root)?.id;
      const b = await open(at, fake, { resume: id, mode: flag, modeFromFlag: true });
      const snap = b.session.client.snapshot();
      expect(snap.mode).toBe(flag);
      expect(snap.transcript.some((e) => e.kind === 'notice' && notice.test(e.text))).toBe(true);
    },
  );
});

describe('a request pending when warden stopped', () => {
  it('is offered again marked from before the restart; approved, it runs and the model goes on', async () => {
    const { at, fake } = await setup();
    const { request, id, home } = await crashWhilePending(at, fake);
    fake.push({ text: 'Written.' });
    const b = await open({ root: at.root, home }, fake, { resume: id });
    const turn = b.session.resumeTurn();
    const again = await b.nextRequest();
    expect(again.resumedFrom).toEqual({ requestId: request.id });
    expect(again.createdAt).toBe(request.createdAt);
    expect(again.callId).toBe('call_w1');
    expect(again.preview).toMatchObject({ kind: 'diff', before: 'old\n', after: 'new\n' });
    b.session.client.send({ type: 'decide', id: again.id, decision: { kind: 'approve' } });
    expect(await turn).toMatchObject({ status: 'done', text: 'Written.' });
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('new\n');
    // The model's next request carries the result under the original tool_call id.
    const last = fake.requests.at(-1)?.body.messages ?? [];
    expect(last.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w1' });
    expect(toolResult(fake, fake.requests.length - 1)).toMatchObject({ status: 'executed' });
    const lines = auditLines(home).filter((r) => r.resumedFrom === request.id);
    expect(lines.map((r) => r.phase)).toEqual(['requested', 'decision', 'outcome']);
    expect(lines.at(-1)).toMatchObject({ outcome: 'executed', approver: 'human' });
  });

  it('the file changed in between: a new diff, marked as changed; the old content is never the base', async () => {
    const { at, fake } = await setup();
    const { id, home } = await crashWhilePending(at, fake);
    writeFileSync(join(at.root, 'a.txt'), 'edited by the person\n');
    const b = await open({ root: at.root, home }, fake, { resume: id });
    void b.session.resumeTurn();
    const again = await b.nextRequest();
    expect(again.resumedFrom).toMatchObject({ fileChanged: true });
    expect(again.preview).toMatchObject({ kind: 'diff', before: 'edited by the person\n', after: 'new\n' });
    b.session.client.send({
      type: 'decide',
      id: again.id,
      decision: { kind: 'reject', reason: 'keep mine' },
    });
    await b.until((e) => e.type === 'tool_finished');
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('edited by the person\n');
  });

  it.each([
    [
      'expired: approvalTimeoutSec counts from the first ask',
      { approvalTimeoutSec: 0.001 },
      'timeout',
      /^expired:/,
    ],
    ['the policy now denies it', { mode: 'plan' }, 'blocked', /./],
  ])('%s → fails closed, audited, linked to the original request', async (_name, extra, status, reason) => {
    const { at, fake } = await setup();
    const { request, id, home } = await crashWhilePending(at, fake);
    fake.push({ text: 'Understood.' });
    const b = await open({ root: at.root, home }, fake, { resume: id, ...extra });
    // The mode saved with the session is restored; a test of "policy now" switches it after the resume.
    if ('mode' in extra) b.session.client.send({ type: 'set_mode', mode: 'plan' });
    const done = await b.session.resumeTurn();
    expect(done?.status).toBe('done');
    expect(b.session.client.snapshot().pending).toEqual([]);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('old\n');
    const result = toolResult(fake, fake.requests.length - 1);
    expect(result.status).toBe(status);
    expect(result.reason).toMatch(reason);
    const outcome = auditLines(home).find((r) => r.resumedFrom === request.id && r.phase === 'outcome');
    expect(outcome).toMatchObject({ outcome: status });
  });

  it('arguments that no longer hash the same (a secret redacted on disk) never run', async () => {
    const { at, fake } = await setup();
    writeFileSync(join(at.root, 'a.txt'), 'old\n');
    fake.push(write('a.txt', 'key = AKIAZQ3VW8RT5YX2NV7L\n'));
    const a = await open(at, fake);
    void a.session.run('put the key in');
    await a.nextRequest();
    const id = a.session.client.snapshot().sessionId;
    const home = await snapshotHome(at.home);
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    await a.close();
    expect(readFileSync(sessionFile(home, id), 'utf8')).not.toContain('AKIAZQ3VW8RT5YX2NV7L');
    fake.push({ text: 'ok' });
    const b = await open({ root: at.root, home }, fake, { resume: id });
    await b.session.resumeTurn();
    expect(toolResult(fake, fake.requests.length - 1).reason).toMatch(/^resume_mismatch/);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('old\n');
  });

  it('a call that had been approved and was running is reported interrupted, never run again', async () => {
    const { at, fake } = await setup();
    fake.push(write('a.txt', 'new\n'));
    const a = await open(at, fake);
    void a.session.run('write');
    const request = await a.nextRequest();
    a.session.client.send({ type: 'decide', id: request.id, decision: { kind: 'approve' } });
    await a.until((e) => e.type === 'tool_finished');
    const id = a.session.client.snapshot().sessionId;
    const home = await snapshotHome(at.home);
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    await a.close();
    // Cut the file back to before the result: as if warden died while the write ran.
    const path = sessionFile(home, id);
    const lines = readFileSync(path, 'utf8').split('\n');
    const cut = lines.findIndex((l) => l.includes('"tool_finished"'));
    writeFileSync(path, `${lines.slice(0, cut).join('\n')}\n`);
    rmSync(join(at.root, 'a.txt'));
    fake.push({ text: 'I will check.' });
    const b = await open({ root: at.root, home }, fake, { resume: id });
    await b.session.resumeTurn();
    expect(toolResult(fake, fake.requests.length - 1).reason).toMatch(/^interrupted/);
    expect(existsSync(join(at.root, 'a.txt'))).toBe(false);
  });
});
