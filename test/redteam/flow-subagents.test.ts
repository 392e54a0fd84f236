/**
 * Red team, the gate's flow around a person: sub-agents. A sub-agent is not offered spawn_agents,
 * but the model behind it may call it anyway — the gate holds the tool and the default rule allows
 * it, so a refusal must come from the gate itself, not from what the model was offered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-openai';
import { auditLines } from '../helpers/audit-lines';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const firstUser = (req: RecordedRequest) =>
  String(req.body.messages.find((m) => m.role === 'user')?.content ?? '');
const hasTool = (req: RecordedRequest) => req.body.messages.some((m) => m.role === 'tool');
const offered = (req: RecordedRequest) =>
  ((req.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);

describe('sub-agents cannot widen themselves', () => {
  it('a sub-agent that calls spawn_agents (not offered to it) spawns nobody; depth stays one', async () => {
    const reply = (req: RecordedRequest) => {
      const task = firstUser(req);
      const depth = Number(/^\[depth (\d+)\]/.exec(task)?.[1] ?? 0);
      if (hasTool(req)) return { text: `depth ${depth} done` };
      // Every agent, whatever it was offered, asks for one more level below itself.
      return {
        toolCalls: [
          {
            name: 'spawn_agents',
            args: { agents: [{ name: `d${depth + 1}`, task: `[depth ${depth + 1}] go deeper` }] },
          },
        ],
      };
    };
    h = await startSession(
      Array.from({ length: 12 }, () => reply),
      { session: { mode: 'manual' } },
    );
    const result = await h.session.run('split the work');

    expect(result.status).toBe('done');
    const subRequests = h.fake.requests.filter((r) => /^\[depth [1-9]/.test(firstUser(r)));
    // Sub-agents are not offered the tool …
    for (const r of subRequests) expect(offered(r)).not.toContain('spawn_agents');
    // … and calling it anyway starts no second level.
    const agents = h.session.client.snapshot().agents;
    expect(agents.map((a) => a.name)).toEqual(['d1']);
    expect(h.fake.requests.some((r) => firstUser(r).startsWith('[depth 2]'))).toBe(false);
    // The refusal is on the record as the gate's, with a reason.
    const refused = auditLines(h.home).find(
      (r) => r.tool === 'spawn_agents' && r.agentId !== 'main' && r.phase === 'outcome',
    );
    expect(refused).toMatchObject({ outcome: expect.stringMatching(/blocked|error/), approver: 'none' });
  });
});
