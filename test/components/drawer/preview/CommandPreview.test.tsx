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
