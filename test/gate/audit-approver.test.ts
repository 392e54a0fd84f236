/** The audit tells who decided: policy, rule, grant, human or none — never "human" for what a rule allowed. */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/protocol/audit';
import type { Approver } from '../../src/protocol';
import { createGateHarness, type GateHarness, type HarnessOptions } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

/** The decision and outcome lines of the one call made so far (after its `requested` line when it asked). */
function lines(): [AuditRecord, AuditRecord] {
  const asked = h.records[0]?.phase === 'requested';
  expect(h.records.map((r) => r.phase)).toEqual(
    asked ? ['requested', 'decision', 'outcome'] : ['decision', 'outcome'],
  );
  if (asked) expect(h.records[0]).toMatchObject({ approver: 'none', decision: 'ask' });
  if (asked) expect(h.records[0]?.outcome).toBeUndefined();
  return h.records.slice(-2) as [AuditRecord, AuditRecord];
}

describe('audit approver, without asking', () => {
  it.each<[string, HarnessOptions, string, unknown, Approver, 'allow' | 'deny', string, string]>([
    [
      'a default allow',
      {},
      'read_file',
      { path: 'a.txt' },
      'policy',
      'allow',
      'default-allow-read_file',
      'error',
    ],
    [
      'a default allow without a path',
      {},
      'glob_files',
      { pattern: '*' },
      'policy',
      'allow',
      'default-allow-glob_files',
      'executed',
    ],
    [
      'auto-edit mode',
      { mode: 'auto-edit' },
      'write_file',
      { path: 'a.txt', content: 'x' },
      'policy',
      'allow',
      'mode-auto-edit',
      'executed',
    ],
    [
      'auto mode',
      { mode: 'auto' },
      'execute_command',
      { command: 'npm test' },
      'policy',
      'allow',
      'mode-auto',
      'executed',
    ],
    [
      'a project allow rule',
      { rules: [{ id: 'p-allow', tool: 'mcp__fake__*', decision: 'allow' }] },
      'mcp__fake__delete',
      { id: '1' },
      'rule',
      'allow',
      'p-allow',
      'executed',
    ],
    [
      'a user allow rule',
      {
        rules: [
          {
            id: 'u-allow',
            source: 'user',
            tool: 'execute_command',
            when: { command: 'npm test *' },
            decision: 'allow',
          },
        ],
      },
      'execute_command',
      { command: 'npm test' },
      'rule',
      'allow',
      'u-allow',
      'executed',
    ],
    [
      'a project deny rule',
      { rules: [{ id: 'p-deny', tool: 'write_file', decision: 'deny' }] },
      'write_file',
      { path: 'a.txt', content: 'x' },
      'rule',
      'deny',
      'p-deny',
      'blocked',
    ],
    [
      'plan mode',
      { mode: 'plan' },
      'write_file',
      { path: 'a.txt', content: 'x' },
      'policy',
      'deny',
      'mode-plan',
      'blocked',
    ],
    [
      'a hard guard over an allow rule',
      { rules: [{ tool: '*', decision: 'allow' }] },
      'write_file',
      { path: '../x.txt', content: 'x' },
      'policy',
      'deny',
      'path-fence',
      'blocked',
    ],
    [
      'the SSRF guard',
      {},
      'web_fetch',
      { url: 'http://127.0.0.1/' },
      'policy',
      'deny',
      'ssrf-address',
      'blocked',
    ],
  ])('%s → %s', async (_label, options, tool, args, approver, decision, rule, outcome) => {
    h = createGateHarness(options);
    await h.call(tool, args);
    const [d, o] = lines();
    for (const line of [d, o])
      expect(line).toMatchObject({
        approver,
        decision,
        rule,
        tool,
        sessionId: 'sess-test',
        agentId: 'main',
        taskId: 'task-1',
      });
    expect(o.outcome).toBe(outcome);
    expect(d.requestId).toBeUndefined();
    expect(h.events.filter((e) => e.type === 'requested')).toEqual([]);
  });
});

describe('audit approver, after asking', () => {
  it.each([
    ['approve', { kind: 'approve' }, 'executed'],
    ['edit', { kind: 'edit', args: { command: 'npm run lint' } }, 'executed'],
    ['reject', { kind: 'reject', reason: 'no' }, 'rejected'],
    ['skip', { kind: 'skip' }, 'skipped'],
  ] as const)('a person decides (%s) → human', async (_label, decision, outcome) => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, decision);
    await result;
    const [d, o] = lines();
    for (const line of [d, o])
      expect(line).toMatchObject({ approver: 'human', decision: 'ask', requestId: request.id });
    expect(o.outcome).toBe(outcome);
  });

  it('a grant → grant; nobody → none', async () => {
    h = createGateHarness();
    const first = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, {
      kind: 'approve_all',
      scope: request.grantOptions.find((s) => s.match.kind === 'tool' && s.agents.kind === 'all') as never,
    });
    await first;
    await h.call('execute_command', { command: 'npm run x' });
    expect(h.records.slice(3).map((r) => [r.phase, r.approver, r.decision])).toEqual([
      ['decision', 'grant', 'ask'],
      ['outcome', 'grant', 'ask'],
    ]);
    h.broker.closeInput();
    await h.call('mcp__fake__delete', { id: '1' });
    expect(h.records.slice(5).map((r) => r.approver)).toEqual(['none', 'none']);
  });

  it('records the parsed arguments, also when the model sent JSON text', async () => {
    h = createGateHarness();
    await h.call('glob_files', '{"pattern": "**/*.ts"}');
    expect(h.records.map((r) => r.args)).toEqual([{ pattern: '**/*.ts' }, { pattern: '**/*.ts' }]);
  });

  it('never human for what a rule, a mode or a default allowed', async () => {
    h = createGateHarness({
      mode: 'auto-edit',
      rules: [
        { tool: 'execute_command', when: { command: 'npm *' }, decision: 'allow' },
        { tool: 'mcp__fake__*', decision: 'allow' },
      ],
    });
    await Promise.all([
      h.call('write_file', { path: 'src/a.ts', content: 'x' }),
      h.call('execute_command', { command: 'npm test' }),
      h.call('mcp__fake__delete', { id: '1' }),
      h.call('read_file', { path: 'src/a.ts' }),
      h.call('glob_files', { pattern: '**' }),
    ]);
    expect(h.records).toHaveLength(10);
    expect(h.records.filter((r) => r.approver === 'human')).toEqual([]);
    expect(h.events).toEqual([]);
  });
});
