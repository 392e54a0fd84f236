import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import type { CoreEvent, ToolResultEnvelope } from '../../src/protocol';
import { startFromConfig } from '../../src/trust/start';
import { readTrustRecords, recordTrust } from '../../src/config/trust-store';
import { readProjectSnapshot } from '../../src/policy/project-files';
import { fixtureServer } from '../mcp/helpers';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
const extra: string[] = [];
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  for (const dir of extra.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const write = (path: string) => ({ toolCalls: [{ name: 'write_file', args: { path, content: 'x\n' } }] });
const ALLOW_ALL = JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] });
const results = (events: CoreEvent[]): ToolResultEnvelope[] =>
  events.flatMap((e) => (e.type === 'tool_finished' ? [e.result] : []));
const until = async (h: SessionHarness, pick: () => boolean): Promise<void> => {
  await new Promise<void>((resolve) => {
    if (pick()) return resolve();
    const off = h.session.client.subscribe(() => {
      if (pick()) {
        off();
        resolve();
      }
    });
  });
};

describe('a cloned repository cannot loosen the gate', () => {
  it('an allow-all project policy is held: writes still ask, /policy counts it held, the card asks', async () => {
    h = await startSession([write('a.txt'), { text: 'ok' }], { files: { '.warden/policy.json': ALLOW_ALL } });
    const trust = h.session.client.snapshot().trust;
    expect(trust).toMatchObject({
      status: 'untrusted',
      asking: true,
      items: [{ kind: 'rule', text: expect.stringContaining('allow * (every tool, every call)') }],
    });
    expect(h.session.client.snapshot().policy?.sources.find((s) => s.source === 'project')).toMatchObject({
      rules: 0,
      held: 1,
    });
    const run = h.session.run('write');
    const request = await h.nextRequest();
    expect(request.tool).toBe('write_file');
    h.decide(request.id, { kind: 'reject', reason: 'no' });
    await run;
    expect(existsSync(join(h.root, 'a.txt'))).toBe(false);
  });

  it('trusting from the card records the hash and the rules count from the next call; a changed file asks again', async () => {
    h = await startSession([write('a.txt'), { text: 'one' }, write('b.txt'), { text: 'two' }], {
      files: { '.warden/policy.json': ALLOW_ALL },
    });
    const hash = h.session.client.snapshot().trust?.hash ?? '';
    h.session.client.send({ type: 'trust_project', trust: true, hash });
    expect(
      h.events.some(
        (e) => e.type === 'trust_changed' && e.trust.status === 'trusted' && e.trust.by === 'person',
      ),
    ).toBe(true);
    expect(readTrustRecords(h.home)[h.root]?.hash).toBe(hash);
    await h.session.run('write a');
    expect(readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe('x\n');
    expect(h.session.client.snapshot().pending).toEqual([]);
    // The repository changes its rules: the re-check before the next turn holds them again.
    writeFileSync(
      join(h.root, '.warden', 'policy.json'),
      JSON.stringify({
        rules: [
          { tool: '*', decision: 'allow' },
          { tool: 'execute_command', decision: 'allow' },
        ],
      }),
    );
    const run = h.session.run('write b');
    const request = await h.nextRequest();
    expect(request.tool).toBe('write_file');
    expect(h.session.client.snapshot().trust).toMatchObject({ status: 'untrusted', asking: true });
    h.decide(request.id, { kind: 'reject' });
    await run;
  });

  it('untrusted, a project deny rule counts at once', async () => {
    const rules = {
      rules: [
        { id: 'no-writes', tool: 'write_file', decision: 'deny' },
        { tool: '*', decision: 'allow' },
      ],
    };
    h = await startSession([write('a.txt'), { text: 'ok' }], {
      files: { '.warden/policy.json': JSON.stringify(rules) },
    });
    await h.session.run('write');
    expect(results(h.events)[0]).toMatchObject({ status: 'blocked', rule: 'no-writes' });
  });

  it('keeping the files untrusted closes the card and records nothing; a stale card answer trusts nothing', async () => {
    h = await startSession([], { files: { '.warden/policy.json': ALLOW_ALL } });
    h.session.client.send({ type: 'trust_project', trust: true, hash: 'f'.repeat(64) });
    expect(h.session.client.snapshot().trust?.status).toBe('untrusted');
    const hash = h.session.client.snapshot().trust?.hash ?? '';
    h.session.client.send({ type: 'trust_project', trust: false, hash });
    expect(h.session.client.snapshot().trust).toMatchObject({ status: 'untrusted', asking: false });
    expect(existsSync(join(h.home, 'trust.json'))).toBe(false);
  });

  /** A project and a home of the test's own (the harness's root is replaced by `session.root`). */
  const own = (files: Record<string, string>): { root: string; home: string } => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-proj-')));
    const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    extra.push(root, home);
    mkdirSync(join(root, '.warden'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, '.warden', name), text);
    return { root, home };
  };

  it('a trust record for this exact content counts at start: no card, the rules in force', async () => {
    const { root, home } = own({ 'policy.json': ALLOW_ALL });
    const snapshot = readProjectSnapshot(root, home);
    recordTrust(home, snapshot.root, snapshot.hash);
    h = await startSession([write('a.txt'), { text: 'ok' }], { session: { root, home } });
    expect(h.session.client.snapshot().trust).toMatchObject({
      status: 'trusted',
      asking: false,
      by: 'record',
    });
    await h.session.run('write');
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
  });

  it('a held auto-edit mode takes effect when the person trusts the files (through the real config loader)', async () => {
    const { root, home } = own({ 'config.json': JSON.stringify({ mode: 'auto-edit' }) });
    const loaded = loadConfig({ home, root, env: {} });
    if (!loaded.ok || !loaded.project) throw new Error('config');
    h = await startSession([], {
      session: { root, home, mode: loaded.config.mode, project: startFromConfig(home, loaded.project) },
    });
    expect(h.session.client.snapshot()).toMatchObject({
      mode: 'manual',
      trust: {
        status: 'untrusted',
        items: [{ kind: 'setting', text: expect.stringContaining('auto-edit') }],
      },
    });
    h.session.client.send({
      type: 'trust_project',
      trust: true,
      hash: h.session.client.snapshot().trust?.hash ?? '',
    });
    expect(h.session.client.snapshot().mode).toBe('auto-edit');
  });
});

