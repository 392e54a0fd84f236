import { describe, expect, it, vi } from 'vitest';
import { loadedBashLanguage } from '../../src/policy/command/command-judge';
import type { CoreEvent } from '../../src/protocol';
import { lazyCommandGuard } from '../../src/session/wiring/command-guard-loader';

// One file, one module registry: nothing here has loaded the grammar before these run.
describe('the shell grammar loads only for a command that needs it (issue 34)', () => {
  it('a plain line is judged without the grammar; the first line that is more than words loads it', async () => {
    const events: CoreEvent[] = [];
    const lazy = lazyCommandGuard(undefined, (e) => events.push(e));
    // Before anything is ready, nothing is judged: every command asks.
    expect(lazy.commands.judge('ls -la')).toMatchObject({ kind: 'cannot_judge', reason: /still loading/ });
    await lazy.prepare();
    await lazy.ready('ls -la');
    expect(loadedBashLanguage()).toBeUndefined();
    expect(lazy.commands.judge('ls -la')).toMatchObject({ kind: 'ok', readOnly: true });
    expect(lazy.commands.judge('rm -rf build')).toMatchObject({
      kind: 'ok',
      destructive: ['deletes files (rm)'],
    });
    expect(lazy.commands.judge('sudo ls')).toMatchObject({ kind: 'deny', ruleId: 'cmd-sudo' });
    // A pipeline, or code run by `bash -c` that is more than words: not judged until the grammar reads it.
    expect(lazy.commands.judge('ls | wc -l')).toMatchObject({
      kind: 'cannot_judge',
      reason: /still loading/,
    });
    expect(lazy.commands.judge('bash -c A=1')).toMatchObject({
      kind: 'cannot_judge',
      reason: /still loading/,
    });
    expect(loadedBashLanguage()).toBeUndefined();
    await lazy.ready('ls | wc -l');
    expect(loadedBashLanguage()).toBeDefined();
    expect(lazy.commands.judge('ls | wc -l')).toMatchObject({ kind: 'ok', readOnly: true });
    expect(events).toEqual([]);
  });

  it('a line judged before the gate made it ready (an edit) asks, and starts what it needs loading', async () => {
    const lazy = lazyCommandGuard(undefined, () => {});
    expect(lazy.commands.judge('ls | wc -l')).toMatchObject({
      kind: 'cannot_judge',
      reason: /still loading/,
    });
    await vi.waitFor(() => expect(lazy.commands.judge('ls | wc -l')).toMatchObject({ kind: 'ok' }));
  });
});
