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
    expect(f).toContain('Goal: make npm test pass');
    expect(f).toContain('execute_command npm test -- --runInBand');
    expect(f).toContain('→ failed: exit code 1');
    expect(f).toContain('Needs: 3 tool calls failed in a row');
    expect(f).toContain('r retry with an instruction · t take over · s skip step · c cancel task');
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
