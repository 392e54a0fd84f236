import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadCommandGuard } from '../../src/policy/command/command-guard';
import type { CommandPart, CommandVerdict } from '../../src/policy/command/command-types';
import { type CallFacts, gatherFacts } from '../../src/policy/facts';
import { PathFence } from '../../src/policy/guards/path-guard';
import { type PolicyResult, resolvePolicy } from '../../src/policy/resolve';
import type { LoadedRule, PolicyRule } from '../../src/policy/rules';
import type { Mode } from '../../src/protocol';
import { type AnyTool, defineTool, type SandboxInfo } from '../../src/tools/types';
import { stubTools } from '../helpers/gate-harness';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-policy-')));
const root = join(base, 'project');
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(join(root, 'lib'), { recursive: true });
mkdirSync(join(base, 'outside'));
writeFileSync(join(root, 'package.json'), '{}');
// A folder under src/ that really lives in lib/: rules must see the real path.
symlinkSync(join(root, 'lib'), join(root, 'src', 'lib-link'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const fence = new PathFence(root);
const commands = await loadCommandGuard();
const BWRAP: SandboxInfo = { kind: 'bwrap', path: '/usr/bin/bwrap' };
const NO_SANDBOX: SandboxInfo = { kind: 'none', reason: 'test' };

const plain = (name: string, kind: AnyTool['kind'], guarded?: AnyTool['guarded']): AnyTool =>
  defineTool({
    name,
    description: name,
    schema: z.record(z.string(), z.unknown()),
    kind,
    ...(guarded ? { guarded } : {}),
    execute: async () => ({ ok: true, output: '' }),
  });

const TOOLS = new Map<string, AnyTool>(
  [
    ...stubTools(join(base, 'ran.log')),
    plain('list_dir', 'read', { paths: ['path'] }),
    plain('grep_code', 'read', { paths: ['path'] }),
    plain('create_project', 'write', { paths: ['path'] }),
    plain('revert_turn', 'write'),
    plain('mcp__github__list_issues', 'execute'),
    plain('mcp__github__create_issue', 'execute'),
    plain('mcp__gitlab__list_issues', 'execute'),
    plain('frobnicate', 'execute'),
    plain('move_file', 'write', { paths: ['from', 'to'] }),
  ].map((t) => [t.name, t]),
);

/** Facts of a call, as the gate gathers them. */
function facts(tool: string, args: Record<string, unknown>, sandbox: SandboxInfo = BWRAP): CallFacts {
  const def = TOOLS.get(tool);
  if (!def) throw new Error(`no test tool ${tool}`);
  return gatherFacts(def, args, { fence, commands, sandbox });
}

let n = 0;
const rule = (r: PolicyRule, source: 'user' | 'project' = 'project'): LoadedRule => ({
  ...r,
  id: r.id ?? `${source}#${++n}`,
  source,
});

function decide(f: CallFacts, rules: LoadedRule[] = [], mode: Mode = 'manual'): PolicyResult {
  return resolvePolicy(f, { rules, mode });
}

const write = (path: string, content = 'x') => facts('write_file', { path, content });
const exec = (command: string, sandbox: SandboxInfo = BWRAP) =>
  facts('execute_command', { command }, sandbox);

describe('built-in defaults (manual mode, no rules)', () => {
  it.each([
    ['read_file', { path: 'src/a.ts' }, 'allow', 'default-allow-read_file'],
    ['list_dir', {}, 'allow', 'default-allow-list_dir'],
    ['glob_files', { pattern: '**/*.ts' }, 'allow', 'default-allow-glob_files'],
    ['grep_code', { pattern: 'x' }, 'allow', 'default-allow-grep_code'],
    ['write_file', { path: 'src/a.ts', content: 'x' }, 'ask', 'default-ask-write_file'],
    ['execute_command', { command: 'npm test' }, 'ask', 'default-ask-execute_command'],
    ['create_project', { path: 'new-app' }, 'ask', 'default-ask-create_project'],
    ['revert_turn', { turns: 1 }, 'ask', 'default-ask-revert_turn'],
    ['mcp__fake__delete', { id: '1' }, 'ask', 'default-ask-mcp'],
    ['mcp__github__list_issues', {}, 'ask', 'default-ask-mcp'],
    ['frobnicate', {}, 'ask', 'default-ask-any'],
  ] as const)('%s → %s (%s)', (tool, args, decision, id) => {
    const result = decide(facts(tool, { ...args }));
    expect(result.decision).toBe(decision);
    expect(result.rule).toEqual({ id, source: 'builtin' });
    expect(result.explanation).toMatch(/^[A-Z].*\.$/);
  });
});

describe('risk', () => {
  it.each<[string, () => CallFacts, 'low' | 'medium' | 'high', RegExp]>([
    ['a read', () => facts('read_file', { path: 'src/a.ts' }), 'low', /^$/],
    ['a read of a protected path', () => facts('read_file', { path: 'package.json' }), 'low', /^$/],
    [
      'a write inside the project',
      () => write('src/a.ts'),
      'medium',
      /src\/a\.ts (.*undo restores it|\(a new file\))/,
    ],
    ['a write to package.json', () => write('package.json'), 'high', /protected path package.json/],
    ['a write under .git/', () => write('.git/config'), 'high', /protected path \.git\/config/],
    ['a write to .env.local', () => write('.env.local'), 'high', /protected path/],
    // git is no longer read-only to the guard (repository config can run programs, issue 10 §1).
    ['a read-only command', () => exec('ls src'), 'low', /read-only command/],
    ['a read-only compound', () => exec('cat src/a.ts | wc -l && ls'), 'low', /read-only command/],
    ['an ordinary command', () => exec('npm test'), 'medium', /^$/],
    ['rm', () => exec('rm -r build'), 'high', /deletes files/],
    ['git push --force', () => exec('git push --force origin main'), 'high', /rewriting remote history/],
    ['git reset --hard', () => exec('git reset --hard HEAD~1'), 'high', /discards uncommitted/],
    ['npm publish', () => exec('npm publish'), 'high', /publishes/],
    ['rm hidden behind a read-only part', () => exec('ls; rm x'), 'high', /deletes files/],
    ['a command the guard cannot judge', () => exec('eval "$x"'), 'high', /cannot judge/],
    ['a command name known only at run time', () => exec('$CMD foo'), 'high', /cannot judge/],
    ['a read-only command without a sandbox', () => exec('ls', NO_SANDBOX), 'medium', /without a sandbox/],
    [
      'an ordinary command without a sandbox',
      () => exec('npm test', NO_SANDBOX),
      'medium',
      /without a sandbox/,
    ],
    [
      'a read-only command in a protected folder',
      () => facts('execute_command', { command: 'ls', cwd: '.git' }),
      'high',
      /protected path \.git/,
    ],
    ['an MCP tool', () => facts('mcp__fake__delete', { id: '1' }), 'medium', /MCP server fake/],
  ])('%s → %s', (_label, make, level, reason) => {
    const { risk } = decide(make());
    expect(risk.level).toBe(level);
    expect(risk.reasons.join(' | ')).toMatch(reason);
  });

  it('a rule may raise the risk, never lower it', () => {
    expect(
      decide(facts('mcp__fake__delete', { id: '1' }), [
        rule({ tool: 'mcp__fake__*', decision: 'ask', risk: 'high' }),
      ]).risk.level,
    ).toBe('high');
    expect(
      decide(exec('rm x'), [rule({ tool: 'execute_command', decision: 'ask', risk: 'low' })]).risk.level,
    ).toBe('high');
  });
});

describe('user and project rules', () => {
  it('tool globs: mcp__github__* covers that server only', () => {
    const rules = [rule({ tool: 'mcp__github__*', decision: 'allow' })];
    expect(decide(facts('mcp__github__list_issues', {}), rules)).toMatchObject({
      decision: 'allow',
      rule: { id: rules[0]?.id, source: 'project' },
    });
    expect(decide(facts('mcp__github__create_issue', {}), rules).decision).toBe('allow');
    expect(decide(facts('mcp__gitlab__list_issues', {}), rules)).toMatchObject({
      decision: 'ask',
      rule: { id: 'default-ask-mcp' },
    });
  });

  it('path globs match the fenced real path, relative to the project', () => {
    const rules = [rule({ tool: 'write_file', when: { path: 'src/**' }, decision: 'allow' })];
    expect(decide(write('src/a.ts'), rules).decision).toBe('allow');
    expect(decide(write('src/deep/er/a.ts'), rules).decision).toBe('allow');
    expect(decide(write(`${root}/src/a.ts`), rules).decision).toBe('allow');
    expect(decide(write('lib/a.ts'), rules).decision).toBe('ask');
    expect(decide(write('src/../lib/a.ts'), rules).decision).toBe('ask');
    // src/lib-link is a symlink to lib/: the real path is lib/a.ts.
    expect(decide(write('src/lib-link/a.ts'), rules).decision).toBe('ask');
    expect(decide(write('srcx/a.ts'), rules).decision).toBe('ask');
  });

  it.each([
    ['git diff', 'allow'],
    ['git diff HEAD~1 -- src', 'allow'],
    ['git diff && git diff --stat', 'allow'],
    ['git diff; rm -rf x', 'ask'],
    ['git diff && git commit -m x', 'ask'],
    ['git diff | sh', 'ask'],
    ['git diffx', 'ask'],
    // Read-only by default in a repository whose config runs nothing (issue 27 §3), not by the rule.
    ['git status', 'allow'],
    ['git stash', 'ask'],
    ['git', 'ask'],
    ['echo $(git diff) > out.txt', 'ask'],
  ] as const)('command prefix allow `git diff *`: %s → %s', (command, decision) => {
    const rules = [rule({ tool: 'execute_command', when: { command: 'git diff *' }, decision: 'allow' })];
    expect(decide(exec(command), rules).decision).toBe(decision);
  });

  it('a closed command prefix (no *) allows exactly that command', () => {
    const rules = [rule({ tool: 'execute_command', when: { command: 'npm test' }, decision: 'allow' })];
    expect(decide(exec('npm test'), rules).decision).toBe('allow');
    expect(decide(exec('npm test -- --watch'), rules).decision).toBe('ask');
  });

  it.each([
    ['rm x', 'deny'],
    ['ls; rm x', 'deny'],
    ['ls && rm -r build', 'deny'],
    // `ls` is read-only and sandboxed: the built-in default runs it (issue 10 §5); the deny rule does not catch it.
    ['ls', 'allow'],
    ['git rm x', 'ask'],
  ] as const)('command prefix deny `rm *`: %s → %s', (command, decision) => {
    const rules = [rule({ tool: 'execute_command', when: { command: 'rm *' }, decision: 'deny' })];
    expect(decide(exec(command), rules).decision).toBe(decision);
  });

  it('exact argument values', () => {
    const rules = [rule({ tool: 'mcp__fake__delete', when: { args: { id: 'tmp' } }, decision: 'allow' })];
    expect(decide(facts('mcp__fake__delete', { id: 'tmp' }), rules).decision).toBe('allow');
    expect(decide(facts('mcp__fake__delete', { id: 'prod' }), rules).decision).toBe('ask');
  });

  it('regular expressions over string arguments', () => {
    const rules = [
      rule({ tool: 'web_fetch', when: { regex: { url: '^https://internal\\.' } }, decision: 'deny' }),
    ];
    expect(decide(facts('web_fetch', { url: 'https://internal.example.com/x' }), rules).decision).toBe(
      'deny',
    );
    // web_fetch asks per domain by default (issue 9 §4): not denied, not allowed either.
    expect(decide(facts('web_fetch', { url: 'https://docs.example.com/x' }), rules).decision).toBe('ask');
  });

  it('domain globs', () => {
    const rules = [rule({ tool: 'web_fetch', when: { domain: '*.example.com' }, decision: 'deny' })];
    expect(decide(facts('web_fetch', { url: 'https://api.example.com/x' }), rules).decision).toBe('deny');
    expect(decide(facts('web_fetch', { url: 'https://EXAMPLE.com./x' }), rules).decision).toBe('deny');
    expect(decide(facts('web_fetch', { url: 'https://notexample.com/x' }), rules).decision).toBe('ask');
    expect(decide(facts('web_fetch', { url: 'https://example.com.evil.io/x' }), rules).decision).toBe('ask');
  });

  it('with two paths, an allow rule must cover both; a deny rule catches either', () => {
    const allow = [rule({ tool: 'move_file', when: { path: 'src/**' }, decision: 'allow' })];
    expect(decide(facts('move_file', { from: 'src/a.ts', to: 'src/b.ts' }), allow).decision).toBe('allow');
    expect(decide(facts('move_file', { from: 'src/a.ts', to: 'lib/b.ts' }), allow).decision).toBe('ask');
    const deny = [rule({ tool: '*', when: { path: 'secret/**' }, decision: 'deny' })];
    expect(decide(facts('move_file', { from: 'secret/key', to: 'src/key' }), deny).decision).toBe('deny');
    expect(decide(facts('move_file', { from: 'src/key', to: 'secret/key' }), deny).decision).toBe('deny');
    expect(decide(facts('move_file', { from: 'src/a', to: 'src/b' }), deny).decision).toBe('ask');
  });

  it('every matcher of a rule must match', () => {
    const rules = [
      rule({ tool: 'execute_command', when: { command: 'npm *', path: 'src/**' }, decision: 'allow' }),
    ];
    expect(decide(facts('execute_command', { command: 'npm test', cwd: 'src' }), rules).decision).toBe(
      'allow',
    );
    expect(decide(facts('execute_command', { command: 'npm test', cwd: 'lib' }), rules).decision).toBe('ask');
  });

  const three = [
    rule({ tool: 'write_file', decision: 'allow' }),
    rule({ tool: 'write_file', when: { path: 'src/**' }, decision: 'ask' }),
    rule({ tool: '*', when: { path: 'src/secret/**' }, decision: 'deny' }),
  ];
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  it.each(orders)('deny beats ask beats allow whatever the order (%i %i %i)', (...order) => {
    const rules = order.map((i) => three[i] as LoadedRule);
    expect(decide(write('src/secret/key.pem'), rules)).toMatchObject({
      decision: 'deny',
      rule: { id: three[2]?.id },
    });
    expect(decide(write('src/a.ts'), rules)).toMatchObject({ decision: 'ask', rule: { id: three[1]?.id } });
    expect(decide(write('lib/a.ts'), rules)).toMatchObject({ decision: 'allow', rule: { id: three[0]?.id } });
  });

  it('built-in defaults apply only when no user or project rule matches', () => {
    const ownAsk = [rule({ tool: 'read_file', decision: 'ask' }, 'user')];
    expect(decide(facts('read_file', { path: 'src/a.ts' }), ownAsk)).toMatchObject({
      decision: 'ask',
      rule: { source: 'user' },
    });
    const ownAllow = [rule({ tool: 'write_file', when: { path: 'src/**' }, decision: 'allow' })];
    expect(decide(write('src/a.ts'), ownAllow).rule.source).toBe('project');
    expect(decide(write('lib/a.ts'), ownAllow).rule).toEqual({
      id: 'default-ask-write_file',
      source: 'builtin',
    });
  });

  it('a rule message becomes the explanation', () => {
    const rules = [
      rule({
        tool: 'execute_command',
        when: { command: 'curl *' },
        decision: 'deny',
        message: 'no network from the shell',
      }),
    ];
    expect(decide(exec('curl x'), rules).explanation).toBe('No network from the shell.');
  });
});

describe('modes', () => {
  const cases: [Mode, string, () => CallFacts, 'allow' | 'ask' | 'deny', string][] = [
    ['manual', 'write inside', () => write('src/a.ts'), 'ask', 'default-ask-write_file'],
    ['auto-edit', 'write inside', () => write('src/a.ts'), 'allow', 'mode-auto-edit'],
    ['auto-edit', 'write to a protected path', () => write('package.json'), 'ask', 'default-ask-write_file'],
    ['auto-edit', 'a command', () => exec('npm test'), 'ask', 'default-ask-execute_command'],
    ['auto-edit', 'an MCP tool', () => facts('mcp__fake__delete', { id: '1' }), 'ask', 'default-ask-mcp'],
    ['plan', 'write inside', () => write('src/a.ts'), 'deny', 'mode-plan'],
    ['plan', 'a read-only command', () => exec('ls'), 'deny', 'mode-plan'],
    ['plan', 'an MCP tool', () => facts('mcp__fake__delete', { id: '1' }), 'deny', 'mode-plan'],
    ['plan', 'create_project', () => facts('create_project', { path: 'x' }), 'deny', 'mode-plan'],
    ['plan', 'read_file', () => facts('read_file', { path: 'src/a.ts' }), 'allow', 'default-allow-read_file'],
    ['plan', 'glob_files', () => facts('glob_files', { pattern: '*' }), 'allow', 'default-allow-glob_files'],
    [
      'plan',
      'web_fetch',
      () => facts('web_fetch', { url: 'https://example.com' }),
      'ask',
      'default-ask-web_fetch',
    ],
    [
      'plan',
      'propose_plan',
      () => facts('propose_plan', { steps: ['a'] }),
      'ask',
      'default-ask-propose_plan',
    ],
    ['plan', 'ask_user', () => facts('ask_user', { question: 'q' }), 'ask', 'default-ask-ask_user'],
    ['auto', 'write inside', () => write('src/a.ts'), 'allow', 'mode-auto'],
    ['auto', 'a sandboxed command', () => exec('npm test'), 'allow', 'mode-auto'],
    [
      'auto',
      'an unsandboxed command',
      () => exec('npm test', NO_SANDBOX),
      'ask',
      'default-ask-execute_command',
    ],
    [
      'auto',
      'an unsandboxed read-only command',
      () => exec('ls', NO_SANDBOX),
      'ask',
      'default-ask-execute_command',
    ],
    ['auto', 'a destructive command', () => exec('rm -r build'), 'ask', 'default-ask-execute_command'],
    ['auto', 'a command it cannot judge', () => exec('bash -c "$x"'), 'ask', 'default-ask-execute_command'],
    [
      'auto',
      'a write to a protected path',
      () => write('.github/workflows/ci.yml'),
      'ask',
      'default-ask-write_file',
    ],
    ['auto', 'an MCP tool', () => facts('mcp__fake__delete', { id: '1' }), 'ask', 'default-ask-mcp'],
    ['auto', 'a question', () => facts('ask_user', { question: 'q' }), 'ask', 'default-ask-ask_user'],
  ];
  it.each(cases)('%s: %s → %s (%s)', (mode, _label, make, decision, id) => {
    const result = decide(make(), [], mode);
    expect(result.decision).toBe(decision);
    expect(result.rule.id).toBe(id);
  });

  it('plan mode tells the model it is in plan mode', () => {
    expect(decide(write('src/a.ts'), [], 'plan')).toMatchObject({
      rule: { id: 'mode-plan', source: 'mode' },
      explanation: expect.stringMatching(/plan mode/i),
    });
  });

  it('plan mode denies even what a rule allows', () => {
    expect(
      decide(write('src/a.ts'), [rule({ tool: 'write_file', decision: 'allow' })], 'plan').decision,
    ).toBe('deny');
  });

  it.each(['manual', 'auto-edit', 'plan', 'auto'] as const)('%s: a deny rule still denies', (mode) => {
    const rules = [rule({ tool: 'write_file', when: { path: 'src/**' }, decision: 'deny' })];
    expect(decide(write('src/a.ts'), rules, mode)).toMatchObject({
      decision: 'deny',
      rule: { id: rules[0]?.id },
    });
  });

  it.each(['auto-edit', 'auto'] as const)('%s: an explicit ask rule of the person still asks', (mode) => {
    const rules = [
      rule({ tool: 'write_file', when: { path: 'src/migrations/**' }, decision: 'ask' }),
      rule({ tool: 'mcp__fake__*', decision: 'ask' }),
    ];
    expect(decide(write('src/migrations/001.sql'), rules, mode)).toMatchObject({
      decision: 'ask',
      rule: { id: rules[0]?.id },
    });
    expect(decide(write('src/other.ts'), rules, mode).decision).toBe('allow');
    if (mode === 'auto')
      expect(decide(facts('mcp__fake__delete', { id: '1' }), rules, mode).decision).toBe('ask');
  });
});

describe('what no rule or mode can allow', () => {
  const allowAll = [rule({ tool: '*', decision: 'allow' }, 'user')];

  it.each(['manual', 'auto-edit', 'auto'] as const)(
    '%s: protected paths are never allowed without a person',
    (mode) => {
      for (const path of [
        'package.json',
        '.git/hooks/pre-commit',
        '.warden/policy.json',
        '.github/workflows/ci.yml',
        '.env',
        'yarn.lock',
        'sub/package-lock.json',
      ]) {
        expect(decide(write(path), allowAll, mode).decision, path).toBe('ask');
      }
      expect(decide(facts('execute_command', { command: 'ls', cwd: '.git' }), allowAll, mode).decision).toBe(
        'ask',
      );
    },
  );

  it.each(['manual', 'auto-edit', 'auto'] as const)('%s: interactive tools always ask', (mode) => {
    const rules = [
      rule({ tool: 'ask_user', decision: 'allow' }),
      rule({ tool: 'propose_plan', decision: 'allow' }),
    ];
    expect(decide(facts('ask_user', { question: 'q' }), rules, mode).decision).toBe('ask');
    expect(decide(facts('propose_plan', { steps: ['a'] }), rules, mode).decision).toBe('ask');
  });

  it.each<[string, () => CallFacts, string]>([
    ['a path outside the project', () => write('../outside/x.txt'), 'path-fence'],
    ['an absolute path outside', () => write('/etc/passwd'), 'path-fence'],
    ['a ~ path', () => write('~/.bashrc'), 'path-invalid'],
    ['a cwd outside the project', () => facts('execute_command', { command: 'ls', cwd: '/' }), 'path-fence'],
    ['a command the guard denies', () => exec('rm -rf /'), 'cmd-rm-root'],
    ['a denied part of a compound', () => exec('ls && mkfs /dev/sda'), 'cmd-mkfs'],
    ['sudo', () => exec('sudo rm -r -f /'), 'cmd-sudo'],
    ['content over the size cap', () => write('src/big.txt', 'x'.repeat(5 * 1024 * 1024 + 1)), 'size-cap'],
    ['a loopback URL', () => facts('web_fetch', { url: 'http://127.0.0.1:8080/admin' }), 'ssrf-url'],
    [
      'a metadata URL',
      () => facts('web_fetch', { url: 'http://169.254.169.254/latest/meta-data' }),
      'ssrf-url',
    ],
    ['a file: URL', () => facts('web_fetch', { url: 'file:///etc/passwd' }), 'ssrf-scheme'],
  ])('hard guard: %s is denied over an allow-everything rule, in every mode', (_label, make, ruleId) => {
    for (const mode of ['manual', 'auto-edit', 'plan', 'auto'] as const) {
      const result = decide(make(), allowAll, mode);
      expect(result.decision).toBe('deny');
      expect(result.rule.source).toBe('guard');
      expect(result.rule.id.startsWith(ruleId.split('-')[0] as string)).toBe(true);
      if (!ruleId.startsWith('ssrf')) expect(result.rule.id).toBe(ruleId);
      expect(result.risk.level).toBe('high');
    }
  });

  it('the size cap is exact: 5 MiB passes, one byte more does not', () => {
    expect(decide(write('src/big.txt', 'x'.repeat(5 * 1024 * 1024))).decision).toBe('ask');
    expect(decide(write('src/big.txt', 'x'.repeat(5 * 1024 * 1024 + 1))).rule.id).toBe('size-cap');
  });
});

describe('purity', () => {
  it('a rules array changed in place is seen at once (no stale memo)', () => {
    const rules: LoadedRule[] = [rule({ tool: 'write_file', decision: 'allow' })];
    expect(decide(write('src/a.ts'), rules).decision).toBe('allow');
    rules.push(rule({ tool: 'write_file', decision: 'deny' }));
    expect(decide(write('src/a.ts'), rules).decision).toBe('deny');
    rules.splice(1, 1, rule({ tool: 'write_file', decision: 'ask' }));
    expect(decide(write('src/a.ts'), rules).decision).toBe('ask');
    (rules[1] as LoadedRule).tool = 'read_file';
    expect(decide(write('src/a.ts'), rules).decision).toBe('allow');
    rules.length = 0;
    expect(decide(write('src/a.ts'), rules).rule.source).toBe('builtin');
  });

  it('the same facts and context give the same result, and neither is changed', () => {
    const f = write('src/a.ts');
    const rules = [rule({ tool: 'write_file', decision: 'ask', risk: 'high' })];
    const snapshot = JSON.stringify({ f, rules });
    const a = decide(f, rules, 'auto');
    const b = decide(f, rules, 'auto');
    expect(a).toEqual(b);
    expect(JSON.stringify({ f, rules })).toBe(snapshot);
  });
});

describe('what can never be low risk or run by the read-only default (issue 10 §5)', () => {
  const part = (over: Partial<CommandPart> = {}): CommandPart => ({
    text: 'cat a',
    argv: ['cat', 'a'],
    readOnly: true,
    ...over,
  });
  const judged = (verdict: CommandVerdict, sandbox: SandboxInfo = BWRAP) =>
    gatherFacts(
      TOOLS.get('execute_command') as AnyTool,
      { command: 'x' },
      { fence, commands: { judge: () => verdict }, sandbox },
    );
  const ok = (
    parts: CommandPart[],
    extra: Partial<Extract<CommandVerdict, { kind: 'ok' }>> = {},
  ): CommandVerdict => ({ kind: 'ok', parts, readOnly: true, destructive: [], notes: [], ...extra });
  const cases: [string, CommandVerdict, 'medium' | 'high'][] = [
    ['a write the guard saw (even if it says read-only)', ok([part({ writes: ['out.txt'] })]), 'medium'],
    ['a scratch write in /tmp', ok([part({ writes: ['/tmp/x'] })]), 'medium'],
    ['a write only known at run time', ok([part({ writes: ['\u0000$OUT\u0000'] })]), 'high'],
    ['a protected write', ok([part({ writes: ['package.json'] })]), 'high'],
    [
      'a destructive part',
      ok([part({ destructive: 'deletes files' })], { destructive: ['deletes files'] }),
      'high',
    ],
    ['a part that is not read-only', ok([part(), part({ readOnly: false })]), 'medium'],
    [
      'cannot judge, read-only parts',
      { kind: 'cannot_judge', reason: 'r', parts: [part()], notes: [] },
      'high',
    ],
    ['cannot judge, no parts', { kind: 'cannot_judge', reason: 'r', parts: [], notes: [] }, 'high'],
    ['a credential file named', ok([part({ text: 'cat .env', argv: ['cat', '.env'] })]), 'high'],
  ];
  it.each(cases)('%s', (_label, verdict, level) => {
    const f = judged(verdict);
    for (const mode of ['manual', 'auto-edit', 'auto'] as const) {
      const result = decide(f, [], mode);
      expect(result.risk.level, mode).not.toBe('low');
      expect(result.rule.id, mode).not.toBe('default-allow-read-only-command');
      if (mode !== 'auto' || level === 'high') expect(result.decision, mode).toBe('ask');
    }
    expect(decide(f).risk.level).toBe(level);
  });

  it('the same read-only verdict runs free only inside the sandbox', () => {
    expect(decide(judged(ok([part()]))).rule.id).toBe('default-allow-read-only-command');
    expect(decide(judged(ok([part()]), NO_SANDBOX))).toMatchObject({
      decision: 'ask',
      rule: { id: 'default-ask-execute_command' },
    });
    expect(decide(judged(ok([part()]), NO_SANDBOX), [], 'auto').decision).toBe('ask');
  });

  it('a write outside the project is a hard denial; inside the sandbox /tmp is not', () => {
    expect(
      decide(judged(ok([part({ writes: ['/etc/x'] })])), [rule({ tool: '*', decision: 'allow' })]),
    ).toMatchObject({ decision: 'deny', rule: { id: 'path-fence', source: 'guard' } });
    expect(decide(judged(ok([part({ writes: ['/tmp/x'] })]))).decision).toBe('ask');
    expect(decide(judged(ok([part({ writes: ['/tmp/../etc/x'] })]))).rule.id).toBe('path-fence');
    expect(decide(judged(ok([part({ writes: ['/tmp/x'] })]), NO_SANDBOX)).rule.id).toBe('path-fence');
    expect(decide(judged(ok([part({ writes: ['/dev/null'] })]), NO_SANDBOX)).decision).toBe('ask');
  });
});
