import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRequest } from '../../helpers/fake-core';
import { KEY, press, type, waitUntil } from '../../helpers/ink';
import { renderDrawer } from './approval-drawer-harness';

afterEach(() => cleanup());

const escalation = () =>
  makeRequest({
    id: 'req-esc',
    agentId: 'agent-7',
    agentName: 'tester',
    tool: 'escalate',
    args: {},
    preview: {
      kind: 'escalation',
      trigger: 'failures',
      goal: 'make npm test pass',
      tried: [
        { call: 'execute_command npm test', result: 'failed: exit code 1' },
        { call: 'execute_command npm test -- --runInBand', result: 'failed: exit code 1' },
      ],
      needs: '3 tool calls failed in a row (the last: execute_command npm test).',
    },
  });

describe('the escalation card (issue 14 §3)', () => {
  it('shows who stopped and why, the goal, what was tried and what is needed, with its keys', async () => {
    const d = renderDrawer([escalation()]);
    const f = await d.ready('failed the same step repeatedly');
    expect(f).toContain('tester failed the same step repeatedly and stopped');
    expect(f).toMatch(/^Goal +make npm test pass/m);
    expect(f).toMatch(/^Tried +1\. execute_command npm test$/m);
    expect(f).toMatch(/^ +2\. execute_command npm test -- --runInBand$/m);
    expect(f).toContain('→ failed: exit code 1');
    expect(f).toMatch(/^Needs +3 tool calls failed in a row/m);
    // Its own kind of card (issue 33): no tool-call details, and the key line once.
    expect(f).not.toMatch(/^(why|rule|undo|what) /m);
    expect(f).not.toContain('NOT reversible');
    expect(f).not.toContain('{');
    const keyLine = 'r retry with an instruction · t take over · s skip step · c cancel task';
    const settled = await d.frame(keyLine);
    expect(settled.split(keyLine).length - 1).toBe(1);
    expect(f).toMatch(/^Choose r  type an instruction/m);
  });

  it('in a short drawer every attempt is still listed, one line each', async () => {
    const many = escalation();
    if (many.preview.kind !== 'escalation') throw new Error('an escalation');
    many.preview.tried = ['a', 'b', 'c'].map((n) => ({
      call: `read_file ${n}.json`,
      result: `error: ${n}.json does not exist`,
    }));
    const d = renderDrawer([many], { width: 80, height: 11 });
    const f = await d.ready('failed the same step repeatedly');
    for (const [i, n] of ['a', 'b', 'c'].entries())
      expect(f).toMatch(new RegExp(`${i + 1}\\. read_file ${n}\\.json → error: ${n}\\.json does not exist`));
  });

  it('r, an instruction and Enter send retry with it', async () => {
    const d = renderDrawer([escalation()]);
    await d.ready('failed the same step');
    await press(d.stdin, 'r');
    await d.frame('instruction ›');
    await type(d.stdin, 'use yarn test');
    await press(d.stdin, KEY.enter);
    await waitUntil(() => expect(d.core.sent.length).toBeGreaterThan(0));
    expect(d.core.sent).toEqual([
      {
        type: 'decide',
        id: 'req-esc',
        decision: { kind: 'escalation', choice: 'retry', instruction: 'use yarn test' },
      },
    ]);
  });

  it('t takes over (the agent pauses)', async () => {
    const d = renderDrawer([escalation()]);
    await d.ready('failed the same step');
    await press(d.stdin, 't');
    await waitUntil(() => expect(d.core.sent.length).toBeGreaterThan(0));
    expect(d.core.sent).toEqual([
      { type: 'decide', id: 'req-esc', decision: { kind: 'escalation', choice: 'take_over' } },
    ]);
  });
});
