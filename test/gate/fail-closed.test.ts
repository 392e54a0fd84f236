/**
 * The fail-closed matrix: every way a request can end without a person's decision, for a write, a
 * command and an MCP tool. The side effect never happens, the model is told the reason code (never
 * "user rejected"), and the audit says why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyContext } from '../../src/policy/resolve';
import type { Outcome } from '../../src/protocol';
import { createGateHarness, type GateHarness, type HarnessOptions } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

const TOOLS = [
  { tool: 'write_file', args: { path: 'out.txt', content: 'x' }, edit: { path: 'out.txt', content: 'y' } },
  { tool: 'execute_command', args: { command: 'npm test' }, edit: { command: 'npm run lint' } },
  { tool: 'mcp__fake__delete', args: { id: '42' }, edit: { id: '43' } },
] as const;

/** A policy that works once (the call itself) and throws from then on (e.g. while an edit is reviewed). */
function policyThatBreaksLater(): () => PolicyContext {
  let calls = 0;
  return () => {
    calls += 1;
    if (calls > 1) throw new Error('policy exploded');
    return { rules: [], mode: 'manual' };
  };
}

type Failure = {
  name: string;
  code: string;
  status: Outcome;
  options?: () => HarnessOptions;
  /** Whether a request reaches the queue before the failure. */
  queued: boolean;
  provoke?: (h: GateHarness, requestId: string, edit: unknown) => void;
};

const FAILURES: Failure[] = [
  {
    name: 'decision timeout',
    code: 'timeout',
    status: 'timeout',
    options: () => ({ timeoutMs: 25 }),
    queued: true,
  },
  {
    name: 'no approver (headless)',
    code: 'no_approver',
    status: 'error',
    options: () => ({ approver: false }),
    queued: false,
  },
  {
    name: 'the approver went away',
    code: 'no_approver',
    status: 'error',
    queued: true,
    provoke: (h) => h.detachApprover(),
  },
  {
    name: 'input closed',
    code: 'input_closed',
    status: 'error',
    queued: true,
    provoke: (h) => h.broker.closeInput(),
  },
  {
    name: 'an exception in the policy',
    code: 'gate_error',
    status: 'error',
    options: () => ({
      policy: () => {
        throw new Error('policy exploded');
      },
    }),
    queued: false,
  },
  {
    name: 'an exception while reviewing an edit',
    code: 'gate_error',
    status: 'error',
    options: () => ({ policy: policyThatBreaksLater() }),
    queued: true,
    provoke: (h, id, edit) =>
      expect(h.gate.decide(id, { kind: 'edit', args: edit })).toMatchObject({ ok: false }),
  },
  {
    name: 'an exception in the listener that announces the request',
    code: 'gate_error',
    status: 'error',
    options: () => ({
      onEvent: (e) => {
        if (e.type === 'requested') throw new Error('UI exploded');
      },
    }),
    queued: true,
  },
  {
    name: 'five invalid inputs in a row',
    code: 'invalid_input',
    status: 'error',
    queued: true,
    provoke: (h, id) => {
      for (let i = 0; i < 5; i++) h.broker.reportInvalidInput(id);
    },
  },
  {
    name: 'task cancelled',
    code: 'task_cancelled',
    status: 'cancelled',
    queued: true,
    provoke: (h) => h.broker.cancelTask('task-1'),
  },
  {
    name: 'request expired (a late decision)',
    code: 'expired',
    status: 'timeout',
    queued: true,
    provoke: (h, id) => {
      h.clock.advance(60_001);
      expect(h.gate.decide(id, { kind: 'approve' })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/expired/),
      });
    },
  },
];

const CASES = FAILURES.flatMap((failure) => TOOLS.map((t) => [failure.name, t.tool, failure, t] as const));

