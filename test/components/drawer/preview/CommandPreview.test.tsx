/** The command card's always-visible row: what approving lifts, and that nothing is protected unsandboxed. */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../../src/protocol';
import { commandRequest, renderDrawer } from '../approval-drawer-harness';

afterEach(() => cleanup());

const writing = (sandboxed: boolean): ApprovalRequest => {
  const base = commandRequest({}, sandboxed);
  if (base.preview.kind !== 'command') throw new Error('not a command');
  return {
    ...base,
    args: { command: 'npm pkg set name=x' },
    preview: {
      ...base.preview,
      command: 'npm pkg set name=x',
      parts: ['npm pkg set name=x'],
      writes: [{ path: 'package.json', protected: 'package.json' }, { path: 'dist/x' }],
    },
  };
};

describe('command card: protected paths', () => {
  it('sandboxed: names the protected paths approving makes writable for this run only', async () => {
    const d = renderDrawer([writing(true)], { width: 140 });
    const f = await d.ready('writable for this run only');
    expect(f).toContain('sandboxed · writes: package.json (protected — writable for this run only)');
    expect(f).not.toContain('dist/x (protected');
  });

  it('sandboxed without protected writes: says protected paths stay read-only', async () => {
    const d = renderDrawer([commandRequest({}, true)], { width: 140 });
    const f = await d.ready('sandboxed ·');
    expect(f).toContain('project writable except protected paths');
    expect(f).not.toContain('writable for this run only');
  });

  it('not sandboxed: says plainly that nothing is protected during this run', async () => {
    const d = renderDrawer([writing(false)], { width: 140 });
    const f = await d.ready('NOT sandboxed');
    expect(f).toContain('nothing is protected during this run');
    expect(f).not.toContain('writable for this run only');
  });
});

describe('command card: provenance (issue 26 §4)', () => {
  const running = (files: string[], commands: number): ApprovalRequest => {
    const base = commandRequest({}, true);
    if (base.preview.kind !== 'command') throw new Error('not a command');
    return {
      ...base,
      args: { command: 'npm test' },
      preview: { ...base.preview, command: 'npm test', parts: ['npm test'], unreviewed: { files, commands } },
    };
  };

  it.each([
    [80, 24],
    [120, 40],
  ])(
    'at %ix%i the unreviewed files sit right under the command, in view, one per row',
    async (width, height) => {
      const files = Array.from({ length: 10 }, (_, i) => `test/suite-${i}.test.js`);
      const d = renderDrawer([running(files, 2)], { width, height });
      const f = await d.ready('not reviewed');
      const lines = f.split('\n');
      const at = lines.findIndex((l) => l.includes('runs project code that agents changed'));
      expect(lines.findIndex((l) => l.includes('$ npm test'))).toBeLessThan(at);
      expect(f).toContain('test/suite-0.test.js');
      expect(lines.every((l) => l.length <= width)).toBe(true);
      expect(lines.length).toBeLessThanOrEqual(height);
    },
  );

  it('lists at most 8 files and says how many more, and the commands of this turn', async () => {
    const files = Array.from({ length: 11 }, (_, i) => `f${i}.js`);
    const d = renderDrawer([running(files, 2)], { width: 120, height: 40 });
    const f = await d.ready('and 3 more');
    expect(f).toContain('and what 2 commands changed this turn');
    expect(f).not.toContain('f8.js');
  });
});

describe('command card: lines behind blank ones', () => {
  it.each([
    [80, 24],
    [120, 40],
  ])('at %ix%i a command after 40 blank lines is in view, the blank run folded', async (width, height) => {
    const command = `echo ok${'\n'.repeat(41)}rm -rf src`;
    const base = commandRequest({}, true);
    if (base.preview.kind !== 'command') throw new Error('not a command');
    const request = {
      ...base,
      args: { command },
      preview: { ...base.preview, command, parts: ['echo ok', 'rm -rf src'] },
    };
    const d = renderDrawer([request], { width, height });
    const f = await d.ready('40 blank lines');
    const lines = f.split('\n');
    const echo = lines.findIndex((l) => l.includes('$ echo ok'));
    expect(lines[echo + 2]).toContain('rm -rf src');
    expect(lines.length).toBeLessThanOrEqual(height);
  });
});
