import { describe, expect, it } from 'vitest';
import { FakeCore } from '../../helpers/fake-core';
import { waitUntil } from '../../helpers/ink';
import { renderApp } from '../app-harness';

describe('the audit banner', () => {
  it('shows while the core says the audit log cannot be written, and goes when it clears', async () => {
    const core = new FakeCore();
    const { lastFrame } = await renderApp(core);
    expect(lastFrame()).not.toContain('AUDIT LOG UNAVAILABLE');
    core.update({
      auditUnavailable: { error: 'ENOSPC: no space left on device', since: '2025-01-02T10:00:00.000Z' },
    });
    await waitUntil(() => expect(lastFrame()).toContain('AUDIT LOG UNAVAILABLE'));
    const frame = lastFrame() ?? '';
    expect(frame).toContain('nothing runs until it can be written');
    expect(frame).toContain('ENOSPC');
    // The banner takes its row from the layout: the status bar is still the last line.
    expect(frame.trimEnd().split('\n').at(-1)).toContain('mode ');
    core.update({ auditUnavailable: undefined });
    await waitUntil(() => expect(lastFrame()).not.toContain('AUDIT LOG UNAVAILABLE'));
    expect(lastFrame()).toContain('mode ');
  });
});
