/**
 * The trust card lists the broadest held rules first whatever their order in the file, so the rule
 * that lets everything through is never the one below the fold.
 */
import { describe, expect, it } from 'vitest';
import type { LoadedRule } from '../../src/policy/rules';
import { looseningItems, ruleBreadth } from '../../src/trust/describe';

const rule = (id: string, r: Omit<LoadedRule, 'id' | 'source' | 'decision'>): LoadedRule => ({
  id,
  source: 'project',
  decision: 'allow',
  file: '/p/.warden/policy.json',
  ...r,
});

describe('ruleBreadth', () => {
  it.each([
    ['every tool, every call', rule('a', { tool: '*' }), 0],
    ['every call of one tool', rule('b', { tool: 'execute_command' }), 1],
    ['every tool under a condition', rule('c', { tool: '*', when: { path: 'src/**' } }), 1],
    ['a tool glob', rule('d', { tool: 'mcp__gh__*', when: { args: { repo: 'x' } } }), 1],
    [
      'a command whose program is a wildcard',
      rule('e', { tool: 'execute_command', when: { command: '* --force' } }),
      2,
    ],
    ['a command naming a variable', rule('f', { tool: 'execute_command', when: { command: '$X build' } }), 2],
    ['every path', rule('g', { tool: 'write_file', when: { path: '**' } }), 2],
    ['every domain', rule('h', { tool: 'web_fetch', when: { domain: '*' } }), 2],
    ['one command', rule('i', { tool: 'execute_command', when: { command: 'npm test' } }), 3],
    ['a path under src', rule('j', { tool: 'write_file', when: { path: 'src/**' } }), 3],
  ])('%s → %i', (_, r, breadth) => {
    expect(ruleBreadth(r)).toBe(breadth);
  });
});

describe('looseningItems', () => {
  it('puts the broadest first and marks them, settings next, narrow rules last, each kind in file order', () => {
    const narrow = Array.from({ length: 30 }, (_, i) =>
      rule(`project#${i + 1}`, { tool: 'execute_command', when: { command: `npm run t${i}` } }),
    );
    const hidden = rule('project#31', { tool: '*' });
    const wild = rule('project#32', { tool: 'execute_command', when: { command: '* x' } });
    const items = looseningItems(
      [...narrow, hidden, wild],
      [{ key: 'mode', label: 'mode "auto-edit"' }],
      '/p/c.json',
    );
    expect(items[0]?.text).toMatch(/^allow \* \(every tool, every call\) — project#31$/);
    expect(items[0]?.broad).toBe(true);
    expect(items[1]?.text).toContain('project#32');
    expect(items[2]).toEqual({ kind: 'setting', file: '/p/c.json', text: 'mode "auto-edit"' });
    expect(items.slice(3).map((i) => i.text.split(' — ')[1])).toEqual(narrow.map((r) => r.id));
    expect(items.slice(3).some((i) => i.broad)).toBe(false);
  });
});