describe("warden's own settings cannot be changed behind the gate", () => {
  it('an MCP tool that rewrites $WARDEN_HOME/policy.json: the change is put back and kept aside, with a notice', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    extra.push(home);
    const policy = JSON.stringify({ rules: [{ tool: 'mcp__fx__*', decision: 'allow' }] });
    writeFileSync(join(home, 'policy.json'), policy);
    h = await startSession(
      [{ toolCalls: [{ name: 'mcp__fx__delete_everything', args: { path: 'x' } }] }, { text: 'done' }],
      {
        session: {
          home,
          mcpServers: {
            fx: { ...fixtureServer({ FIXTURE_MARKER: join(home, 'policy.json') }), source: 'user' },
          },
        },
      },
    );
    const harness = h;
    await until(harness, () =>
      harness.session.client.snapshot().mcp.some((s) => s.name === 'fx' && s.status === 'ready'),
    );
    await harness.session.run('go');
    expect(results(harness.events)[0]).toMatchObject({ status: 'executed' });
    expect(readFileSync(join(home, 'policy.json'), 'utf8')).toBe(policy);
    const aside = readdirSync(home).filter((f) => f.startsWith('policy.json.rejected-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(home, aside[0] as string), 'utf8')).toBe('deleted x\n');
    expect(
      harness.events.some(
        (e) =>
          e.type === 'notice' &&
          e.level === 'error' &&
          e.text.includes('changed behind the gate while mcp__fx__delete_everything ran'),
      ),
    ).toBe(true);
  });

  it('WARDEN_HOME inside the project: a write there is refused by the fence (no card, in any mode)', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-proj-')));
    extra.push(root);
    h = await startSession([write('.wh/policy.json'), { text: 'ok' }], {
      session: { mode: 'auto-edit', root, home: join(root, '.wh') },
    });
    await h.session.run('write');
    expect(h.session.client.snapshot().pending).toEqual([]);
    expect(existsSync(join(root, '.wh', 'policy.json'))).toBe(false);
  });
});
