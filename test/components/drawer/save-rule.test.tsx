/**
 * "Don't ask again" on a card: `A` shows the exact rule approve-all would grant as JSON, asks which
 * file, and sends approve-all for that scope with `save`. Offered only where approve-all is.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { GrantScope } from '../../../src/protocol';
import { savableScopes } from '../../../components/drawer/forms/SaveRule';
import { cardFooter, cardHelp } from '../../../components/keys/keymap';
import { KEY, press, waitUntil } from '../../helpers/ink';
import { commandRequest, grantGlob, grantTool, modifyRequest, renderDrawer } from './approval-drawer-harness';

afterEach(() => cleanup());

const allTool: GrantScope = {
  ...grantTool,
  agents: { kind: 'all' },
  label: 'write_file anywhere, all agents',
  ruleText: '{"tool":"write_file","decision":"allow"}',
};

describe("don't ask again (A)", () => {
  it('is in the footer and the help of a card with scopes, not of one without', () => {
    expect(cardFooter('command', new Set(['grants']))).toContain('A always');
    expect(cardFooter('command', new Set())).not.toContain('A always');
    expect(cardHelp('diff').map((r) => r.keys)).toContain('A');
  });

  it('keeps one rule per text, the all-agents scopes only, and no plan scope', () => {
    const plan: GrantScope = { ...grantGlob, ruleText: '' };
    expect(savableScopes([grantTool, allTool, grantGlob, { ...grantGlob }, plan])).toEqual([
      allTool,
      grantGlob,
    ]);
  });

  it('shows the JSON, ↓ picks the next rule, u sends approve-all with save: user', async () => {
    const d = renderDrawer([modifyRequest({ grantOptions: [grantTool, allTool, grantGlob] })]);
    await d.ready();
    await press(d.stdin, 'A');
    let f = await d.frame("Don't ask again");
    expect(f).toContain(allTool.ruleText);
    expect(f).toContain('p save to the project');
    expect(f).toContain('u save for you');
    await press(d.stdin, KEY.down);
    f = await d.frame(grantGlob.ruleText);
    await press(d.stdin, 'u');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-1', decision: { kind: 'approve_all', scope: grantGlob }, save: 'user' },
      ]),
    );
  });

  it('p saves to the project; an untrusted project is warned about first; Esc sends nothing', async () => {
    const d = renderDrawer([commandRequest({ grantOptions: [allTool] })]);
    d.core.update({
      trust: { status: 'untrusted', asking: false, hash: 'h', items: [], store: '/x/trust.json' },
    });
    await d.ready();
    await press(d.stdin, 'A');
    await d.frame('held back');
    await press(d.stdin, KEY.escape);
    await waitUntil(() => expect(d.lastFrame()).not.toContain("Don't ask again"));
    expect(d.core.sentOf('decide')).toEqual([]);
    await press(d.stdin, 'A');
    await d.frame("Don't ask again");
    await press(d.stdin, 'p');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-cmd', decision: { kind: 'approve_all', scope: allTool }, save: 'project' },
      ]),
    );
  });

  it('without a rule to save, A says so (as a does) and sends nothing', async () => {
    const d = renderDrawer([modifyRequest({ grantOptions: [grantTool] })]);
    await d.ready();
    await press(d.stdin, 'A');
    await d.frame('No rule can be saved for this call');
    await press(d.stdin, 'p', 'u', KEY.enter);
    expect(d.core.sentOf('decide')).toEqual([]);
  });
});
