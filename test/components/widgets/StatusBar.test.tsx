import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { CoreState } from '../../../src/protocol';
import { StatusBar } from '../../../components/widgets/StatusBar';
import { makeState } from '../../helpers/fake-core';
import { stripAnsi } from '../../helpers/ink';

function bar(
  overrides: Partial<CoreState> = {},
  extra: { width?: number; home?: string; held?: boolean } = {},
) {
  const s = makeState(overrides);
  const { lastFrame } = render(
    <StatusBar
      model={s.model}
      mode={s.mode}
      sandboxed={s.sandboxChecking ? 'checking' : s.sandboxed}
      pendingCount={s.pending.length}
      usage={s.usage}
      root={s.root}
      mcp={s.mcp}
      busy={s.busy}
      width={extra.width ?? 160}
      home={extra.home}
      held={extra.held}
      paused={s.paused}
    />,
  );
  return stripAnsi(lastFrame() ?? '');
}

describe('StatusBar', () => {
  it('shows model, mode, sandbox, tokens and the project root', () => {
    const frame = bar({
      model: { name: 'gpt-4o', demo: false },
      mode: 'auto-edit',
      usage: { promptTokens: 12_000, completionTokens: 345, responses: 2 },
      root: '/srv/app',
    });
    expect(frame).toContain('gpt-4o');
    expect(frame).toContain('mode auto-edit');
    expect(frame).toContain('sandbox on');
    expect(frame).toContain('12k tok');
    expect(frame).toContain('/srv/app');
    expect(frame).not.toContain('DEMO');
    expect(frame).not.toContain('pending');
  });

  it('labels the scripted demo model clearly instead of a model name', () => {
    const frame = bar({ model: { name: 'demo-script', demo: true } });
    expect(frame).toContain('[DEMO · scripted model, no API key]');
  });

  it('warns when the sandbox is off', () => {
    expect(bar({ sandboxed: false })).toContain('⚠ sandbox off');
  });

  it('says the sandbox is being checked (the first moments of the app), neither on nor off', () => {
    const frame = bar({ sandboxed: false, sandboxChecking: true });
    expect(frame).toContain('sandbox …');
    expect(frame).not.toContain('sandbox on');
    expect(frame).not.toContain('sandbox off');
  });

  it('counts pending approvals and names failing MCP servers', () => {
    const frame = bar({
      pending: [{} as CoreState['pending'][number], {} as CoreState['pending'][number]],
      mcp: [
        { name: 'github', status: 'failed', tools: 0, error: 'spawn ENOENT' },
        { name: 'fs', status: 'ready', tools: 4 },
      ],
    });
    expect(frame).toContain('● 2 pending');
    expect(frame).toContain('✗ mcp: github');
    expect(frame).not.toContain('mcp: github, fs');
  });

  it('shortens the root with ~ for home', () => {
    const frame = bar({ root: '/home/ada/code/acme/warden' }, { home: '/home/ada' });
    expect(frame).toContain('~/code/acme/warden');
    expect(frame).not.toContain('/home/ada');
  });

  it('drops middle segments of a long root and stays on one line', () => {
    const frame = bar(
      { root: '/home/ada/very/deep/nested/folders/of/a/project/named/warden' },
      { home: '/home/ada', width: 80 },
    );
    expect(frame).toContain('warden');
    expect(frame).toContain('…');
    expect(frame.split('\n')).toHaveLength(1);
  });

  it('says a turn is running and how to cancel it', () => {
    expect(bar({ busy: true })).toContain('working (Esc cancels)');
  });

  it('a turn whose agents are all paused says paused, not working (issue 33)', () => {
    const frame = bar({ busy: true, paused: { all: false, agents: ['tester'] } }, { held: true });
    expect(frame).toContain('⏸ paused: tester (Ctrl+P resumes · Esc cancels)');
    expect(frame).not.toContain('working');
  });
});
