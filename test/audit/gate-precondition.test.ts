/**
 * No audit line, no execution: on every path that leads to running a call (a policy allow, a rule,
 * a grant, a person's approval, an edit), a decision line that is not written means nothing runs
 * and the model is told `audit_unavailable`. A request whose `requested` line fails is never shown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditPhase, AuditRecord } from '../../src/protocol/audit';
import type { AuditSink } from '../../src/gate/gate';
import type { ToolResultEnvelope } from '../../src/protocol';
import { createGateHarness, type GateHarness, type HarnessOptions } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

/** A sink that refuses the lines of the given phases, keeping what it did write. */
function flakySink(
  failing: Set<AuditPhase>,
): Pick<AuditSink, 'append'> & { written: AuditRecord[]; refused: AuditRecord[] } {
  const written: AuditRecord[] = [];
  const refused: AuditRecord[] = [];
  return {
    written,
    refused,
    append(record) {
      if (failing.has(record.phase)) {
        refused.push(record);
        return { ok: false, error: 'ENOSPC: no space left on device' };
      }
      written.push(record);
      return { ok: true };
    },
  };
}

type Path = {
  name: string;
  options?: HarnessOptions;
  tool: string;
  args: Record<string, unknown>;
  /** How the call reaches execution: nothing to do, or a person's decision on the request. */
  decide?: (h: GateHarness, id: string) => void;
  /** A call made first with a working log (e.g. the approve-all that creates a grant). */
  before?: (h: GateHarness) => Promise<void>;
};

const approve = (h: GateHarness, id: string) => h.gate.decide(id, { kind: 'approve' });

const PATHS: Path[] = [
  {
    name: 'a default allow (read)',
    tool: 'read_file',
    args: { path: 'r.txt' },
    before: async (h) => h.write('r.txt', 'r'),
  },
  {
    name: 'a mode allow (auto-edit write)',
    options: { mode: 'auto-edit' },
    tool: 'write_file',
    args: { path: 'a.txt', content: 'x' },
  },
  {
    name: 'a user rule allow',
    options: { rules: [{ source: 'user', tool: 'mcp__fake__*', decision: 'allow' }] },
    tool: 'mcp__fake__delete',
    args: { id: '1' },
  },
  { name: "a person's approval", tool: 'write_file', args: { path: 'a.txt', content: 'x' }, decide: approve },
  {
    name: "a person's edit",
    tool: 'write_file',
    args: { path: 'a.txt', content: 'x' },
    decide: (h, id) => h.gate.decide(id, { kind: 'edit', args: { path: 'a.txt', content: 'edited' } }),
  },
  {
    name: 'a grant',
    tool: 'mcp__fake__delete',
    args: { id: '2' },
    before: async (h) => {
      const first = h.call('mcp__fake__delete', { id: '1' });
      const request = await h.nextRequest();
      const scope = request.grantOptions.find((s) => s.match.kind === 'tool' && s.agents.kind === 'all');
      h.gate.decide(request.id, { kind: 'approve_all', scope: scope as NonNullable<typeof scope> });
      expect(await first).toMatchObject({ status: 'executed' });
    },
  },
];

describe('no audit line, no execution', () => {
  it.each(PATHS.map((p) => [p.name, p] as const))(
    '%s: the decision line fails → nothing runs, audit_unavailable',
    async (_name, path) => {
      const failing = new Set<AuditPhase>();
      const sink = flakySink(failing);
      h = createGateHarness({ ...path.options, audit: sink });
      await path.before?.(h);
      const ranBefore = h.ran().length;
      failing.add('decision');
      const result = h.call(path.tool, path.args);
      if (path.decide) path.decide(h, (await h.nextRequest()).id);
      const envelope: ToolResultEnvelope = await result;

      expect(envelope).toMatchObject({
        status: 'error',
        by: 'gate',
        retry: false,
        reason: expect.stringMatching(/^audit_unavailable: .*ENOSPC.*nothing ran/),
      });
      expect(h.ran()).toHaveLength(ranBefore);
      expect(h.read('a.txt')).toBeUndefined();
      expect(sink.refused.map((r) => r.phase)).toEqual(['decision']);
      // The outcome line is still tried, so a log that comes back at once says what happened.
      expect(sink.written.at(-1)).toMatchObject({
        phase: 'outcome',
        outcome: 'error',
        reason: expect.stringMatching(/^audit_unavailable/),
      });

      // The gate holds no grudge: once lines are written again, the same call runs.
      failing.clear();
      const again = h.call(path.tool, path.args);
      if (path.decide) approve(h, (await h.nextRequest()).id);
      expect((await again).status).toBe('executed');
    },
  );

  it('the requested line fails → nobody is asked, nothing runs, audit_unavailable', async () => {
    const sink = flakySink(new Set(['requested']));
    h = createGateHarness({ audit: sink });
    expect(await h.call('write_file', { path: 'a.txt', content: 'x' })).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^audit_unavailable: /),
    });
    expect(h.events.filter((e) => e.type === 'requested')).toEqual([]);
    expect(h.broker.pending()).toEqual([]);
    expect(h.read('a.txt')).toBeUndefined();
  });

  it('a queued request is on the record before anyone sees it: who asks, for what, under which rule', async () => {
    const sink = flakySink(new Set());
    let seenWhenAnnounced: AuditRecord[] = [];
    h = createGateHarness({
      audit: sink,
      onEvent: (e) => {
        if (e.type === 'requested') seenWhenAnnounced = [...sink.written];
      },
    });
    const result = h.call(
      'execute_command',
      { command: 'npm test' },
      { agentId: 'sub-7', agentName: 'tester', taskId: 't3' },
    );
    const request = await h.nextRequest();
    expect(seenWhenAnnounced).toEqual([
      expect.objectContaining({
        phase: 'requested',
        requestId: request.id,
        agentId: 'sub-7',
        agentName: 'tester',
        taskId: 't3',
        tool: 'execute_command',
        args: { command: 'npm test' },
        decision: 'ask',
        approver: 'none',
        rule: request.rule.id,
        risk: request.risk.level,
      }),
    ]);
    h.broker.closeInput();
    await result;
    expect(sink.written.map((r) => r.phase)).toEqual(['requested', 'decision', 'outcome']);
  });
});
