/**
 * The managed policy (`WARDEN_SYSTEM_DIR/policy.json`): loaded first, source `managed`; a broken one
 * is an error; with `allowManagedRulesOnly` the user's and project's rules come back as ignored; and
 * severity still decides, so a managed deny beats any allow and a managed ask any allow.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicyRulesSync, policyFiles } from '../../src/policy/load-policy';
import { resolvePolicy } from '../../src/policy/resolve';
import type { LoadedRule } from '../../src/policy/rules';
import { failClosedCommandGuard } from '../../src/policy/command/command-guard';
import { gatherFacts } from '../../src/policy/facts';
import { PathFence } from '../../src/policy/guards/path-guard';
import type { SandboxInfo } from '../../src/tools/types';
import { stubTools } from '../helpers/gate-harness';
import { managedFolders, putFile } from '../helpers/managed-env';

let base: string;
let home: string;
let root: string;
let system: string;
beforeEach(() => {
  ({ base, home, root, system } = managedFolders('warden-managed-policy-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const put = putFile;
const allowWrites = { rules: [{ tool: 'write_file', decision: 'allow' }] };

function load(rulesOnly = false, trusted = true) {
  const loaded = loadPolicyRulesSync(home, root, { trusted, managed: { dir: system, rulesOnly } });
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded;
}

describe('loading the managed policy', () => {
  it('comes first, tagged managed with its file; the others follow', () => {
    put(join(system, 'policy.json'), {
      rules: [{ id: 'no-curl', tool: 'execute_command', decision: 'deny' }],
    });
    put(policyFiles(home, root).user, allowWrites);
    put(policyFiles(home, root).project, allowWrites);
    const { rules, ignored } = load();
    expect(rules.map((r) => [r.id, r.source])).toEqual([
      ['no-curl', 'managed'],
      ['user#1', 'user'],
      ['project#1', 'project'],
    ]);
    expect(rules[0]?.file).toBe(join(system, 'policy.json'));
    expect(ignored).toEqual([]);
  });

  it('allowManagedRulesOnly: the user and project rules are ignored (and listed), the managed ones count', () => {
    put(join(system, 'policy.json'), { rules: [{ tool: 'read_file', decision: 'ask' }] });
    put(policyFiles(home, root).user, allowWrites);
    put(policyFiles(home, root).project, { rules: [{ tool: 'execute_command', decision: 'deny' }] });
    const { rules, ignored, held } = load(true, false);
    expect(rules.map((r) => r.source)).toEqual(['managed']);
    expect(ignored.map((r) => r.source)).toEqual(['user', 'project']);
    expect(held).toEqual([]);
  });

  it('a broken managed policy is an error naming the file; a missing one is no rules', () => {
    expect(load().rules).toEqual([]);
    put(join(system, 'policy.json'), { rules: [{ tool: 'write_file', decision: 'sure' }] });
    const broken = loadPolicyRulesSync(home, root, { managed: { dir: system, rulesOnly: false } });
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toContain(join(system, 'policy.json'));
    put(join(system, 'policy.json'), '{"rules": [');
    expect(loadPolicyRulesSync(home, root, { managed: { dir: system, rulesOnly: false } }).ok).toBe(false);
  });
});

describe('deciding with managed rules', () => {
  const rule = (over: Partial<LoadedRule>): LoadedRule => ({
    id: 'r',
    tool: 'write_file',
    decision: 'allow',
    source: 'user',
    ...over,
  });
  /** The facts of a write of `path` in the project, as the gate gathers them. */
  const write = (path: string) => {
    const tool = stubTools(join(base, 'ran.log')).find((t) => t.name === 'write_file');
    if (!tool) throw new Error('no write_file stub');
    const sandbox: SandboxInfo = { kind: 'bwrap', path: '/usr/bin/bwrap' };
    return gatherFacts(
      tool,
      { path, content: 'x' },
      { fence: new PathFence(root), commands: failClosedCommandGuard('unused'), sandbox },
    );
  };

  it("a managed deny beats the user's allow and a trusted project's allow, in any order", () => {
    const rules = [
      rule({ id: 'mine', source: 'user' }),
      rule({ id: 'theirs', source: 'project' }),
      rule({ id: 'corp', source: 'managed', decision: 'deny', when: { path: 'a.txt' } }),
    ];
    for (const order of [rules, [...rules].reverse()])
      expect(resolvePolicy(write('a.txt'), { rules: order, mode: 'auto' })).toMatchObject({
        decision: 'deny',
        rule: { id: 'corp', source: 'managed' },
      });
    // Another file: the allows decide as before.
    expect(resolvePolicy(write('b.txt'), { rules, mode: 'manual' })).toMatchObject({
      decision: 'allow',
      rule: { id: 'mine', source: 'user' },
    });
  });

  it('a managed ask beats an allow, wins a tie with your ask, and keeps asking in every mode', () => {
    const rules = [
      rule({ id: 'mine' }),
      rule({ id: 'my-ask', decision: 'ask' }),
      rule({ id: 'corp', source: 'managed', decision: 'ask' }),
    ];
    for (const mode of ['manual', 'auto-edit', 'auto'] as const)
      expect(resolvePolicy(write('a.txt'), { rules, mode })).toMatchObject({
        decision: 'ask',
        rule: { id: 'corp', source: 'managed' },
      });
  });
});
