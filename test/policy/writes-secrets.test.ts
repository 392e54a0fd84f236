/**
 * Issue 10 §3 (a command's write targets go through the fence), §5 (read-only commands run free in
 * the sandbox), issue 9 §4 (secrets and the web ask) and MCP opacity in auto mode — through the real
 * command guard and the real gate, asserting what ran, what the card said and what was offered.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PolicyRule } from '../../src/policy/rules';
import type { ApprovalRequest, Mode } from '../../src/protocol';
import { type AnyTool, defineTool, type SandboxInfo } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

const NO_SANDBOX: SandboxInfo = { kind: 'none', reason: 'test' };
const ALLOW_ALL: PolicyRule = { id: 'allow-all', tool: '*', decision: 'allow' };

/** Read and network tools the harness lacks; each records that it ran. */
const extraTools = (ran: string[]): AnyTool[] => [
  defineTool({
    name: 'grep_code',
    description: 'Searches (stub).',
    schema: z.strictObject({ pattern: z.string(), path: z.string().optional() }),
    kind: 'read',
    guarded: { paths: ['path'] },
    async execute(args) {
      ran.push(`grep_code ${args.path ?? '.'}`);
      return { ok: true, output: 'no matches' };
    },
  }),
  defineTool({
    name: 'web_search',
    description: 'Searches the web (stub).',
    schema: z.strictObject({ query: z.string() }),
    kind: 'network',
    async execute(args) {
      ran.push(`web_search ${args.query}`);
      return { ok: true, output: 'results' };
    },
  }),
];

type Seen = { decision: 'allow' | 'ask' | 'deny'; request?: ApprovalRequest; reason?: string; rule?: string };

/** Sends one call and says how the gate treated it; a card is skipped so nothing runs from it. */
async function outcome(g: GateHarness, tool: string, args: Record<string, unknown>): Promise<Seen> {
  const result = g.call(tool, args);
  const first = await Promise.race([
    result.then((r) => ({ r })),
    g.until(() => g.broker.pending()[0]).then((q) => ({ q })),
  ]);
  if ('q' in first) {
    g.gate.decide(first.q.id, { kind: 'skip' });
    await result;
    return { decision: 'ask', request: first.q };
  }
  const rule = g.lastOutcome(tool)?.rule;
  const base = { ...(first.r.reason ? { reason: first.r.reason } : {}), ...(rule ? { rule } : {}) };
  return { decision: first.r.status === 'executed' ? 'allow' : 'deny', ...base };
}

function harness(o: { mode?: Mode; sandbox?: SandboxInfo; rules?: PolicyRule[] } = {}): {
  g: GateHarness;
  extra: string[];
} {
  const extra: string[] = [];
  h = createGateHarness({ ...o, tools: extraTools(extra) });
  return { g: h, extra };
}

const commandPreview = (r: ApprovalRequest | undefined) =>
  r?.preview.kind === 'command' ? r.preview : undefined;

