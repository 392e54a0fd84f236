/**
 * Checkpoints and the turn review through the real session (real gate, tools, sandboxed command, audit)
 * with the fake model server: a turn whose command creates, modifies and deletes files and whose
 * write_file changes another is listed whole in `turn_changes` and the review; /undo restores it, also
 * from a new session over the same WARDEN_HOME (a restart); `review_turn` keeps, or reverts chosen
 * files through the gate (a revert_turn card, audited); without git the session says so.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../src/llm/openai-client';
import type { ApprovalRequest, CoreEvent } from '../../src/protocol';
import { runHeadless } from '../../src/session/headless';
import { type Session, createSession } from '../../src/session/session';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from '../helpers/fake-openai';
import { auditDayFiles } from '../helpers/audit-lines';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function dirs(files: Record<string, string>) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-undo-proj-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'warden-undo-home-')));
  for (const [p, c] of Object.entries(files)) writeFileSync(join(root, p), c);
  cleanup.push(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  return { root, home };
}

type Running = { session: Session; events: CoreEvent[]; fake: FakeOpenAI; next(): Promise<ApprovalRequest> };

async function open(
  root: string,
  home: string,
  script: FakeStep[],
  extra: { reviewTurns?: boolean; checkpointGit?: null; mode?: 'auto-edit'; approver?: false } = {},
): Promise<Running> {
  const fake = await startFakeOpenAI(script);
  const session = await createSession({
    root,
    home,
    model: createOpenAIClient({
      baseUrl: fake.url,
      apiKey: 'test',
      model: 'fake-model',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    }),
    mode: extra.mode ?? 'manual',
    approvalTimeoutSec: 60,
    sandbox: 'auto',
    maxStepsPerTurn: 20,
    contextWindowTokens: 100_000,
    ...(extra.reviewTurns !== undefined ? { reviewTurns: extra.reviewTurns } : {}),
    ...(extra.checkpointGit !== undefined ? { checkpointGit: extra.checkpointGit } : {}),
  });
  const detach = extra.approver === false ? () => undefined : session.attachApprover();
  cleanup.push(async () => {
    detach();
    await session.close();
    await fake.close();
  });
  const events: CoreEvent[] = [];
  const waiters: (() => void)[] = [];
  session.client.subscribe((e) => {
    events.push(e);
    for (const w of waiters.splice(0)) w();
  });
  const seen = new Set<string>();
  const next = () =>
    new Promise<ApprovalRequest>((resolve) => {
      const check = () => {
        const r = session.client.snapshot().pending.find((x) => !seen.has(x.id));
        if (r) {
          seen.add(r.id);
          resolve(r);
        } else waiters.push(check);
      };
      check();
    });
  return { session, events, fake, next };
}

/** Resolves with the first event of `type` (already seen ones count). */
function eventOf<T extends CoreEvent['type']>(r: Running, type: T): Promise<Extract<CoreEvent, { type: T }>> {
  return new Promise((resolve) => {
    const check = () => {
      const found = r.events.find((e) => e.type === type);
      if (found) resolve(found as Extract<CoreEvent, { type: T }>);
      else setImmediate(check);
    };
    check();
  });
}

const COMMAND = 'echo new > mod.txt && rm gone.txt && mkdir out && echo made > out/made.txt';
const changeTurn: FakeStep[] = [
  { toolCalls: [{ name: 'execute_command', args: { command: COMMAND } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'w.txt', content: 'written\n' } }] },
  { text: 'done' },
];
const FILES = { 'mod.txt': 'old\n', 'gone.txt': 'bye\n', 'w.txt': 'before\n', 'keep.txt': 'same\n' };

async function runChangeTurn(r: Running): Promise<void> {
  const run = r.session.run('change things');
  for (let i = 0; i < 2; i++)
    r.session.client.send({
      type: 'decide',
      id: (await r.next()).id,
      decision: { kind: 'approve', confirmHigh: true },
    });
  await run;
}

