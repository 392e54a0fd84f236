import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPolicyCli } from '../../src/gate/policy-cli';
import { readProjectSnapshot } from '../../src/policy/project-files';
import { recordTrust } from '../../src/config/trust-store';
import type { PolicyReport } from '../../src/policy/policy-report';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { tempDirs } from '../helpers/temp-dirs';

const temp = tempDirs();

type Run = { code: number; out: string; err: string };

async function policy(argv: string[], o: { home: string; root: string }): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runPolicyCli(argv, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    home: o.home,
    env: {},
    cwd: o.root,
    sandbox: async () => ({ kind: 'bwrap', path: '/usr/bin/bwrap' }),
  });
  return { code, out, err };
}

const report = (r: Run): PolicyReport => JSON.parse(r.out) as PolicyReport;

function dirs(): { home: string; root: string } {
  return { home: temp('warden-pt-home-'), root: temp('warden-pt-proj-') };
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

describe('warden policy test', () => {
  it('a plain command asks by the built-in rule; nothing runs', async () => {
    const d = dirs();
    const r = await policy(['test', '--json', 'touch made.txt'], d);
    expect(r.code).toBe(0);
    const rep = report(r);
    expect(rep).toMatchObject({
      verdict: 'ask',
      decidedBy: { kind: 'rule', id: 'default-ask-execute_command', source: 'builtin' },
      mode: 'manual',
      sandboxed: true,
    });
    expect(rep.risk.level).toMatch(/low|medium|high/);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(d.root, 'made.txt'))).toBe(false);
  });

  it('names your rule and its file when it allows, and the text form says so', async () => {
    const d = dirs();
    writeJson(join(d.home, 'policy.json'), {
      rules: [{ tool: 'execute_command', when: { command: 'npm test *' }, decision: 'allow' }],
    });
    const rep = report(await policy(['test', '--json', 'npm test -- --watch=false'], d));
    expect(rep.verdict).toBe('allow');
    expect(rep.decidedBy).toMatchObject({ kind: 'rule', source: 'user', file: join(d.home, 'policy.json') });
    expect(rep.decidedBy.text).toContain('npm test *');
    const text = await policy(['test', 'npm', 'test'], d);
    expect(text.out).toContain('ALLOW');
    expect(text.out).toContain(`user rule ${rep.decidedBy.id} in ${join(d.home, 'policy.json')}`);
  });

  it("an untrusted project's allow rule does not count and is said to be held; trusted, it decides", async () => {
    const d = dirs();
    writeJson(join(d.root, '.warden', 'policy.json'), {
      rules: [{ tool: 'execute_command', when: { command: 'make *' }, decision: 'allow' }],
    });
    const held = await policy(['test', '--json', 'make all'], d);
    expect(report(held)).toMatchObject({ verdict: 'ask', heldRules: 1 });
    expect((await policy(['test', 'make all'], d)).out).toContain('do not count');
    recordTrust(d.home, d.root, readProjectSnapshot(d.root, d.home).hash);
    const trusted = report(await policy(['test', '--json', 'make all'], d));
    expect(trusted).toMatchObject({ verdict: 'allow', decidedBy: { source: 'project' } });
    expect(trusted.heldRules).toBeUndefined();
  });

  it('a deny rule, the plan mode and a hard guard each deny, and say which', async () => {
    const d = dirs();
    writeJson(join(d.home, 'policy.json'), {
      rules: [{ tool: 'execute_command', when: { command: 'curl *' }, decision: 'deny' }],
    });
    expect(report(await policy(['test', '--json', 'curl https://example.com'], d))).toMatchObject({
      verdict: 'deny',
      decidedBy: { kind: 'rule', source: 'user' },
    });
    expect(report(await policy(['test', '--json', '--mode', 'plan', 'touch x'], d))).toMatchObject({
      verdict: 'deny',
      decidedBy: { kind: 'mode', id: 'mode-plan' },
    });
    const fenced = report(await policy(['test', '--json', '--cwd', '../..', 'ls'], d));
    expect(fenced).toMatchObject({ verdict: 'deny', decidedBy: { kind: 'guard' } });
  });

  it('shows the parts of a compound command', async () => {
    const rep = report(await policy(['test', '--json', 'git status && rm -rf build'], dirs()));
    expect(rep.parts).toEqual(['git status', 'rm -rf build']);
    expect(rep.risk.level).toBe('high');
  });

  it.each([
    [[], 'say what to do'],
    [['check', 'ls'], 'unknown subcommand'],
    [['test'], 'no command to test'],
    [['test', '   '], 'no command to test'],
    [['test', '--mode', 'yolo', 'ls'], 'unknown mode'],
    [['test', '--bogus', 'ls'], 'unknown option --bogus'],
    [['test', '--root'], '--root needs a value'],
  ])('bad usage %j: a clear error, exit 2', async (argv, says) => {
    const r = await policy(argv, dirs());
    expect(r.code).toBe(2);
    expect(r.err).toContain(says);
    expect(r.out).toBe('');
  });

  it('a broken policy file is named, exit 1', async () => {
    const d = dirs();
    writeFileSync(join(d.home, 'policy.json'), '{"rules": [');
    const r = await policy(['test', 'ls'], d);
    expect(r.code).toBe(1);
    expect(r.err).toContain(join(d.home, 'policy.json'));
  });

  it('--help prints the usage, exit 0', async () => {
    const r = await policy(['--help'], dirs());
    expect(r.code).toBe(0);
    expect(r.out).toContain('warden policy test');
  });
});

describe('the gate explains a command without running it', () => {
  let h: GateHarness | undefined;
  afterEach(() => h?.cleanup());

  it('a grant of this session that covers it is what decides; nothing ran, nothing audited', async () => {
    h = createGateHarness();
    const before = await h.gate.explainCommand('npm test', { agentId: 'main', agentName: 'main' });
    expect(before.ok && before.report.verdict).toBe('ask');
    const scope = {
      tool: 'execute_command',
      match: { kind: 'command_prefix' as const, tokens: ['npm', 'test'] },
      agents: { kind: 'all' as const },
      label: 'execute_command `npm test *`, all agents',
      ruleText: '',
    };
    h.grants.add(scope);
    const after = await h.gate.explainCommand('npm test', { agentId: 'main', agentName: 'main' });
    expect(after.ok && after.report).toMatchObject({
      verdict: 'allow',
      decidedBy: { kind: 'grant', text: scope.label },
    });
    expect(h.ran()).toEqual([]);
    expect(h.records).toEqual([]);
    expect(h.grants.list()[0]?.uses).toBe(0);
  });
});
