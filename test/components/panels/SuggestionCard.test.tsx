import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { SuggestionCard } from '../../../components/panels/SuggestionCard';
import type { Suggestion } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, waitForFrame, waitUntil } from '../../helpers/ink';

// Issue 14 §5: the offer card shows exactly what would be written and where, and answers with one key.

afterEach(() => cleanup());

const RULE: Suggestion = {
  kind: 'rule',
  id: 's1',
  label: 'execute_command `npm test`',
  count: 3,
  ruleText: '{"tool":"execute_command","when":{"command":"npm test"},"decision":"allow"}',
  files: { project: '/p/.warden/policy.json', user: '/home/t/.warden/policy.json' },
};
const PREF: Suggestion = {
  kind: 'preference',
  id: 's2',
  label: 'path: tmp/ → src/',
  count: 2,
  line: '- In `write_file` calls, write `src/` where you would write `tmp/` in `path` (the person corrected this 2 times).',
  file: '/p/AGENTS.md',
};

describe('SuggestionCard', () => {
  it('a rule: shows the exact JSON and both files; p, u and n send the answer', async () => {
    for (const [key, command] of [
      ['p', { type: 'accept_suggestion', id: 's1', target: 'project' }],
      ['u', { type: 'accept_suggestion', id: 's1', target: 'user' }],
      ['n', { type: 'decline_suggestion', id: 's1' }],
      [KEY.escape, { type: 'decline_suggestion', id: 's1' }],
    ] as const) {
      const core = new FakeCore();
      const view = render(<SuggestionCard client={core} suggestion={RULE} width={120} isActive />);
      const f = await waitForFrame(view.lastFrame, 'Save this as a rule?');
      expect(f).toContain(RULE.ruleText);
      expect(f).toContain('You approved execute_command `npm test` 3 times');
      expect(f).toContain('p → /p/.warden/policy.json');
      expect(f).toContain('u → /home/t/.warden/policy.json');
      await press(view.stdin, key);
      await waitUntil(() => expect(core.sent).toContainEqual(command));
      view.unmount();
    }
  });

  it('a preference: shows the exact line and AGENTS.md; y writes, u does nothing', async () => {
    const core = new FakeCore();
    const view = render(<SuggestionCard client={core} suggestion={PREF} width={160} isActive />);
    const f = await waitForFrame(view.lastFrame, 'Remember this preference?');
    expect(f).toContain(PREF.line);
    expect(f).toContain('to /p/AGENTS.md');
    await press(view.stdin, 'u');
    expect(core.sent).toEqual([]);
    await press(view.stdin, 'y');
    await waitUntil(() =>
      expect(core.sent).toEqual([{ type: 'accept_suggestion', id: 's2', target: 'project' }]),
    );
  });
});
