import { describe, expect, it } from 'vitest';
import { contextShare } from '../../../components/widgets/StatusBar';
import type { CoreState } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { stripAnsi, waitForFrame } from '../../helpers/ink';
import { renderApp } from '../app-harness';
import { statusBarFrame } from './status-bar-frame';

const bar = (context: CoreState['context']): string => statusBarFrame({ context });

describe('context in the status bar', () => {
  it.each<[CoreState['context'], string | undefined, boolean]>([
    [undefined, undefined, false],
    [{ used: 42_000, window: 100_000, source: 'server' }, 'ctx 42%', false],
    [{ used: 79_400, window: 100_000, source: 'tokenizer' }, 'ctx 79%', false],
    [{ used: 80_000, window: 100_000, source: 'server' }, 'ctx 80% (/compact)', true],
    [{ used: 131_000, window: 128_000, source: 'server' }, 'ctx 102% (/compact)', true],
  ])('%j → %s', (context, shows, warns) => {
    const plain = bar(context);
    if (!shows) return expect(plain).not.toContain('ctx');
    expect(plain).toContain(shows);
    // From 80 % the figure points at the remedy (and takes the warning colour where colour is on).
    expect(plain.includes('(/compact)')).toBe(warns);
  });

  it.each([
    [{ used: 0, window: 0, source: 'server' as const }, 0],
    [{ used: 1, window: 3, source: 'server' as const }, 33],
  ])('share %j → %d', (use, share) => expect(contextShare(use)).toBe(share));

  it('the app shows the core figure, live', async () => {
    const core = new FakeCore();
    const view = await renderApp(core, { columns: 160 });
    expect(stripAnsi(view.lastFrame() ?? '')).not.toContain('ctx ');
    core.update({ context: { used: 50_000, window: 100_000, source: 'server' } });
    await waitForFrame(view.lastFrame, 'ctx 50%');
  });
});