function expectOriginal(root: string): void {
  expect(readFileSync(join(root, 'mod.txt'), 'utf8')).toBe('old\n');
  expect(readFileSync(join(root, 'gone.txt'), 'utf8')).toBe('bye\n');
  expect(readFileSync(join(root, 'w.txt'), 'utf8')).toBe('before\n');
  expect(existsSync(join(root, 'out', 'made.txt'))).toBe(false);
  expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('same\n');
}

async function undo(r: Running): Promise<ApprovalRequest> {
  r.session.client.send({ type: 'undo', turns: 1 });
  const card = await r.next();
  r.session.client.send({ type: 'decide', id: card.id, decision: { kind: 'approve', confirmHigh: true } });
  await new Promise<void>((resolve) => {
    const check = () =>
      r.events.some((e) => e.type === 'notice' && /Reverted|Undo/.test(e.text))
        ? resolve()
        : setImmediate(check);
    check();
  });
  return card;
}

describe('checkpoints and the turn review through the session', () => {
  it('/undo with nothing to undo says so at once and opens no card (issue 33); right after a turn that changed files it finds that turn', async () => {
    const { root, home } = dirs(FILES);
    const r = await open(root, home, changeTurn, { reviewTurns: false });
    r.session.client.send({ type: 'undo', turns: 1 });
    await new Promise<void>((resolve) => {
      const check = () =>
        r.events.some((e) => e.type === 'notice' && /Nothing to undo/.test(e.text))
          ? resolve()
          : setImmediate(check);
      check();
    });
    expect(r.session.client.snapshot().pending).toEqual([]);
    expect(r.events.some((e) => e.type === 'approval_requested')).toBe(false);
    await runChangeTurn(r);
    const card = await undo(r);
    expect(card.tool).toBe('revert_turn');
    expectOriginal(root);
  });

  it("a command's and a write's changes: listed in turn_changes and the review; keep closes it; /undo restores all of them", async () => {
    const { root, home } = dirs(FILES);
    const r = await open(root, home, changeTurn);
    await runChangeTurn(r);
    expect(readFileSync(join(root, 'mod.txt'), 'utf8')).toBe('new\n');
    const changes = await eventOf(r, 'turn_changes');
    expect(changes.files).toEqual([
      { path: 'gone.txt', kind: 'deleted' },
      { path: 'mod.txt', kind: 'modified' },
      { path: 'out/made.txt', kind: 'created' },
      { path: 'w.txt', kind: 'modified' },
    ]);
    const review = await eventOf(r, 'turn_review_requested');
    expect(review.files.find((f) => f.path === 'w.txt')).toMatchObject({
      before: 'before\n',
      after: 'written\n',
    });
    expect(r.session.client.snapshot().review?.turnId).toBe(review.turnId);
    r.session.client.send({ type: 'review_turn', turnId: review.turnId, action: 'keep' });
    expect(await eventOf(r, 'turn_review_resolved')).toMatchObject({ action: 'keep', outcome: 'kept' });
    expect(r.session.client.snapshot().review).toBeUndefined();
    const card = await undo(r);
    expect(card.tool).toBe('revert_turn');
    expect(card.preview).toMatchObject({
      kind: 'json',
      effects: expect.arrayContaining([
        'Reverts 1 turn(s): 2 changed, 1 created, 1 deleted file(s).',
        'remove  out/made.txt (created by the turn)',
        'restore gone.txt (deleted by the turn)',
      ]),
    });
    expectOriginal(root);
  });

  it('after a restart (a new session over the same WARDEN_HOME and project) /undo still restores the turn', async () => {
    const { root, home } = dirs(FILES);
    const first = await open(root, home, changeTurn);
    await runChangeTurn(first);
    await eventOf(first, 'turn_changes');
    await first.session.close();
    const second = await open(root, home, []);
    await undo(second);
    expectOriginal(root);
    const audit = auditDayFiles(join(home, 'audit'))
      .map((f) => readFileSync(join(home, 'audit', f), 'utf8'))
      .join('');
    expect(audit).toMatch(/"tool":"revert_turn"[^\n]*"outcome":"executed"/);
  });

  it('review_turn: revert one chosen file through the gate (a revert_turn card); the other files stay', async () => {
    const { root, home } = dirs(FILES);
    const r = await open(root, home, changeTurn);
    await runChangeTurn(r);
    const review = await eventOf(r, 'turn_review_requested');
    r.session.client.send({ type: 'review_turn', turnId: review.turnId, action: 'revert', paths: ['w.txt'] });
    const card = await r.next();
    expect(card.args).toEqual({ turns: 1, turn: review.turnId, paths: ['w.txt'] });
    r.session.client.send({ type: 'decide', id: card.id, decision: { kind: 'approve', confirmHigh: true } });
    const resolved = await eventOf(r, 'turn_review_resolved');
    expect(resolved).toMatchObject({ outcome: 'reverted', reverted: ['w.txt'] });
    expect(readFileSync(join(root, 'w.txt'), 'utf8')).toBe('before\n');
    expect(readFileSync(join(root, 'mod.txt'), 'utf8')).toBe('new\n');
    expect(r.session.client.snapshot().review).toBeUndefined();
  });

  it('reviewTurns off: the changeset event still comes, the review card does not', async () => {
    const { root, home } = dirs(FILES);
    const r = await open(root, home, changeTurn, { reviewTurns: false });
    await runChangeTurn(r);
    await eventOf(r, 'turn_changes');
    expect(r.events.some((e) => e.type === 'turn_review_requested')).toBe(false);
  });

  it('headless --json: the changeset is one event line', async () => {
    const { root, home } = dirs(FILES);
    const r = await open(
      root,
      home,
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'w.txt', content: 'written\n' } }] },
        { text: 'done' },
      ],
      { mode: 'auto-edit', approver: false },
    );
    const lines: string[] = [];
    const out = { write: (chunk: string) => (lines.push(chunk), true) } as unknown as NodeJS.WritableStream;
    const code = await runHeadless(r.session, 'write it', { json: true }, { stdout: out, stderr: out });
    expect(code).toBe(0);
    const events = lines
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events).toContainEqual({
      type: 'turn_changes',
      turnId: expect.any(String),
      files: [{ path: 'w.txt', kind: 'modified' }],
    });
  });

  it.each([
    ['with git, a command card says undo restores the project files', undefined, true],
    ['without git, a command card says it is not reversible', null, undefined],
  ] as const)('%s', async (_l, checkpointGit, undoRestoresFiles) => {
    const { root, home } = dirs(FILES);
    const r = await open(root, home, changeTurn, checkpointGit === null ? { checkpointGit } : {});
    const run = r.session.run('change things');
    const command = await r.next();
    expect(command).toMatchObject({ tool: 'execute_command', reversible: false });
    expect(command.undoRestoresFiles).toBe(undoRestoresFiles);
    r.session.client.send({
      type: 'decide',
      id: command.id,
      decision: { kind: 'approve', confirmHigh: true },
    });
    const write = await r.next();
    // A checkpointed write is wholly reversible either way.
    expect(write).toMatchObject({ tool: 'write_file', reversible: true });
    expect(write.undoRestoresFiles).toBeUndefined();
    r.session.client.send({ type: 'decide', id: write.id, decision: { kind: 'approve', confirmHigh: true } });
    await run;
  });

  it('without git: a notice says commands are not covered, and the state says copies', async () => {
    const { root, home } = dirs(FILES);
    const r = await open(root, home, [], { checkpointGit: null });
    const state = r.session.client.snapshot();
    expect(state.checkpoints).toEqual({ kind: 'copies', reason: 'git was not found on PATH' });
    expect(state.transcript.some((t) => t.kind === 'notice' && /not what commands change/.test(t.text))).toBe(
      true,
    );
  });
});