describe('issue 10 §3: a command write target goes through the fence', () => {
  it.each([
    ['echo x > /etc/passwd', 'path-fence'],
    ['echo x >> ../outside.txt', 'path-fence'],
    ['cp a ~/x', 'path-invalid'],
    ['sort -o /home/x a', 'path-fence'],
    ['git log --output=/root/log.txt', 'path-fence'],
    ['ls | tee /var/tmp/x', 'path-fence'],
    ['cd .. && echo x > y', 'path-fence'],
  ])('outside the project → blocked in every mode, over an allow-all rule: %s', async (command, rule) => {
    for (const mode of ['manual', 'auto'] as const) {
      const { g } = harness({ mode, rules: [ALLOW_ALL] });
      const seen = await outcome(g, 'execute_command', { command });
      expect(seen).toMatchObject({ decision: 'deny', rule });
      expect(seen.reason).toMatch(/writes outside the project/);
      expect(g.ran()).toEqual([]);
      g.cleanup();
      h = undefined;
    }
  });

  it('the sandbox’s private /tmp and /dev are not outside; without a sandbox /tmp is', async () => {
    let { g } = harness();
    // Nothing to ask about (issue 27 §1): the write is gone with the run's private /tmp.
    expect(await outcome(g, 'execute_command', { command: 'echo x > /tmp/scratch.txt' })).toMatchObject({
      decision: 'allow',
    });
    const seen = await outcome(g, 'execute_command', {
      command: 'echo x > /tmp/scratch.txt && touch here.txt',
    });
    expect(seen.decision).toBe('ask');
    expect(commandPreview(seen.request)?.writes).toEqual([
      { path: '/tmp/scratch.txt', scratch: true },
      { path: 'here.txt' },
    ]);
    expect((await outcome(g, 'execute_command', { command: 'ls > /dev/null 2>&1' })).decision).toBe('allow');
    g.cleanup();
    ({ g } = harness({ sandbox: NO_SANDBOX }));
    expect(await outcome(g, 'execute_command', { command: 'echo x > /tmp/scratch.txt' })).toMatchObject({
      decision: 'deny',
      rule: 'path-fence',
    });
    expect((await outcome(g, 'execute_command', { command: 'npm test 2>/dev/null' })).decision).toBe('ask');
  });

  it.each([
    ['echo x > package.json', 'package.json'],
    ['echo X=1 >> .env', '.env'],
    ['tee .github/workflows/x.yml', '.github/workflows/x.yml'],
    ['git log --output=.git/x', '.git/x'],
    ['sed -i s/a/b/ package-lock.json', 'package-lock.json'],
  ])(
    'a protected target is high risk, listed on the card, never granted, asks in auto and over allow-all: %s',
    async (command, path) => {
      for (const o of [{}, { mode: 'auto' as const }, { rules: [ALLOW_ALL] }]) {
        const { g } = harness(o);
        const seen = await outcome(g, 'execute_command', { command });
        expect(seen.decision).toBe('ask');
        expect(seen.request?.risk.level).toBe('high');
        expect(seen.request?.risk.reasons.join(' ')).toContain(`writes the protected path ${path}`);
        expect(commandPreview(seen.request)?.writes).toContainEqual({ path, protected: expect.any(String) });
        expect(seen.request?.grantOptions).toEqual([]);
        g.cleanup();
        h = undefined;
      }
    },
  );

  it('a write inside the project is listed, never low risk; relative to the cwd argument', async () => {
    const { g } = harness();
    const seen = await outcome(g, 'execute_command', { command: 'cp a b.txt', cwd: 'sub' });
    expect(seen.request?.risk.level).toBe('medium');
    expect(commandPreview(seen.request)?.writes).toEqual([{ path: 'sub/b.txt' }]);
  });

  it('auto mode runs a write inside the project, below high risk', async () => {
    const { g } = harness({ mode: 'auto' });
    expect(await outcome(g, 'execute_command', { command: 'cp a b.txt' })).toMatchObject({
      decision: 'allow',
      rule: 'mode-auto',
    });
  });
});

describe('issue 10 §5: read-only commands run without a card inside the sandbox', () => {
  it.each(['ls', 'ls -la src', 'cat a.txt | wc -l', 'head -n 5 README.md && rg TODO', 'echo hi'])(
    'sandboxed, manual: %s runs (default-allow-read-only-command)',
    async (command) => {
      const { g } = harness();
      expect(await outcome(g, 'execute_command', { command })).toMatchObject({
        decision: 'allow',
        rule: 'default-allow-read-only-command',
      });
      expect(g.lastOutcome('execute_command')?.risk).toBe('low');
    },
  );

  it.each([
    ['without a sandbox', 'ls', NO_SANDBOX, 'medium'],
    ['a write (a new file: medium, issue 27 §1)', 'ls > out.txt', undefined, 'medium'],
    ['a destructive command', 'rm x', undefined, 'high'],
    ['what the guard cannot judge', 'eval "$x"', undefined, 'high'],
    ['a read of a credential file', 'cat .env', undefined, 'high'],
    ['a read-only command in a protected folder', 'ls', undefined, 'high'],
    ['a read outside the project', 'cat /etc/hostname', undefined, 'low'],
    ['a listing of the parent folder', 'ls ..', undefined, 'low'],
    ['a search from the root', 'find / -name x', undefined, 'low'],
  ] as const)('%s still asks: %s', async (label, command, sandbox, level) => {
    const { g } = harness(sandbox ? { sandbox } : {});
    const args = label.includes('protected folder') ? { command, cwd: '.git' } : { command };
    const seen = await outcome(g, 'execute_command', args);
    expect(seen.decision).toBe('ask');
    expect(seen.request?.risk.level).toBe(level);
  });

  it('a link inside the project that leads out is outside: cat link/hostname asks', async () => {
    const { g } = harness();
    symlinkSync('/etc', join(g.root, 'link'));
    const seen = await outcome(g, 'execute_command', { command: 'cat link/hostname' });
    expect(seen.decision).toBe('ask');
    expect(seen.request?.risk.reasons).toContain('reads link/hostname, outside the project');
  });
});

