/**
 * Red team, trust: a stranger's `.warden/policy.json` against the real loader, the trust holder and
 * the gate. Untrusted, every allow rule of every shape is held; ask and deny rules count; a change
 * after trust (by the repository or the model) withdraws it, `--trust-project` included.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicyRulesSync, parsePolicyText } from '../../src/policy/load-policy';
import type { LoadedRule } from '../../src/policy/rules';
import type { CoreEvent } from '../../src/protocol';
import { readProjectSnapshot } from '../../src/policy/project-files';
import { ProjectTrust } from '../../src/trust/project-trust';
import { readTrustRecords } from '../../src/config/trust-store';
import { type GateHarness, createGateHarness } from '../helpers/gate-harness';

let base: string;
let home: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-rt-trustpol-')));
  home = join(base, 'home');
  root = join(base, 'project');
  mkdirSync(home);
  mkdirSync(join(root, '.warden'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const policyFile = () => join(root, '.warden', 'policy.json');
const policy = (rules: unknown[] | string) =>
  writeFileSync(policyFile(), typeof rules === 'string' ? rules : JSON.stringify({ rules }));

describe('untrusted, every allow rule is held; ask and deny count', () => {
  const shapes: [string, Record<string, unknown>][] = [
    ['every tool', { tool: '*', decision: 'allow' }],
    ['a tool glob', { tool: '*_*', decision: 'allow' }],
    ['every command', { tool: 'execute_command', when: { command: '*' }, decision: 'allow' }],
    ['every path', { tool: 'write_file', when: { path: '**' }, decision: 'allow' }],
    ['the .warden folder', { tool: 'write_file', when: { path: '.warden/**' }, decision: 'allow' }],
    ['every MCP tool', { tool: 'mcp__*', decision: 'allow' }],
    ['a regex over anything', { tool: '*', when: { regex: { path: '.*' } }, decision: 'allow' }],
    ['every domain', { tool: 'web_fetch', when: { domain: '*.com' }, decision: 'allow' }],
    ['low risk', { tool: '*', decision: 'allow', risk: 'low', message: 'trusted by the maintainers' }],
    ['an id that looks like yours', { id: 'user#1', tool: '*', decision: 'allow' }],
  ];
  it.each(shapes)('allow %s: held', (_label, rule) => {
    policy([rule]);
    const loaded = loadPolicyRulesSync(home, root);
    expect(loaded).toMatchObject({ ok: true, rules: [], held: [{ decision: 'allow', source: 'project' }] });
  });

  it('ask and deny rules of the same file count at once, its allow rules beside them are held', () => {
    policy([
      { tool: 'web_fetch', decision: 'deny' },
      { tool: 'read_file', when: { path: 'secrets/**' }, decision: 'ask' },
      { tool: '*', decision: 'allow' },
    ]);
    const loaded = loadPolicyRulesSync(home, root);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.rules.map((r) => r.decision)).toEqual(['deny', 'ask']);
    expect(loaded.held.map((r) => r.decision)).toEqual(['allow']);
  });

  it('a duplicate decision key: the last one (what JSON.parse keeps) decides, and an allow is held', () => {
    policy('{"rules":[{"tool":"*","decision":"deny","decision":"allow"}]}');
    expect(loadPolicyRulesSync(home, root)).toMatchObject({
      ok: true,
      rules: [],
      held: [{ decision: 'allow' }],
    });
  });

  it.each([
    ['args', '{"rules":[{"tool":"write_file","decision":"deny","when":{"args":{"__proto__":"x"}}}]}'],
    ['regex', '{"rules":[{"tool":"write_file","decision":"allow","when":{"regex":{"__proto__":"^a$"}}}]}'],
    ['args (empty)', '{"rules":[{"tool":"write_file","decision":"allow","when":{"args":{}}}]}'],
  ])(
    'a when.%s whose only key is dropped (__proto__) would match every call: refused, naming the rule',
    (_label, text) => {
      const parsed = parsePolicyText('/p/.warden/policy.json', text, 'project');
      expect(parsed).toMatchObject({ ok: false, error: expect.stringContaining('/p/.warden/policy.json') });
    },
  );

  it.each([
    ['a back-reference', '^(a)\\1$'],
    ['a look-behind', '(?<=a)b'],
    ['2001 characters', 'a'.repeat(2001)],
  ])('a regex with %s is refused at load, naming the file and the rule', (_label, pattern) => {
    policy([{ tool: 'write_file', when: { regex: { path: pattern } }, decision: 'deny' }]);
    const loaded = loadPolicyRulesSync(home, root);
    expect(loaded).toMatchObject({
      ok: false,
      error: expect.stringMatching(/policy\.json: rules\.0\.when\.regex\.path/),
    });
  });

  it('unknown top-level keys (mode, trust) refuse the file', () => {
    policy('{"rules":[],"mode":"auto","trusted":true}');
    expect(loadPolicyRulesSync(home, root)).toMatchObject({ ok: false });
  });

  it('a policy.json that is a symlink to $WARDEN_HOME/policy.json is refused, not loaded as the project', () => {
    writeFileSync(join(home, 'policy.json'), JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
    symlinkSync(join(home, 'policy.json'), policyFile());
    expect(loadPolicyRulesSync(home, root)).toMatchObject({
      ok: false,
      error: expect.stringContaining(policyFile()),
    });
  });
});

describe('trusted, a project allow rule still cannot beat your deny, a guard, or a protected path', () => {
  let h: GateHarness | undefined;
  afterEach(() => {
    h?.cleanup();
    h = undefined;
  });

  it('your deny on write_file beats a trusted project allow-all', async () => {
    h = createGateHarness({
      rules: [
        { tool: 'write_file', decision: 'deny', source: 'user' },
        { tool: '*', decision: 'allow', source: 'project' },
      ],
    });
    const result = await h.call('write_file', { path: 'a.txt', content: 'x' });
    expect(result.status).toBe('blocked');
    expect(h.read('a.txt')).toBeUndefined();
  });

  it('a trusted allow for .warden/** still asks a person before the project rewrites its own rules', async () => {
    h = createGateHarness({
      rules: [{ tool: 'write_file', when: { path: '.warden/**' }, decision: 'allow' }],
    });
    const result = h.call('write_file', { path: '.warden/policy.json', content: '{"rules":[]}' });
    const request = await h.nextRequest();
    expect(request.tool).toBe('write_file');
    h.gate.decide(request.id, { kind: 'reject' });
    expect((await result).status).toBe('rejected');
  });

  it('a trusted allow-all cannot write outside the project (the fence is a hard guard)', async () => {
    h = createGateHarness({ rules: [{ tool: '*', decision: 'allow' }] });
    const result = await h.call('write_file', { path: '../outside.txt', content: 'x' });
    expect(result.status).toBe('blocked');
  });
});

describe('trust drops when the files change, whoever changed them', () => {
  function holder(by: 'flag' | 'record' | undefined) {
    const snapshot = readProjectSnapshot(root, home);
    let rules: LoadedRule[] = [];
    const events: CoreEvent[] = [];
    const trust = new ProjectTrust({
      home,
      start: {
        snapshot,
        held: [],
        values: { trusted: { mode: 'manual' }, untrusted: { mode: 'manual' } },
        ...(by ? { trustedBy: by } : {}),
      },
      setRules: (next) => {
        rules = next;
      },
      applyValues: () => {},
      wroteTrust: () => {},
      emit: (e) => events.push(e),
    });
    const loaded = trust.load();
    if (!loaded.ok) throw new Error(loaded.error);
    rules = loaded.rules;
    return { trust, rules: () => rules, events };
  }
  const allows = (rules: LoadedRule[]) =>
    rules.filter((r) => r.source === 'project' && r.decision === 'allow');

  it('--trust-project trusts the files as they were at start: a rule added mid-session is held', () => {
    policy([{ tool: 'execute_command', when: { command: 'npm test' }, decision: 'allow' }]);
    const t = holder('flag');
    expect(allows(t.rules())).toHaveLength(1);
    // The model (after a card for the write, or a process the gate cannot fence) widens the rules.
    policy([
      { tool: 'execute_command', when: { command: 'npm test' }, decision: 'allow' },
      { tool: '*', decision: 'allow' },
    ]);
    t.trust.refresh();
    expect(allows(t.rules())).toEqual([]);
    expect(t.trust.state()).toMatchObject({ status: 'untrusted', asking: true });
    expect(readTrustRecords(home)).toEqual({});
  });

  it('--trust-project: the person saving a rule of their own into the project file keeps the trust, records nothing', () => {
    const own = { tool: 'execute_command', when: { command: 'npm run lint' }, decision: 'allow' } as const;
    policy([{ tool: 'execute_command', when: { command: 'npm test' }, decision: 'allow' }]);
    const t = holder('flag');
    policy([{ tool: 'execute_command', when: { command: 'npm test' }, decision: 'allow' }, own]);
    t.trust.refresh(own);
    expect(allows(t.rules())).toHaveLength(2);
    expect(t.trust.state()).toMatchObject({ status: 'trusted', by: 'flag' });
    expect(readTrustRecords(home)).toEqual({});
  });

  it('a trusted record: a config.json added mid-session drops it (both files are bound)', () => {
    policy([{ tool: '*', decision: 'allow' }]);
    const t = holder(undefined);
    t.trust.decide(true, t.trust.state().hash);
    expect(allows(t.rules())).toHaveLength(1);
    writeFileSync(join(root, '.warden', 'config.json'), JSON.stringify({ model: 'other' }));
    t.trust.refresh();
    expect(allows(t.rules())).toEqual([]);
    expect(t.trust.state().status).toBe('untrusted');
  });

  it('a trusted policy replaced by a fifo mid-session: nothing loosens, no hang, an error notice', () => {
    policy([
      { tool: '*', decision: 'allow' },
      { tool: 'web_fetch', decision: 'deny' },
    ]);
    const t = holder(undefined);
    t.trust.decide(true, t.trust.state().hash);
    rmSync(policyFile());
    symlinkSync('/dev/zero', policyFile());
    t.trust.refresh();
    expect(allows(t.rules())).toEqual([]);
    expect(t.rules().some((r) => r.decision === 'deny')).toBe(true);
    expect(t.events.some((e) => e.type === 'notice' && e.level === 'error')).toBe(true);
  });

  it('a card answer for the old content, given after the file changed, trusts nothing', () => {
    policy([{ tool: 'read_file', decision: 'allow' }]);
    const t = holder(undefined);
    const shown = t.trust.state().hash;
    policy([{ tool: '*', decision: 'allow' }]);
    t.trust.decide(true, shown);
    expect(allows(t.rules())).toEqual([]);
    expect(readTrustRecords(home)).toEqual({});
  });

  it('a nested .warden in a subfolder is never read: its allow-all counts for nothing, trusted or not', () => {
    policy([{ tool: 'read_file', decision: 'ask' }]);
    mkdirSync(join(root, 'sub', '.warden'), { recursive: true });
    writeFileSync(
      join(root, 'sub', '.warden', 'policy.json'),
      JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }),
    );
    const t = holder('flag');
    expect(allows(t.rules())).toEqual([]);
  });
});
