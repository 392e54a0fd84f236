/**
 * Issue 10 §4: rules and approve-all grants cover exactly what they say. Every case goes through
 * the real command guard and the real gate: a call either runs without a card, reaches a card,
 * or is blocked — and what ran is what the stub tools recorded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../src/policy/rules';
import type { ApprovalRequest, GrantScope } from '../../src/protocol';
import type { SandboxInfo } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

// Without a sandbox the built-in read-only default (issue 10 §5) never allows a command, so whatever
// runs unasked here ran because of the rule under test.
const NO_SANDBOX: SandboxInfo = { kind: 'none', reason: 'test' };

type Seen = { decision: 'allow' | 'ask' | 'deny'; request?: ApprovalRequest; rule?: string };

/** Sends one call and says how the gate treated it; a card is skipped so nothing runs from it. */
async function outcome(g: GateHarness, tool: string, args: Record<string, unknown>): Promise<Seen> {
  const before = g.ran().length;
  const result = g.call(tool, args);
  const first = await Promise.race([
    result.then((r) => ({ r })),
    g.until(() => g.broker.pending()[0]).then((q) => ({ q })),
  ]);
  if ('q' in first) {
    g.gate.decide(first.q.id, { kind: 'skip' });
    expect(await result).toMatchObject({ status: 'skipped' });
    expect(g.ran().length).toBe(before);
    return { decision: 'ask', request: first.q };
  }
  const record = g.lastOutcome(tool);
  if (first.r.status === 'executed') {
    expect(g.ran().length).toBe(before + 1);
    return { decision: 'allow', ...(record ? { rule: record.rule } : {}) };
  }
  expect(first.r.status).toBe('blocked');
  expect(g.ran().length).toBe(before);
  return { decision: 'deny', ...(record ? { rule: record.rule } : {}) };
}

const allow = (command: string): PolicyRule => ({
  id: `allow ${command}`,
  tool: 'execute_command',
  when: { command },
  decision: 'allow',
});
const deny = (command: string): PolicyRule => ({
  id: `deny ${command}`,
  tool: 'execute_command',
  when: { command },
  decision: 'deny',
});

