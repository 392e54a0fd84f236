import { describe, expect, it } from 'vitest';
import { agentsCovered } from '../../../components/drawer/forms/GrantChooser';
import type { Grant } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, waitForFrame } from '../../helpers/ink';
import { renderApp } from '../app-harness';
import { statusBarFrame } from './status-bar-frame';
import { grantGlob, grantTool, modifyRequest, renderDrawer } from '../drawer/approval-drawer-harness';

const bar = (grantCount: number | undefined): string => statusBarFrame({ grantCount });

const grant = (id: string): Grant => ({ ...grantTool, id, createdAt: '2025-01-02T10:00:00.000Z', uses: 0 });

describe('grants in the status bar', () => {
  it.each<[number | undefined, string | undefined]>([
    [undefined, undefined],
    [0, undefined],
    [1, '✓ 1 grant │'],
    [3, '✓ 3 grants │'],
  ])('%s active → %s', (count, shows) => {
    const frame = bar(count);
    if (shows) expect(frame).toContain(shows);
    else expect(frame).not.toMatch(/grant/);
  });

  it('the app counts the grants of the core snapshot, live', async () => {
    const core = new FakeCore({ grants: [grant('g1')] });
    const { lastFrame } = await renderApp(core, { columns: 140 });
    await waitForFrame(lastFrame, '✓ 1 grant');
    core.update({ grants: [grant('g1'), grant('g2')] });
    await waitForFrame(lastFrame, '✓ 2 grants');
    core.update({ grants: [] });
    await waitForFrame(lastFrame, (f) => !f.includes('grant'));
  });
});

describe('the rule preview names the agents a grant covers', () => {
  it.each([
    [grantTool.agents, 'this agent only (main)'],
    [grantGlob.agents, 'all agents'],
  ])('%j → %s', (agents, text) => {
    expect(agentsCovered(agents)).toBe(text);
  });

  it('the chooser shows it under the picked scope', async () => {
    const d = renderDrawer([modifyRequest({ grantOptions: [grantTool, grantGlob] })]);
    await d.ready();
    await press(d.stdin, 'a');
    let f = await d.frame('pick a scope');
    expect(f).toContain('covers this agent only (main)');
    expect(f).not.toContain('covers all agents');
    await press(d.stdin, KEY.down);
    f = await d.frame('covers all agents');
    expect(f).not.toContain('covers this agent only');
  });
});
