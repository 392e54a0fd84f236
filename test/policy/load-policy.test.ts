import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicyRules, policyFiles } from '../../src/policy/load-policy';

let base: string;
let home: string;
let root: string;
let files: { user: string; project: string };

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'warden-load-policy-'));
  home = join(base, 'home');
  root = join(base, 'project');
  mkdirSync(home);
  mkdirSync(join(root, '.warden'), { recursive: true });
  files = policyFiles(home, root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const put = (file: string, value: unknown) =>
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));

describe('loadPolicyRules', () => {
  it('missing files are fine: no rules', async () => {
    expect(await loadPolicyRules(home, root)).toEqual({ ok: true, rules: [], held: [], ignored: [] });
  });

  it('reads both files (the project trusted), user first, filling in ids, sources and files', async () => {
    put(files.user, {
      rules: [
        { tool: 'read_file', decision: 'ask' },
        { id: 'mine', tool: 'mcp__github__*', decision: 'allow' },
      ],
    });
    put(files.project, {
      rules: [
        {
          tool: 'execute_command',
          when: { command: 'npm test' },
          decision: 'allow',
          risk: 'low',
          message: 'tests are fine',
        },
      ],
    });
    const loaded = await loadPolicyRules(home, root, { trusted: true });
    expect(loaded).toEqual({
      ok: true,
      held: [],
      ignored: [],
      rules: [
        { id: 'user#1', source: 'user', file: files.user, tool: 'read_file', decision: 'ask' },
        { id: 'mine', source: 'user', file: files.user, tool: 'mcp__github__*', decision: 'allow' },
        {
          id: 'project#1',
          source: 'project',
          file: files.project,
          tool: 'execute_command',
          when: { command: 'npm test' },
          decision: 'allow',
          risk: 'low',
          message: 'tests are fine',
        },
      ],
    });
  });

  it('accepts every matcher kind', async () => {
    put(files.project, {
      rules: [
        { tool: 'write_file', when: { path: 'src/**' }, decision: 'allow' },
        { tool: 'mcp__fake__delete', when: { args: { id: 'tmp', force: false, n: 1 } }, decision: 'allow' },
        {
          tool: 'web_fetch',
          when: { regex: { url: '^https://docs\\.' }, domain: '*.example.com' },
          decision: 'deny',
        },
      ],
    });
    const loaded = await loadPolicyRules(home, root, { trusted: true });
    expect(loaded.ok && loaded.rules.length).toBe(3);
  });

  it.each<[string, 'user' | 'project', unknown, RegExp]>([
    ['bad JSON', 'project', '{"rules": [', /not valid JSON/],
    ['a top level that is not an object', 'user', '[]', /\(top level\)/],
    ['no rules field', 'project', {}, /rules: /],
    ['a wrong decision', 'project', { rules: [{ tool: 'x', decision: 'maybe' }] }, /rules\.0\.decision: /],
    [
      'a wrong type',
      'user',
      {
        rules: [
          { tool: 'x', decision: 'allow' },
          { tool: 7, decision: 'allow' },
        ],
      },
      /rules\.1\.tool: /,
    ],
    [
      'a wrong risk',
      'project',
      { rules: [{ tool: 'x', decision: 'ask', risk: 'extreme' }] },
      /rules\.0\.risk: /,
    ],
    [
      'an unknown rule key',
      'project',
      { rules: [{ tool: 'x', decision: 'allow', when_: {} }] },
      /rules\.0: .*when_/,
    ],
    [
      'an unknown matcher',
      'project',
      { rules: [{ tool: 'x', decision: 'allow', when: { glob: '*' } }] },
      /rules\.0\.when: .*glob/,
    ],
    ['an unknown top-level key', 'user', { rules: [], extra: true }, /\(top level\): .*extra/],
    [
      'an empty when',
      'project',
      { rules: [{ tool: 'x', decision: 'allow', when: {} }] },
      /rules\.0\.when: when needs at least one matcher/,
    ],
    ['an empty tool', 'project', { rules: [{ tool: '', decision: 'allow' }] }, /rules\.0\.tool: /],
    [
      'a bad regex',
      'project',
      {
        rules: [
          { tool: 'x', decision: 'deny' },
          { tool: 'web_fetch', decision: 'deny', when: { regex: { url: '([a-z' } } },
        ],
      },
      /rules\.1\.when\.regex\.url \(rule project#2\): not a valid regular expression/,
    ],
  ])('%s in the %s file: an error naming the file and the field', async (_label, which, content, field) => {
    put(files[which], content);
    const loaded = await loadPolicyRules(home, root);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.startsWith(`${files[which]}: `)).toBe(true);
    expect(loaded.error).toMatch(field);
  });

  it('a broken project file is reported even when the user file is fine', async () => {
    put(files.user, { rules: [{ tool: 'read_file', decision: 'allow' }] });
    put(files.project, '{oops');
    const loaded = await loadPolicyRules(home, root);
    expect(loaded).toMatchObject({ ok: false, error: expect.stringContaining(files.project) });
  });

  it.runIf(process.getuid?.() !== 0)('an unreadable file is an error, not an empty policy', async () => {
    put(files.project, { rules: [] });
    chmodSync(files.project, 0o000);
    const loaded = await loadPolicyRules(home, root);
    expect(loaded).toMatchObject({ ok: false, error: expect.stringMatching(/cannot be read/) });
  });

  it('a policy path that is a folder is an error', async () => {
    mkdirSync(files.user);
    const loaded = await loadPolicyRules(home, root);
    expect(loaded).toMatchObject({ ok: false, error: expect.stringContaining(files.user) });
  });
});

describe('a cloned repository whose .warden points out of the project', () => {
  it('a .warden symlink to an outside folder: even trusted, its allow-all rule never counts', async () => {
    const outside = join(base, 'elsewhere');
    mkdirSync(outside);
    put(join(outside, 'policy.json'), { rules: [{ tool: '*', decision: 'allow' }] });
    rmSync(join(root, '.warden'), { recursive: true });
    symlinkSync(outside, join(root, '.warden'));
    const load = await loadPolicyRules(home, root, { trusted: true });
    const counted = load.ok ? load.rules.filter((r) => r.decision === 'allow') : [];
    expect(counted).toEqual([]);
  });

  it('control: the same file in a real .warden folder, trusted, does count', async () => {
    put(files.project, { rules: [{ tool: '*', decision: 'allow' }] });
    const load = await loadPolicyRules(home, root, { trusted: true });
    expect(load.ok && load.rules.filter((r) => r.decision === 'allow')).toHaveLength(1);
  });
});