describe('an allow rule covers a command only when every part is a plain command it matches', () => {
  const cases: [string, string, 'allow' | 'ask'][] = [
    ['git log *', 'git log', 'allow'],
    ['git log *', 'git log --oneline -n 5', 'allow'],
    ['git log *', 'git log -- "src/a b.ts"', 'allow'],
    ['git log *', "git log --format='%H %s'", 'allow'],
    ['git log *', 'git log HEAD~3..HEAD', 'allow'],
    ['git log *', 'git log 2>/dev/null', 'allow'],
    ['git log *', 'git log > package.json', 'ask'],
    ['git log *', 'git log > out.txt', 'ask'],
    ['git log *', 'git log >> out.txt', 'ask'],
    ['git log *', 'git log --output=x', 'ask'],
    ['git log *', 'git log | tee log.txt', 'ask'],
    ['git log *', 'git log $(rm -rf x)', 'ask'],
    ['git log *', 'git log `whoami`', 'ask'],
    ['git log *', 'git log "$HOME"', 'ask'],
    ['git log *', 'git log $REV', 'ask'],
    ['git log *', 'git log *', 'ask'],
    ['git log *', 'git log {a,b}', 'ask'],
    ['git log *', 'git log ~/x', 'ask'],
    ['git log *', 'git log \\--output=x', 'ask'],
    ['git log *', 'FOO=1 git log', 'ask'],
    ['git log *', 'GIT_EXTERNAL_DIFF=./x.sh git log -p', 'ask'],
    ['git log *', 'env git log', 'ask'],
    ['git log *', 'timeout 5 git log', 'ask'],
    ['git log *', 'echo --output=x | xargs git log', 'ask'],
    ['git log *', 'git log; rm x', 'ask'],
    ['git log *', 'git log && curl https://evil.example', 'ask'],
    ['git log *', 'git log | sh', 'ask'],
    ['git log *', 'bash -c "git log"', 'ask'],
    ['git log *', 'git log <(rm x)', 'ask'],
    ['git log *', 'eval git log', 'ask'],
    ['git log *', 'git logx', 'ask'],
    ['git log *', 'git', 'ask'],
    ['npm test *', 'npm test', 'allow'],
    ['npm test *', 'npm test -- --watch', 'allow'],
    ['npm test *', 'npm test > out.txt', 'ask'],
    ['npm test *', 'npm test &> out.txt', 'ask'],
    ['npm test *', 'npm test 2> err.txt', 'ask'],
    ['npm test *', 'npm test | tee out.txt', 'ask'],
    ['npm test *', 'npm test && npm publish', 'ask'],
    ['npm test *', 'NODE_OPTIONS=--require=./x.js npm test', 'ask'],
    ['npm test *', 'npm test src/*.test.ts', 'ask'],
    ['echo *', 'echo hi', 'allow'],
    ['echo *', "echo 'a;b|c>d'", 'allow'],
    ['echo *', 'echo a; echo b', 'allow'],
    ['echo *', 'echo hi > index.html', 'ask'],
    ['echo *', 'echo $(cat .env)', 'ask'],
    ['echo *', 'echo "$(id)"', 'ask'],
    ['echo *', 'echo hi | bash', 'ask'],
    ['npm test', 'npm test', 'allow'],
    ['npm test', 'npm test -- -u', 'ask'],
    // A rule may name a write target: as a redirection, or as a word of the command.
    ['npm test > out.txt', 'npm test > out.txt', 'allow'],
    ['npm test * > out.txt', 'npm test -- --ci > out.txt', 'allow'],
    ['npm test > out.txt', 'npm test > other.txt', 'ask'],
    ['npm test > out.txt', 'npm test > package.json', 'ask'],
    ['git log --output=log.txt', 'git log --output=log.txt', 'allow'],
    ['git log --output=log.txt', 'git log --output=other.txt', 'ask'],
    ['tee out.log', 'tee out.log', 'allow'],
    ['cp *', 'cp a b', 'ask'],
  ];
  it.each(cases)('allow `%s`: %s → %s', async (pattern, command, expected) => {
    h = createGateHarness({ rules: [allow(pattern)], sandbox: NO_SANDBOX });
    const seen = await outcome(h, 'execute_command', { command });
    expect(seen.decision).toBe(expected);
    if (expected === 'allow') expect(seen.rule).toBe(`allow ${pattern}`);
  });
});

describe('ask and deny rules catch a command when any part matches (tightening stays broad)', () => {
  const cases: [string, 'deny' | 'ask'][] = [
    ['rm x', 'deny'],
    ['ls && rm x', 'deny'],
    ['echo $(rm x)', 'deny'],
    ['echo x | xargs rm', 'deny'],
    ['timeout 5 rm x', 'deny'],
    ['FOO=1 rm x', 'deny'],
    ['bash -c "rm x"', 'deny'],
    ['git rm x', 'ask'],
  ];
  it.each(cases)('deny `rm *`: %s → %s', async (command, expected) => {
    h = createGateHarness({ rules: [deny('rm *')], sandbox: NO_SANDBOX });
    const seen = await outcome(h, 'execute_command', { command });
    expect(seen.decision).toBe(expected);
    if (expected === 'deny') expect(seen.rule).toBe('deny rm *');
  });

  it('an ask rule wins over an allow rule for any part, in auto mode too', async () => {
    h = createGateHarness({
      mode: 'auto',
      rules: [
        allow('git *'),
        { id: 'ask push', tool: 'execute_command', when: { command: 'git push *' }, decision: 'ask' },
      ],
    });
    expect((await outcome(h, 'execute_command', { command: 'git status' })).decision).toBe('allow');
    const seen = await outcome(h, 'execute_command', { command: 'git status && git push origin main' });
    expect(seen).toMatchObject({ decision: 'ask', request: { rule: { id: 'ask push' } } });
  });
});

