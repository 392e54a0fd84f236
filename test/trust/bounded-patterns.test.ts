import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileBoundedGlob } from '../../src/policy/bounded-glob';
import { compileBoundedRegex } from '../../src/policy/bounded-regex';
import { failClosedCommandGuard } from '../../src/policy/command/command-guard';
import { gatherFacts } from '../../src/policy/facts';
import { compileGlobs } from '../../src/policy/glob';
import { loadPolicyRules } from '../../src/policy/load-policy';
import { PathFence } from '../../src/policy/guards/path-guard';
import { resolvePolicy } from '../../src/policy/resolve';
import { createCoreTools } from '../../src/tools/index';

let base: string;
let home: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-bounded-')));
  home = join(base, 'home');
  root = join(base, 'project');
  mkdirSync(home);
  mkdirSync(join(root, '.warden'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const writeTool = createCoreTools().find((t) => t.name === 'write_file');
const policyOf = (rules: unknown[]) =>
  writeFileSync(join(root, '.warden', 'policy.json'), JSON.stringify({ rules }));
const timed = <T>(run: () => T): { value: T; ms: number } => {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
};

describe('regular expressions from policy files run in linear time', () => {
  it('`^(a+)+$` against 40 characters through the real loader and policy: milliseconds, and still decides', async () => {
    policyOf([
      { id: 'no-as', tool: 'write_file', when: { regex: { content: '^(a+)+$' } }, decision: 'deny' },
    ]);
    const loaded = await loadPolicyRules(home, root);
    if (!loaded.ok || !writeTool) throw new Error('setup');
    const deps = {
      fence: new PathFence(root),
      commands: failClosedCommandGuard('test'),
      sandbox: { kind: 'none' as const, reason: 'test' },
    };
    const evil = timed(() =>
      resolvePolicy(gatherFacts(writeTool, { path: 'a.txt', content: `${'a'.repeat(40)}!` }, deps), {
        rules: loaded.rules,
        mode: 'manual',
      }),
    );
    expect(evil.ms).toBeLessThan(250);
    expect(evil.value.decision).toBe('ask');
    const hit = resolvePolicy(gatherFacts(writeTool, { path: 'a.txt', content: 'a'.repeat(40) }, deps), {
      rules: loaded.rules,
      mode: 'manual',
    });
    expect(hit).toMatchObject({ decision: 'deny', rule: { id: 'no-as' } });
  });

  it('a megabyte against a nested quantifier stays linear', () => {
    const re = compileBoundedRegex('^(a|aa)+$');
    if (!re.ok) throw new Error(re.error);
    expect(timed(() => re.test(`${'a'.repeat(1_000_000)}!`)).ms).toBeLessThan(2000);
  });

  it.each([
    ['a back-reference', '(a)\\1'],
    ['a look-ahead', '^(?=admin)'],
    ['a look-behind', '(?<!x)y'],
  ])(
    '%s has no linear form: refused at load, naming the file, the rule and the field',
    async (_label, pattern) => {
      policyOf([
        { tool: 'read_file', decision: 'deny' },
        { id: 'evil', tool: 'web_fetch', decision: 'deny', when: { regex: { url: pattern } } },
      ]);
      const loaded = await loadPolicyRules(home, root);
      expect(loaded.ok).toBe(false);
      if (loaded.ok) return;
      expect(loaded.error).toContain(join(root, '.warden', 'policy.json'));
      expect(loaded.error).toMatch(
        /rules\.1\.when\.regex\.url \(rule evil\): not a valid regular expression/,
      );
    },
  );
});

describe('globs from policy and config files run in linear time', () => {
  const longPath = `${'a'.repeat(4000)}`;

  it('a many-star path glob in a (tightening, so untrusted-allowed) project rule does not freeze the gate', async () => {
    policyOf([{ tool: 'write_file', when: { path: '**/*a*a*a*a*a*a*b' }, decision: 'deny' }]);
    const loaded = await loadPolicyRules(home, root);
    if (!loaded.ok || !writeTool) throw new Error(loaded.ok ? 'no tool' : loaded.error);
    const deps = {
      fence: new PathFence(root),
      commands: failClosedCommandGuard('test'),
      sandbox: { kind: 'none' as const, reason: 'test' },
    };
    // One long segment (a file name may be 255 bytes): picomatch needs about n^6 steps here.
    const path = `${'d/'.repeat(20)}${'a'.repeat(250)}`;
    const run = timed(() =>
      resolvePolicy(gatherFacts(writeTool, { path, content: 'x' }, deps), {
        rules: loaded.rules,
        mode: 'manual',
      }),
    );
    expect(run.ms).toBeLessThan(250);
    expect(run.value).toMatchObject({ decision: 'ask', rule: { source: 'builtin' } });
    const hit = resolvePolicy(gatherFacts(writeTool, { path: 'd/aaaaaab', content: 'x' }, deps), {
      rules: loaded.rules,
      mode: 'manual',
    });
    expect(hit).toMatchObject({ decision: 'deny', rule: { source: 'project' } });
  });

  it('a project protectedPaths pattern with many stars cannot freeze the path fence', () => {
    const match = compileGlobs(['*a*a*a*a*a*a*b']);
    const run = timed(() => match(longPath));
    expect(run.ms).toBeLessThan(250);
    expect(run.value).toBeUndefined();
    expect(match('dir/aaaaaab')).toBe('*a*a*a*a*a*a*b');
    expect(compileGlobs(['*a*b'])('dir/xaxb')).toBe('*a*b');
  });

  it.each([
    ['an extglob', '+(+(a))b', /extglob/],
    ['a negation', '!secret/**', /negation/],
    ['an open brace', 'src/{a,b', /without its/],
  ])('%s in a rule is refused at load with the file and the rule named', async (_label, glob, why) => {
    policyOf([{ id: 'g', tool: 'write_file', when: { path: glob }, decision: 'deny' }]);
    const loaded = await loadPolicyRules(home, root);
    expect(loaded).toMatchObject({
      ok: false,
      error: expect.stringMatching(/policy\.json: rules\.0\.when\.path \(rule g\): /),
    });
    expect(!loaded.ok && loaded.error).toMatch(why);
  });

  // The bounded matcher keeps picomatch's meaning (dot files included) for the syntax policy files use.
  const globs = [
    '*',
    '**',
    'src/**',
    '**/x',
    'a/**/b',
    'mcp__*',
    'mcp__github__*',
    '*.ts',
    'src/*',
    '{a,b}/*',
    '[ab]',
    'a?c',
    '**/.env*',
    'file.{js,ts}',
    '{a,b,{c,d}}',
    'a{,.min}.js',
    '[a-c]x',
    'src/**/*.ts',
    '**/*.ts',
    '.github/workflows/**',
    '**/*.{pem,key}',
    'docs/[0-9]*.md',
    'a.b',
    'foo(bar)',
    'a+b',
    '**/.git/**',
  ];
  const inputs = [
    '.',
    'a',
    'b',
    'd',
    'x',
    'a/x',
    'a/b',
    'a/x/y/b',
    'src',
    'src/a.ts',
    'src/a/b.ts',
    'mcp__',
    'mcp__github__list',
    'mcp__a/b',
    '.ts',
    'a.ts',
    'b/x',
    'abc',
    'a/c',
    'x/.env.local',
    '.env',
    'file.ts',
    'a.js',
    'a.min.js',
    'bx',
    '.github/workflows/ci.yml',
    'k.pem',
    'd/k.key',
    'docs/1a.md',
    'docs/a.md',
    'a.b',
    'axb',
    'foo(bar)',
    'a+b',
    '.git',
    'x/.git/config',
    'src/.hidden',
  ];
  it.each(globs)('%s matches what picomatch matches', (glob) => {
    const mine = compileBoundedGlob(glob);
    if (!mine.ok) throw new Error(mine.error);
    const theirs = picomatch(glob, { dot: true });
    const differ = inputs.filter((s) => mine.test(s) !== (s === glob || theirs(s)));
    expect(differ).toEqual([]);
  });
});
