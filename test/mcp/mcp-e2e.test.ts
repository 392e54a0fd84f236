import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastToolMessage, type RecordedRequest } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { fixtureServer, tempDir } from './helpers';
import { auditDayFiles } from '../helpers/audit-lines';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const envelope = (req: RecordedRequest | undefined) =>
  JSON.parse(lastToolMessage(req as RecordedRequest)?.content ?? '{}');
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

async function mcpReady(
  harness: SessionHarness,
  name: string,
  status: 'ready' | 'failed' = 'ready',
): Promise<void> {
  await new Promise<void>((resolve) => {
    const check = () =>
      harness.session.client.snapshot().mcp.some((s) => s.name === name && s.status === status)
        ? resolve()
        : undefined;
    const unsubscribe = harness.session.client.subscribe(() => {
      if (harness.session.client.snapshot().mcp.some((s) => s.name === name && s.status === status)) {
        unsubscribe();
        resolve();
      }
    });
    check();
  });
}

describe('MCP tools through the gate, end to end with the fake model', () => {
  it('asks for every MCP tool: an approved call runs, a rejected dangerous one never does', async () => {
    const marker = join(tempDir(), 'deleted');
    h = await startSession(
      [
        call('mcp__fx__echo', { text: 'one' }),
        call('mcp__fx__delete_everything', { path: '/' }),
        { text: 'done' },
      ],
      {
        session: { mcpServers: { fx: { ...fixtureServer({ FIXTURE_MARKER: marker }), source: 'user' } } },
      },
    );
    await mcpReady(h, 'fx');
    const run = h.session.run('use the server');
    const first = await h.nextRequest();
    expect(first).toMatchObject({
      tool: 'mcp__fx__echo',
      rule: { id: 'default-ask-mcp', source: 'builtin' },
    });
    expect(first.grantOptions.some((s) => s.match.kind === 'mcp_server')).toBe(true);
    expect(first.grantOptions.some((s) => s.match.kind === 'tool' && s.tool === 'mcp__fx__echo')).toBe(true);
    h.decide(first.id, { kind: 'approve' });
    const second = await h.nextRequest();
    expect(second.tool).toBe('mcp__fx__delete_everything');
    h.decide(second.id, { kind: 'reject', reason: 'never' });
    await run;
    expect(envelope(h.fake.requests[1])).toMatchObject({
      status: 'executed',
      output: expect.stringContaining('one'),
    });
    expect(envelope(h.fake.requests[2])).toMatchObject({ status: 'rejected', by: 'user', reason: 'never' });
    expect(existsSync(marker)).toBe(false);
  });

  it('approve-all for the server covers its other tools without asking, recorded as a grant', async () => {
    const marker = join(tempDir(), 'deleted');
    h = await startSession(
      [
        call('mcp__fx__echo', { text: 'one' }),
        call('mcp__fx__delete_everything', { path: 'x' }),
        { text: 'done' },
      ],
      {
        session: { mcpServers: { fx: { ...fixtureServer({ FIXTURE_MARKER: marker }), source: 'user' } } },
      },
    );
    await mcpReady(h, 'fx');
    const run = h.session.run('use the server');
    const first = await h.nextRequest();
    const scope = first.grantOptions.find((s) => s.match.kind === 'mcp_server' && s.agents.kind === 'all');
    expect(scope?.tool).toBe('mcp__fx__*');
    h.decide(first.id, { kind: 'approve_all', scope: scope as NonNullable<typeof scope> });
    await run;
    expect(existsSync(marker)).toBe(true);
    expect(h.events.filter((e) => e.type === 'approval_requested')).toHaveLength(1);
    const home = h.home;
    const audit = auditDayFiles(join(home, 'audit')).flatMap((f) =>
      readFileSync(join(home, 'audit', f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    expect(
      audit.some(
        (r) => r.tool === 'mcp__fx__delete_everything' && r.approver === 'grant' && r.outcome === 'executed',
      ),
    ).toBe(true);
  });

  it('a server that fails to start is reported, and its tools are simply not there', async () => {
    h = await startSession([call('mcp__broken__anything', {}), { text: 'ok' }], {
      session: { mcpServers: { broken: { command: 'warden-no-such-command-7d1', source: 'user' } } },
    });
    await mcpReady(h, 'broken', 'failed');
    expect(h.session.client.snapshot().mcp.find((s) => s.name === 'broken')?.error).toBeTruthy();
    await h.session.run('try it');
    expect(envelope(h.fake.requests[1])).toMatchObject({ status: 'error', by: 'gate' });
    expect(envelope(h.fake.requests[1]).reason).toMatch(/no tool named mcp__broken__anything/i);
  });

  it('a server that dies mid-call gives the model a clear error and is marked failed', async () => {
    h = await startSession([call('mcp__fx__crash', {}), { text: 'ok' }], {
      session: { mcpServers: { fx: { ...fixtureServer(), source: 'user' } } },
    });
    await mcpReady(h, 'fx');
    const run = h.session.run('crash it');
    h.decide((await h.nextRequest()).id, { kind: 'approve' });
    await run;
    const env = envelope(h.fake.requests[1]);
    expect(env.status).toBe('error');
    expect(env.reason).toMatch(/fx/);
    await mcpReady(h, 'fx', 'failed');
  });

  it("a project's own servers are held until a person starts them", async () => {
    h = await startSession([], {
      session: { mcpServers: { fx: { ...fixtureServer(), source: 'project' } } },
    });
    await mcpReady(h, 'fx', 'failed');
    expect(h.session.client.snapshot().mcp.find((s) => s.name === 'fx')?.error).toMatch(
      /not started automatically/,
    );
    h.session.client.send({ type: 'restart_mcp', server: 'fx' });
    await mcpReady(h, 'fx', 'ready');
  });
});