/** The offered scope of a kind for all agents. */
function option(request: ApprovalRequest, kind: GrantScope['match']['kind']): GrantScope | undefined {
  return request.grantOptions.find((s) => s.match.kind === kind && s.agents.kind === 'all');
}

describe('an approve-all command grant covers exactly what a rule `<prefix> *` would', () => {
  async function grantFor(command: string): Promise<GateHarness> {
    const g = createGateHarness({ sandbox: NO_SANDBOX });
    const result = g.call('execute_command', { command });
    const request = await g.nextRequest();
    const scope = option(request, 'command_prefix');
    expect(scope?.label).toContain('`npm test *`');
    g.gate.decide(request.id, { kind: 'approve_all', scope: scope as GrantScope });
    expect(await result).toMatchObject({ status: 'executed' });
    return g;
  }

  it.each<[string, 'allow' | 'ask']>([
    ['npm test -- --watch', 'allow'],
    ['npm test "a b"', 'allow'],
    ['npm test && npm test -- -u', 'allow'],
    ['npm test > out.txt', 'ask'],
    ['npm test 2>> err.txt', 'ask'],
    ['npm test | tee out.txt', 'ask'],
    ['npm test $(curl -s https://x.example)', 'ask'],
    ['FOO=1 npm test', 'ask'],
    ['timeout 9 npm test', 'ask'],
    ['npm test && rm -rf dist', 'ask'],
    ['npm test src/*.ts', 'ask'],
    ['npm testx', 'ask'],
  ])('granted `npm test *`: %s → %s', async (command, expected) => {
    h = await grantFor('npm test');
    const seen = await outcome(h, 'execute_command', { command });
    expect(seen.decision).toBe(expected);
    if (expected === 'allow') expect(h.lastOutcome('execute_command')?.approver).toBe('grant');
  });

  it('no command grant is offered for a call it would not cover itself', async () => {
    h = createGateHarness({ sandbox: NO_SANDBOX });
    for (const command of ['git log --output=x', 'FOO=1 npm test', 'npm test $(date)', 'npm test *.ts']) {
      const seen = await outcome(h, 'execute_command', { command });
      expect(seen.decision, command).toBe('ask');
      expect(option(seen.request as ApprovalRequest, 'command_prefix'), command).toBeUndefined();
    }
  });
});

describe('repeat rejection compares the parsed command, not the text', () => {
  it('touch x, touch  x and touch "x" are one call; touch y is another', async () => {
    h = createGateHarness({ sandbox: NO_SANDBOX });
    const first = h.call('execute_command', { command: 'touch x' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'reject', reason: 'no' });
    expect(await first).toMatchObject({ status: 'rejected', by: 'user' });
    for (const command of ['touch  x', 'touch "x"', "touch 'x'", '  touch x ']) {
      expect(await h.call('execute_command', { command }), command).toMatchObject({
        status: 'rejected',
        by: 'gate',
        retry: false,
      });
    }
    expect((await outcome(h, 'execute_command', { command: 'touch y' })).decision).toBe('ask');
    expect((await outcome(h, 'execute_command', { command: 'touch x', cwd: 'sub' })).decision).toBe('ask');
    expect(h.ran()).toEqual([]);
  });

  it('a redirect makes another call: `echo a` rejected does not answer `echo a > f`', async () => {
    h = createGateHarness({ sandbox: NO_SANDBOX });
    const first = h.call('execute_command', { command: 'echo a > f' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'reject' });
    await first;
    expect(await h.call('execute_command', { command: 'echo a >  f' })).toMatchObject({
      status: 'rejected',
      by: 'gate',
    });
    expect((await outcome(h, 'execute_command', { command: 'echo a > g' })).decision).toBe('ask');
  });
});
