/**
 * Issue 33 §4 at the gate: the hosts a command names in `network` reach a person on its card, and
 * only a person's approval of that card (or the person's own `sandbox.network`) hands them to the
 * run — never an allow rule, a mode or a grant. Each connection of the run is its own audit line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest } from '../../src/protocol';
import { defineTool } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

/** execute_command as the gate sees it: it records the hosts it was handed and audits one connection. */
function networkTool(seen: (string[] | undefined)[]) {
  return defineTool({
    name: 'execute_command',
    description: 'Runs a command (stub: records the hosts it may reach).',
    schema: z.strictObject({
      command: z.string(),
      cwd: z.string().optional(),
      network: z.array(z.string()).optional(),
    }),
    kind: 'execute',
    changesFiles: true,
    guarded: { command: 'command', paths: ['cwd'], cwd: 'cwd', network: 'network' },
    async execute(_args, ctx) {
      seen.push(ctx.network?.entries.map((e) => e.text));
      ctx.network?.audit({
        target: 'CONNECT registry.npmjs.org:443',
        decision: 'allow',
        rule: 'network-approved',
      });
      return { ok: true, output: 'ran' };
    },
  });
}

let h: GateHarness;
let seen: (string[] | undefined)[];
const harness = (o: Parameters<typeof createGateHarness>[0] = {}) => {
  seen = [];
  h = createGateHarness({ ...o, tools: [networkTool(seen)] });
  return h;
};
afterEach(() => h?.cleanup());

const install = { command: 'make deps', network: ['registry.npmjs.org', '*.github.com'] };
const preview = (r: ApprovalRequest) => (r.preview.kind === 'command' ? r.preview : undefined);

describe('hosts a command names', () => {
  it('are on its card; approving it hands the run exactly those, and each connection is a line of the call', async () => {
    harness();
    const result = h.call('execute_command', install);
    const request = await h.nextRequest();
    expect(preview(request)?.network).toEqual([{ host: 'registry.npmjs.org' }, { host: '*.github.com' }]);
    expect(request.risk.reasons.join(' ')).toContain(
      "may reach registry.npmjs.org, *.github.com through warden's proxy",
    );
    expect(request.grantOptions).toEqual([]);
    h.gate.decide(request.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(seen).toEqual([['registry.npmjs.org', '*.github.com']]);
    const call = h.records.find((r) => r.phase === 'decision');
    const connection = h.records.find((r) => r.phase === 'connection');
    expect(connection).toMatchObject({
      tool: 'execute_command',
      requestId: request.id,
      argsHash: call?.argsHash,
      args: { connection: 'CONNECT registry.npmjs.org:443' },
      decision: 'allow',
      rule: 'network-approved',
      approver: 'human',
    });
    expect(h.records.map((r) => r.phase)).toEqual(['requested', 'decision', 'connection', 'outcome']);
  });

  it('a command that names none runs without network, as before', async () => {
    harness({ rules: [{ tool: 'execute_command', when: { command: 'make deps' }, decision: 'allow' }] });
    expect((await h.call('execute_command', { command: 'make deps' })).status).toBe('executed');
    expect(seen).toEqual([undefined]);
  });

  it.each([
    [
      'an allow rule for the command',
      { rules: [{ tool: 'execute_command', when: { command: 'make deps' }, decision: 'allow' as const }] },
    ],
    ['auto mode', { mode: 'auto' as const }],
    ['a read-only command (allowed by default)', {}],
  ])('%s does not let it reach them unasked', async (_name, o) => {
    harness(o);
    const command = _name.startsWith('a read-only') ? 'git status' : 'make deps';
    const result = h.call('execute_command', { command, network: ['registry.npmjs.org'] });
    const request = await h.nextRequest();
    expect(request.explanation).toContain('It asks to reach registry.npmjs.org');
    h.gate.decide(request.id, { kind: 'reject' });
    expect((await result).status).toBe('rejected');
    expect(seen).toEqual([]);
  });

  it('hosts the person’s own sandbox.network lists need no card; the rest of the policy still applies', async () => {
    harness({
      network: ['registry.npmjs.org', '*.github.com'],
      rules: [{ tool: 'execute_command', when: { command: 'make deps' }, decision: 'allow' }],
    });
    expect((await h.call('execute_command', install)).status).toBe('executed');
    expect(seen).toEqual([['registry.npmjs.org', '*.github.com']]);
    expect(h.records.find((r) => r.phase === 'connection')?.approver).toBe('rule');
    // One host more than it lists: a person decides, and the card says which one is listed.
    const more = h.call('execute_command', {
      command: 'make deps',
      network: ['registry.npmjs.org', 'evil.example'],
    });
    const request = await h.nextRequest();
    expect(preview(request)?.network).toEqual([
      { host: 'registry.npmjs.org', listed: true },
      { host: 'evil.example' },
    ]);
    h.gate.decide(request.id, { kind: 'reject' });
    await more;
    expect(seen).toHaveLength(1);
  });

  it('no grant covers them: a grant for the command still asks when a call names hosts', async () => {
    harness();
    const first = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    const scope = request.grantOptions.find((s) => s.match.kind === 'tool' && s.agents.kind === 'all');
    h.gate.decide(request.id, { kind: 'approve_all', scope: scope as never });
    await first;
    expect((await h.call('execute_command', { command: 'npm test' })).status).toBe('executed');
    const named = h.call('execute_command', { command: 'npm test', network: ['registry.npmjs.org'] });
    const asked = await h.nextRequest();
    expect(asked.tool).toBe('execute_command');
    h.gate.decide(asked.id, { kind: 'approve' });
    await named;
    expect(seen).toEqual([undefined, undefined, ['registry.npmjs.org']]);
  });

  it('an edit on the card changes which hosts the run may reach', async () => {
    harness();
    const result = h.call('execute_command', install);
    const request = await h.nextRequest();
    h.gate.decide(request.id, {
      kind: 'edit',
      args: { command: 'make deps', network: ['registry.npmjs.org'] },
    });
    await result;
    expect(seen).toEqual([['registry.npmjs.org']]);
  });

  it('an address of this machine is high risk, with its warning on the card', async () => {
    harness();
    const result = h.call('execute_command', { command: 'psql', network: ['127.0.0.1:5432'] });
    const request = await h.nextRequest();
    expect(request.risk.level).toBe('high');
    expect(preview(request)?.network).toEqual([
      { host: '127.0.0.1:5432', warning: 'this machine: a service running here' },
    ]);
    h.gate.decide(request.id, { kind: 'approve' });
    await result;
    expect(seen).toEqual([['127.0.0.1:5432']]);
  });

  it('a command the judge says uses the network but that names no hosts: the card says it runs offline', async () => {
    harness();
    const offline = h.call('execute_command', { command: 'git fetch origin' });
    const first = await h.nextRequest();
    expect(preview(first)?.notes).toContain(
      'it names no hosts (`network`), so it runs with the network off; edit the call to add the hosts it needs',
    );
    h.gate.decide(first.id, { kind: 'reject' });
    await offline;
    const named = h.call('execute_command', { command: 'git fetch origin', network: ['github.com'] });
    const second = await h.nextRequest();
    expect(preview(second)?.notes.join(' ')).not.toContain('names no hosts');
    h.gate.decide(second.id, { kind: 'reject' });
    await named;
  });

  it('plan mode still blocks the command', async () => {
    harness({ mode: 'plan' });
    expect((await h.call('execute_command', install)).status).toBe('blocked');
    expect(seen).toEqual([]);
  });
});
