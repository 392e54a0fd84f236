import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runHeadless } from '../../src/session/headless';
import { awaitMcpServers } from '../../src/mcp/headless-start';
import { toolNames } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { fixtureServer } from './helpers';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => {
    text += d.toString('utf8');
  });
  return { stream, text: () => text };
}

describe('MCP servers in a headless run', () => {
  it('are started and waited for, so the first request offers their tools; each server gets one line', async () => {
    h = await startSession([{ text: 'listed' }], {
      approver: false,
      session: {
        mcpServers: {
          fx: { ...fixtureServer(), source: 'user' },
          missing: { command: '/nonexistent/warden-no-such-server', source: 'user' },
          repo: { ...fixtureServer(), source: 'project' },
        },
      },
    });
    const out = capture();
    const err = capture();
    const code = await runHeadless(
      h.session,
      'what tools do you have?',
      { json: false },
      { stdout: out.stream, stderr: err.stream },
    );
    expect(code).toBe(0);
    const offered = toolNames(h.fake.requests[0] as NonNullable<(typeof h.fake.requests)[0]>);
    expect(offered).toContain('mcp__fx__echo');
    expect(offered.some((n) => n.startsWith('mcp__repo__') || n.startsWith('mcp__missing__'))).toBe(false);
    const lines = err.text().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(/^warden: MCP server "fx": ready, \d+ tools offered to the model\.$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^warden: MCP server "missing": not started, its tools are not offered: .+/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^warden: MCP server "repo": not started, its tools are not offered: .*project/),
    );
    expect(out.text()).toBe('listed\n');
  });

  it('print nothing when none is configured', async () => {
    h = await startSession([{ text: 'hi' }], { approver: false });
    const err = capture();
    await runHeadless(h.session, 'hi', { json: false }, { stdout: capture().stream, stderr: err.stream });
    expect(err.text()).not.toContain('MCP');
  });
});

describe('awaitMcpServers', () => {
  it('waits no longer than its bound for a server that never settles, and says so', async () => {
    const started = performance.now();
    const lines = await awaitMcpServers(
      new Promise(() => {}),
      () => [{ name: 'slow', status: 'starting', tools: 0 }],
      200,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(lines).toEqual([
      'MCP server "slow": still starting after 200 ms; its tools are not offered to this run.',
    ]);
  });

  it.each([
    [
      { name: 'a', status: 'ready' as const, tools: 1 },
      'MCP server "a": ready, 1 tool offered to the model.',
    ],
    [
      { name: 'b', status: 'failed' as const, tools: 0, error: 'spawn ENOENT' },
      'MCP server "b": not started, its tools are not offered: spawn ENOENT',
    ],
  ])('%o', async (status, line) => {
    expect(await awaitMcpServers(Promise.resolve(), () => [status], 1_000)).toEqual([line]);
  });
});
