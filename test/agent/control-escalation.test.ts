import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { Gate } from '../../src/gate/gate';
import type { ApprovalRequest, Decision } from '../../src/protocol';
import type { FakeStep } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditLines, userTexts } from '../helpers/audit-lines';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const readMissing = (n: number): FakeStep => ({
  text: `Try ${n}.`,
  toolCalls: [{ name: 'read_file', args: { path: `missing-${n}.txt` } }],
});

/** Three failed reads in a row, then the card. */
async function threeFailures(extra: FakeStep[] = [{ text: 'Going on.' }]) {
  h = await startSession([readMissing(1), readMissing(2), readMissing(3), ...extra]);
  const run = h.session.run('read the config');
  const card = await h.nextRequest();
  return { run, card };
}

describe('escalation (issue 14 §3)', () => {
  it('3 failed results in a row stop the agent with a structured card', async () => {
    const { run, card } = await threeFailures();
    expect(h?.fake.requests).toHaveLength(3);
    expect(card.preview).toMatchObject({ kind: 'escalation', trigger: 'failures', goal: 'read the config' });
    const preview = card.preview as Extract<ApprovalRequest['preview'], { kind: 'escalation' }>;
    expect(preview.tried).toHaveLength(3);
    expect(preview.tried[2]?.call).toContain('missing-3.txt');
    expect(preview.tried[2]?.result).toMatch(/^error/);
    expect(preview.needs).toMatch(/Its calls failed 3 times in a row/);
    h?.decide(card.id, { kind: 'cancel_task' });
    await run;
  });

  it("the card's lines reuse each call's started summary: one summary per call, not two", async () => {
    const summary = vi.spyOn(Gate.prototype, 'summary');
    try {
      const { run, card } = await threeFailures();
      const preview = card.preview as Extract<ApprovalRequest['preview'], { kind: 'escalation' }>;
      expect(preview.tried.map((t) => t.call)).toEqual([
        expect.stringContaining('missing-1.txt'),
        expect.stringContaining('missing-2.txt'),
        expect.stringContaining('missing-3.txt'),
      ]);
      const reads = summary.mock.calls.filter(([name]) => name === 'read_file');
      expect(reads).toHaveLength(3);
      h?.decide(card.id, { kind: 'cancel_task' });
      await run;
    } finally {
      summary.mockRestore();
    }
  });

  const choices: {
    name: string;
    decision: Decision;
    then?: (h: SessionHarness) => Promise<void>;
    status: string;
    requests: number;
    told?: RegExp[];
  }[] = [
    {
      name: 'retry with an instruction',
      decision: { kind: 'escalation', choice: 'retry', instruction: 'the config is in cfg/app.json' },
      status: 'done',
      requests: 4,
      told: [/The person answered: retry with this instruction: the config is in cfg\/app.json/],
    },
    {
      name: 'take over (the agent pauses; the person runs a command and resumes)',
      decision: { kind: 'escalation', choice: 'take_over' },
      then: async (s) => {
        await vi.waitFor(() => expect(s.session.client.snapshot().paused?.agents).toEqual(['main']));
        s.session.client.send({ type: 'run_as_person', command: 'echo by-hand' });
        // The first command loads the shell grammar and starts the sandbox: over vi.waitFor's 1 s on a busy machine.
        await vi.waitFor(
          () => expect(s.events.some((e) => e.type === 'tool_finished' && e.agentId === 'person')).toBe(true),
          { timeout: 15_000 },
        );
        expect(s.fake.requests).toHaveLength(3);
        s.session.client.send({ type: 'resume', note: 'done it, go on' });
      },
      status: 'done',
      requests: 4,
      told: [/The person took over this step by hand/, /by-hand/, /done it, go on/],
    },
    {
      name: 'skip the step',
      decision: { kind: 'skip' },
      status: 'done',
      requests: 4,
      told: [/skip this step and go on with the next one/],
    },
    { name: 'cancel the task', decision: { kind: 'cancel_task' }, status: 'cancelled', requests: 3 },
  ];
  for (const c of choices)
    it(`each choice works: ${c.name}`, async () => {
      const { run, card } = await threeFailures();
      const s = h as SessionHarness;
      s.decide(card.id, c.decision);
      await c.then?.(s);
      expect(await run).toMatchObject({ status: c.status });
      expect(s.fake.requests).toHaveLength(c.requests);
      for (const told of c.told ?? []) expect(userTexts(s.fake.requests[3])).toMatch(told);
      // Audited like any call: the card was requested and decided by the person.
      const lines = auditLines(s.home).filter((r) => r.tool === 'escalate');
      expect(lines.some((r) => r.phase === 'requested')).toBe(true);
      expect(lines.find((r) => r.phase === 'outcome')).toMatchObject({
        outcome:
          c.decision.kind === 'skip'
            ? 'skipped'
            : c.decision.kind === 'cancel_task'
              ? 'cancelled'
              : 'executed',
      });
    });

  it('2 rejections of similar calls escalate (the second is the gate repeating the person’s no)', async () => {
    const write = { name: 'write_file', args: { path: 'x.txt', content: 'x' } };
    h = await startSession([{ toolCalls: [write] }, { toolCalls: [write] }, { text: 'ok' }]);
    const run = h.session.run('write x');
    const first = await h.nextRequest();
    h.decide(first.id, { kind: 'reject', reason: 'not there' });
    const card = await h.nextRequest();
    expect(card.preview).toMatchObject({ kind: 'escalation', trigger: 'rejections' });
    expect((card.preview as { needs: string }).needs).toMatch(/You rejected 2 similar calls/);
    h.decide(card.id, { kind: 'escalation', choice: 'retry', instruction: 'write y.txt' });
    expect(await run).toMatchObject({ status: 'done' });
  });

  it('the step limit escalates; retry gives the agent more steps', async () => {
    const read = { text: 'reading', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] };
    h = await startSession([read, read, { text: 'finished' }], {
      files: { 'a.txt': 'a' },
      session: { maxStepsPerTurn: 2 },
    });
    const run = h.session.run('loop');
    const card = await h.nextRequest();
    expect(card.preview).toMatchObject({ kind: 'escalation', trigger: 'max_steps' });
    expect(h.fake.requests).toHaveLength(2);
    h.decide(card.id, { kind: 'escalation', choice: 'retry' });
    expect(await run).toMatchObject({ status: 'done', text: 'finished' });
  });

  it('with nobody to answer (headless) the turn ends as escalated, failed closed', async () => {
    h = await startSession([readMissing(1), readMissing(2), readMissing(3), { text: 'never' }], {
      approver: false,
    });
    expect(await h.session.run('read')).toMatchObject({ status: 'failed', stop: 'escalated' });
    expect(h.fake.requests).toHaveLength(3);
  });

  it('thresholds come from the session (config): 2 failures escalate when failures is 2', async () => {
    h = await startSession([readMissing(1), readMissing(2), { text: 'x' }], {
      session: { escalation: { failures: 2, rejections: 2 } },
    });
    const run = h.session.run('read');
    const card = await h.nextRequest();
    expect(card.preview).toMatchObject({ kind: 'escalation', trigger: 'failures' });
    expect(h.fake.requests).toHaveLength(2);
    h.decide(card.id, { kind: 'cancel_task' });
    await run;
  });

  it('the model escalates itself with the escalate tool; take over pauses it', async () => {
    h = await startSession([
      {
        toolCalls: [
          {
            name: 'escalate',
            args: {
              goal: 'deploy',
              tried: ['npm run deploy → no credentials'],
              needs: 'a token',
            },
          },
        ],
      },
      { text: 'continuing' },
    ]);
    const run = h.session.run('deploy');
    const card = await h.nextRequest();
    expect(card.preview).toMatchObject({
      kind: 'escalation',
      trigger: 'model',
      needs: 'a token',
      tried: [{ call: 'npm run deploy', result: 'no credentials' }],
    });
    h.decide(card.id, { kind: 'escalation', choice: 'take_over' });
    await vi.waitFor(() => expect(h?.session.client.snapshot().paused?.agents).toEqual(['main']));
    expect(h.fake.requests).toHaveLength(1);
    h.session.client.send({ type: 'resume', note: 'token set' });
    expect(await run).toMatchObject({ status: 'done' });
    expect(userTexts(h.fake.requests[1])).toContain('token set');
  });

  it('an escalation answer applies only to an escalation card', async () => {
    h = await startSession([
      { toolCalls: [{ name: 'write_file', args: { path: 'a', content: 'a' } }] },
      { text: 'k' },
    ]);
    const run = h.session.run('w');
    const request = await h.nextRequest();
    h.decide(request.id, { kind: 'escalation', choice: 'retry' });
    expect(h.session.client.snapshot().pending.map((r) => r.id)).toEqual([request.id]);
    h.decide(request.id, { kind: 'reject' });
    await run;
  });
});