describe('issue 9 §4: secrets do not leave without a card', () => {
  it.each([
    '.env',
    '.env.local',
    'config/.env.production',
    'keys/id_rsa',
    'id_ed25519',
    'certs/server.pem',
    'tls/server.KEY',
    '.npmrc',
    'config/credentials.json',
    '.aws/credentials',
    'store.p12',
  ])('read_file %s asks, high risk, with no approve-all; over allow-all and in auto too', async (path) => {
    for (const o of [{}, { mode: 'auto' as const }, { rules: [ALLOW_ALL] }]) {
      const { g } = harness(o);
      const seen = await outcome(g, 'read_file', { path });
      expect(seen.decision).toBe('ask');
      expect(seen.request?.risk).toMatchObject({
        level: 'high',
        reasons: [expect.stringContaining(`credential file ${path}`)],
      });
      expect(seen.request?.grantOptions).toEqual([]);
      g.cleanup();
      h = undefined;
    }
  });

  it.each(['.env.example', 'id_rsa.pub', 'src/env.ts', 'docs/keys.md', 'package.json'])(
    'read_file %s runs freely',
    async (path) => {
      const { g } = harness();
      g.write(path, 'text');
      expect((await outcome(g, 'read_file', { path })).decision).toBe('allow');
      expect(g.lastOutcome('read_file')).toMatchObject({ outcome: 'executed', risk: 'low' });
    },
  );

  it('grep_code over a credential file asks; over a folder it runs (the search leaves them out)', async () => {
    const { g, extra } = harness();
    expect((await outcome(g, 'grep_code', { pattern: 'KEY', path: '.env' })).decision).toBe('ask');
    expect((await outcome(g, 'grep_code', { pattern: 'KEY', path: 'certs/a.pem' })).decision).toBe('ask');
    expect((await outcome(g, 'grep_code', { pattern: 'KEY' })).decision).toBe('allow');
    expect(extra).toEqual(['grep_code .']);
  });

  it('a deny rule on .env still denies (deny beats the card)', async () => {
    const { g } = harness({
      rules: [{ id: 'no-env', tool: 'read_file', when: { path: '.env*' }, decision: 'deny' }],
    });
    expect(await outcome(g, 'read_file', { path: '.env' })).toMatchObject({
      decision: 'deny',
      rule: 'no-env',
    });
  });
});

describe('issue 9 §4: the web asks per domain in manual mode; auto allows it below high risk', () => {
  it('web_fetch asks once per domain when the person grants that domain', async () => {
    const { g } = harness();
    const result = g.call('web_fetch', { url: 'https://docs.example.com/a?q=1' });
    const request = await g.nextRequest();
    const domain = request.grantOptions.find((s) => s.match.kind === 'domain' && s.agents.kind === 'all');
    expect(domain).toMatchObject({
      match: { kind: 'domain', domain: 'docs.example.com' },
      label: 'web_fetch to docs.example.com, all agents',
    });
    expect(JSON.parse(domain?.ruleText as string)).toEqual({
      tool: 'web_fetch',
      decision: 'allow',
      when: { domain: 'docs.example.com' },
    });
    g.gate.decide(request.id, { kind: 'approve_all', scope: domain as NonNullable<typeof domain> });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(await outcome(g, 'web_fetch', { url: 'https://DOCS.example.com./b' })).toMatchObject({
      decision: 'allow',
    });
    expect(g.lastOutcome('web_fetch')?.approver).toBe('grant');
    for (const url of [
      'https://evil.example.com/?d=secret',
      'https://docs.example.com.evil.io/',
      'https://example.com/',
    ]) {
      expect((await outcome(g, 'web_fetch', { url })).decision, url).toBe('ask');
    }
  });

  it('web_search asks in manual mode; auto mode runs both', async () => {
    let { g, extra } = harness();
    expect((await outcome(g, 'web_search', { query: 'vitest' })).decision).toBe('ask');
    g.cleanup();
    ({ g, extra } = harness({ mode: 'auto' }));
    expect(await outcome(g, 'web_search', { query: 'vitest' })).toMatchObject({
      decision: 'allow',
      rule: 'mode-auto',
    });
    expect(await outcome(g, 'web_fetch', { url: 'https://example.com/' })).toMatchObject({
      decision: 'allow',
      rule: 'mode-auto',
    });
    expect(extra).toEqual(['web_search vitest']);
  });

  it('the SSRF guard still blocks, whatever was granted', async () => {
    const { g } = harness({ rules: [ALLOW_ALL] });
    expect((await outcome(g, 'web_fetch', { url: 'http://127.0.0.1:8080/admin' })).decision).toBe('deny');
  });
});

describe('MCP tools are opaque: auto mode runs them only when the person’s rule says so', () => {
  it('auto mode asks for an MCP tool by default', async () => {
    const { g } = harness({ mode: 'auto' });
    const seen = await outcome(g, 'mcp__fake__delete', { id: '1' });
    expect(seen.decision).toBe('ask');
    expect(seen.request?.explanation).toMatch(/cannot see what an MCP tool does/);
  });

  it.each(['user', 'project'] as const)(
    'a %s rule allowing the server runs it in auto mode; other servers still ask',
    async (source) => {
      const { g } = harness({
        mode: 'auto',
        rules: [{ tool: 'mcp__fake__*', decision: 'allow', source } as PolicyRule],
      });
      expect((await outcome(g, 'mcp__fake__delete', { id: '1' })).decision).toBe('allow');
      expect((await outcome(g, 'mcp__other__delete', { id: '2' })).decision).toBe('ask');
    },
  );
});
