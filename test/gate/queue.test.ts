import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Decision, ToolResultEnvelope } from '../../src/protocol';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Choice = 'approve' | 'reject' | 'skip' | 'edit' | 'invalid';
const WEIGHTS: [Choice, number][] = [
  ['approve', 0.3],
  ['reject', 0.2],
  ['skip', 0.15],
  ['edit', 0.2],
  ['invalid', 0.15],
];
const EXPECTED: Record<Choice, ToolResultEnvelope['status']> = {
  approve: 'executed',
  edit: 'executed',
  reject: 'rejected',
  skip: 'skipped',
  invalid: 'error',
};

const AGENTS = 100;
const EACH = 10;
const SEED = 20_240_611;

/** Call j of agent i: a write for even j, a command for odd j. */
function callOf(
  i: number,
  j: number,
): { tool: string; args: Record<string, string>; edited: Record<string, string> } {
  return j % 2 === 0
    ? {
        tool: 'write_file',
        args: { path: `agent-${i}/f${j}.txt`, content: `${i}-${j}` },
        edited: { path: `agent-${i}/f${j}.txt`, content: `edited ${i}-${j}` },
      }
    : {
        tool: 'execute_command',
        args: { command: `npm run job-${i}-${j}` },
        edited: { command: `npm run edited-${i}-${j}` },
      };
}

describe('the approval queue under load', () => {
  it(`${AGENTS} concurrent agents × ${EACH} requests, random decisions: each resolved once, audit matches, FIFO display`, async () => {
    h = createGateHarness({ timeoutMs: 10 * 60_000 });
    const random = seeded(SEED);
    const choices = new Map<string, Choice>();
    const keyOf = new Map<string, string>();
    const results = new Map<string, ToolResultEnvelope>();

    const agents = Array.from({ length: AGENTS }, async (_, i) => {
      for (let j = 0; j < EACH; j++) {
        const { tool, args } = callOf(i, j);
        const envelope = await h.call(tool, args, {
          agentId: `agent-${i}`,
          agentName: `agent ${i}`,
          taskId: `task-${i}`,
        });
        expect(results.has(`${i}/${j}`)).toBe(false);
        results.set(`${i}/${j}`, envelope);
      }
    });

    const arrival = () => h.events.flatMap((e) => (e.type === 'requested' ? [e.request.id] : []));
    let decided = 0;
    while (decided < AGENTS * EACH) {
      const pending = await h.waitForPending(1);
      // Display order is arrival order, whatever was decided before.
      const order = arrival();
      const positions = pending.map((r) => order.indexOf(r.id));
      expect(positions.every((p, k) => p >= 0 && (k === 0 || p > (positions[k - 1] as number)))).toBe(true);

      const request = pending[Math.floor(random() * pending.length)] as ApprovalRequest;
      const choice = pick(random());
      const [i, j] = ijOf(request);
      keyOf.set(request.id, `${i}/${j}`);
      choices.set(request.id, choice);
      if (choice === 'invalid') {
        for (let k = 0; k < 5; k++) h.broker.reportInvalidInput(request.id);
      } else {
        const decision: Decision =
          choice === 'edit'
            ? { kind: 'edit', args: callOf(i, j).edited }
            : choice === 'reject'
              ? { kind: 'reject', reason: `no ${i}-${j}` }
              : { kind: choice };
        expect(h.gate.decide(request.id, decision)).toEqual({ ok: true });
      }
      decided += 1;
    }
    await Promise.all(agents);

    // Each request was asked once and resolved once.
    const requestedIds = arrival();
    const resolvedIds = h.events.flatMap((e) => (e.type === 'resolved' ? [e.request.id] : []));
    expect(requestedIds).toHaveLength(AGENTS * EACH);
    expect(new Set(requestedIds).size).toBe(AGENTS * EACH);
    expect(resolvedIds.sort()).toEqual([...requestedIds].sort());
    expect(results.size).toBe(AGENTS * EACH);
    expect(h.broker.pending()).toEqual([]);

    // Each caller got what its decision says.
    const ran = new Set(h.ran());
    for (const [id, choice] of choices) {
      const key = keyOf.get(id) as string;
      const [i, j] = key.split('/').map(Number) as [number, number];
      const envelope = results.get(key) as ToolResultEnvelope;
      expect(envelope.status, `${key} ${choice}`).toBe(EXPECTED[choice]);
      if (choice === 'reject')
        expect(envelope).toEqual({ status: 'rejected', by: 'user', reason: `no ${i}-${j}`, retry: true });
      if (choice === 'invalid') expect(envelope.reason).toMatch(/^invalid_input: /);
      const call = callOf(i, j);
      const executed = choice === 'approve' || choice === 'edit';
      const args = choice === 'edit' ? call.edited : call.args;
      if (call.tool === 'write_file')
        expect(h.read(call.args.path as string), key).toBe(executed ? args.content : undefined);
      else expect(ran.has(`execute_command ${JSON.stringify(args)}`), key).toBe(executed);
    }
    expect(h.ran()).toHaveLength([...choices.values()].filter((c) => c === 'approve' || c === 'edit').length);

    // Three audit lines per request: queued, the decision, then the outcome.
    expect(h.records).toHaveLength(3 * AGENTS * EACH);
    const byRequest = new Map<string, string[]>();
    for (const r of h.records)
      byRequest.set(r.requestId as string, [...(byRequest.get(r.requestId as string) ?? []), r.phase]);
    expect(byRequest.size).toBe(AGENTS * EACH);
    for (const [id, phases] of byRequest) {
      expect(phases).toEqual(['requested', 'decision', 'outcome']);
      const outcome = h.auditOf(id)[2];
      expect(outcome?.outcome).toBe(EXPECTED[choices.get(id) as Choice]);
      expect(outcome?.approver).toBe(choices.get(id) === 'invalid' ? 'none' : 'human');
    }
  });
});

function pick(r: number): Choice {
  let acc = 0;
  for (const [choice, weight] of WEIGHTS) {
    acc += weight;
    if (r < acc) return choice;
  }
  return 'approve';
}

function ijOf(request: ApprovalRequest): [number, number] {
  const args = request.args as { path?: string; command?: string };
  const m = args.path
    ? /agent-(\d+)\/f(\d+)/.exec(args.path)
    : /npm run job-(\d+)-(\d+)/.exec(args.command ?? '');
  if (!m) throw new Error(`unexpected request ${JSON.stringify(args)}`);
  return [Number(m[1]), Number(m[2])];
}