describe('fail closed', () => {
  it.each(CASES)('%s × %s: nothing runs, the reason code is told and audited', async (_f, _t, failure, t) => {
    h = createGateHarness(failure.options?.());
    const result = h.call(t.tool, t.args);
    if (failure.queued) {
      const request = await h.nextRequest();
      failure.provoke?.(h, request.id, t.edit);
    }
    const envelope = await result;

    expect(envelope.status).toBe(failure.status);
    expect(envelope.by).toBe('gate');
    expect(envelope.reason).toMatch(new RegExp(`^${failure.code}: `));
    expect(envelope.retry).toBe(false);
    expect(h.ran()).toEqual([]);
    expect(h.read('out.txt')).toBeUndefined();
    expect(h.broker.pending()).toEqual([]);

    const lines = h.records.filter((r) => r.tool === t.tool);
    // A request that reached the queue was recorded there first (`requested`), so a hard stop still shows it.
    expect(lines.map((r) => r.phase)).toEqual(
      failure.queued ? ['requested', 'decision', 'outcome'] : ['decision', 'outcome'],
    );
    expect(lines.every((r) => r.approver === 'none')).toBe(true);
    expect(lines.at(-1)).toMatchObject({
      outcome: failure.status,
      reason: expect.stringContaining(failure.code),
    });
    if (failure.queued) expect(lines.every((r) => r.requestId !== undefined)).toBe(true);
  });

  it('after input closes, later requests fail at once without queueing', async () => {
    h = createGateHarness();
    h.broker.closeInput();
    expect(await h.call('execute_command', { command: 'npm test' })).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^input_closed: /),
    });
    expect(h.events.filter((e) => e.type === 'requested')).toEqual([]);
    expect(h.ran()).toEqual([]);
  });

  it('invalid inputs must be in a row: a decision resets the count', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    for (let i = 0; i < 4; i++) h.broker.reportInvalidInput(request.id);
    expect(h.gate.decide(request.id, { kind: 'edit', args: { command: 7 } })).toMatchObject({ ok: false });
    for (let i = 0; i < 4; i++) h.broker.reportInvalidInput(request.id);
    expect(h.broker.pending()).toHaveLength(1);
    expect(h.events.filter((e) => e.type === 'invalid_input').at(-1)).toMatchObject({ count: 4, limit: 5 });
    h.broker.reportInvalidInput(request.id);
    expect(await result).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^invalid_input: /),
    });
  });

  it('an audit sink that throws: nobody is asked, nothing runs, and intercept still answers audit_unavailable', async () => {
    h = createGateHarness({
      audit: {
        append: () => {
          throw new Error('disk full');
        },
      },
    });
    expect(await h.call('write_file', { path: 'out.txt', content: 'x' })).toMatchObject({
      status: 'error',
      by: 'gate',
      reason: expect.stringMatching(/^audit_unavailable: .*disk full/),
    });
    expect(h.events.filter((e) => e.type === 'requested')).toEqual([]);
    expect(h.read('out.txt')).toBeUndefined();
  });

  it('a command guard that throws ends as a gate error, nothing runs', async () => {
    h = createGateHarness({
      commands: {
        judge: () => {
          throw new Error('parser crashed');
        },
      },
    });
    expect(await h.call('execute_command', { command: 'ls' })).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^gate_error: .*parser crashed/),
    });
    expect(h.ran()).toEqual([]);
  });

  it('a schema that throws ends as a gate error, nothing runs', async () => {
    const { z } = await import('zod');
    const { defineTool } = await import('../../src/tools/types');
    let ran = false;
    const exploding = defineTool({
      name: 'mcp__fake__explode',
      description: 'x',
      schema: z.object({ id: z.string() }).refine(() => {
        throw new Error('refine exploded');
      }),
      kind: 'execute',
      execute: async () => {
        ran = true;
        return { ok: true, output: '' };
      },
    });
    h = createGateHarness({ tools: [exploding] });
    expect(await h.call('mcp__fake__explode', { id: '1' })).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^gate_error: /),
    });
    expect(ran).toBe(false);
  });

  it('a preview that throws ends as a gate error before anything is queued', async () => {
    const { z } = await import('zod');
    const { defineTool } = await import('../../src/tools/types');
    let ran = false;
    const plan = defineTool({
      name: 'propose_plan',
      description: 'x',
      schema: z.object({ steps: z.array(z.any()) }),
      kind: 'interact',
      interactive: true,
      preview: (args) => ({ kind: 'plan', title: 'Plan', steps: args.steps.map(String) }),
      execute: async () => {
        ran = true;
        return { ok: true, output: '' };
      },
    });
    h = createGateHarness({ tools: [plan] });
    const poisoned = {
      toString() {
        throw new Error('preview exploded');
      },
    };
    expect(await h.call('propose_plan', { steps: [poisoned] })).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^gate_error: .*preview exploded/),
    });
    expect(ran).toBe(false);
    expect(h.events).toEqual([]);
    expect(h.records.map((r) => [r.phase, r.approver, r.rule])).toEqual([
      ['decision', 'none', 'gate-error'],
      ['outcome', 'none', 'gate-error'],
    ]);
  });

  it('invalid JSON arguments are an error, never treated as {}', async () => {
    h = createGateHarness({ mode: 'auto' });
    expect(await h.call('mcp__fake__delete', '{"id": ')).toMatchObject({
      status: 'error',
      by: 'gate',
      reason: expect.stringMatching(/not valid JSON/),
    });
    expect(await h.call('glob_files', 'not json')).toMatchObject({ status: 'error' });
    expect(h.ran()).toEqual([]);
  });

  it('an unknown tool is an error listing the real ones', async () => {
    h = createGateHarness();
    expect(await h.call('delete_everything', {})).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/no tool named delete_everything.*write_file/),
    });
  });

  it('timeouts past what setTimeout can hold do not fire at once', async () => {
    h = createGateHarness({ timeoutMs: 30 * 24 * 3600 * 1000 });
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    // A second request and a round trip through the event loop: the first is still pending.
    void h.call('mcp__fake__delete', { id: '1' });
    await h.nextRequest();
    expect(h.broker.pending().map((r) => r.id)).toContain(request.id);
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed' });
  });
});