describe('escalation thresholds in the config', () => {
  const cases: { user?: object; project?: object; want: { failures: number; rejections: number } }[] = [
    { want: { failures: 3, rejections: 2 } },
    { user: { failures: 5 }, want: { failures: 5, rejections: 2 } },
    { user: { failures: 5 }, project: { failures: 2, rejections: 9 }, want: { failures: 2, rejections: 2 } },
    {
      user: { failures: 3, rejections: 4 },
      project: { failures: 10, rejections: 1 },
      want: { failures: 3, rejections: 1 },
    },
  ];
  for (const c of cases)
    it(`user ${JSON.stringify(c.user)} + project ${JSON.stringify(c.project)} → ${JSON.stringify(c.want)}`, () => {
      const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
      const root = mkdtempSync(join(tmpdir(), 'warden-proj-'));
      try {
        if (c.user) writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: c.user }));
        if (c.project) {
          mkdirSync(join(root, '.warden'));
          writeFileSync(join(root, '.warden', 'config.json'), JSON.stringify({ escalation: c.project }));
        }
        const loaded = loadConfig({ home, root, env: {} });
        if (!loaded.ok) throw new Error(loaded.error);
        expect(loaded.config.escalation).toEqual(c.want);
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(root, { recursive: true, force: true });
      }
    });

  it('a threshold that is not a positive whole number is an error naming the field', () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    try {
      writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: { failures: 0 } }));
      const loaded = loadConfig({ home, env: {} });
      expect(loaded.ok).toBe(false);
      expect(!loaded.ok && loaded.error).toMatch(/escalation\.failures/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
