import { describe, expect, it } from 'vitest';
import {
  type CardView,
  type DrawerAction,
  type DrawerEffect,
  type DrawerState,
  cardKeysLine,
  initialDrawerState,
  reduceDrawer,
} from '../../../components/drawer/drawer-state';
import { ESCALATION_FOOTER, escalationHelp } from '../../../components/keys/keymap';
import type { ApprovalRequest } from '../../../src/protocol';
import { makeRequest } from '../../helpers/fake-core';

const VIEW: CardView = { width: 120, total: 10, viewport: 10, initial: 0 };

const escalation = (): ApprovalRequest =>
  makeRequest({
    id: 'e1',
    agentId: 'agent-1',
    agentName: 'writer',
    tool: 'escalate',
    preview: {
      kind: 'escalation',
      trigger: 'failures',
      goal: 'make the tests pass',
      tried: [{ call: 'execute_command npm test', result: 'failed: exit code 1' }],
      needs: '3 tool calls failed in a row.',
    },
  });
const write = (): ApprovalRequest =>
  makeRequest({
    id: 'w1',
    agentId: 'agent-2',
    agentName: 'tester',
    args: { path: 'a', content: 'b' },
    preview: { kind: 'diff', path: 'a', before: '', after: 'b', isNew: true },
  });

function play(pending: ApprovalRequest[], steps: (string | DrawerAction)[]) {
  let state: DrawerState = initialDrawerState();
  const effects: DrawerEffect[] = [];
  const apply = (action: DrawerAction) => {
    const r = reduceDrawer(state, action);
    state = reduceDrawer(r.state, { type: 'painted' }).state;
    effects.push(...r.effects);
  };
  apply({ type: 'sync', pending, now: 1 });
  apply({ type: 'grace_elapsed' });
  effects.length = 0;
  for (const step of steps) apply(typeof step === 'string' ? { type: 'key', id: step, view: VIEW } : step);
  return { state, effects };
}
const sent = (effects: DrawerEffect[]) => effects.flatMap((e) => (e.kind === 'send' ? [e.command] : []));

describe('escalation card keys (issue 14 §3)', () => {
  const cases: { keys: string[]; want: unknown[] }[] = [
    {
      keys: ['t'],
      want: [{ type: 'decide', id: 'e1', decision: { kind: 'escalation', choice: 'take_over' } }],
    },
    { keys: ['s'], want: [{ type: 'decide', id: 'e1', decision: { kind: 'skip' } }] },
    { keys: ['c'], want: [{ type: 'decide', id: 'e1', decision: { kind: 'cancel_task' } }] },
    { keys: ['x'], want: [{ type: 'report_invalid_input', id: 'e1' }] },
    // y approves nothing on an escalation card: there is nothing to approve.
    { keys: ['y'], want: [{ type: 'report_invalid_input', id: 'e1' }] },
    { keys: ['r'], want: [] },
  ];
  for (const c of cases)
    it(`${c.keys.join(' ')} → ${JSON.stringify(c.want)}`, () => {
      expect(sent(play([escalation()], c.keys).effects)).toEqual(c.want);
    });

  it('r opens the instruction field; its Enter sends retry with the instruction; Esc goes back', () => {
    const opened = play([escalation()], ['r']);
    expect(opened.state.card.typing).toBe(true);
    // While typing, the card's keys are the field's: t types, it does not take over.
    expect(sent(play([escalation()], ['r', 't']).effects)).toEqual([]);
    const back = play([escalation()], ['r', { type: 'back' }]);
    expect(back.state.card.typing).toBe(false);
    const retried = play(
      [escalation()],
      ['r', { type: 'decide', decision: { kind: 'escalation', choice: 'retry', instruction: 'use yarn' } }],
    );
    expect(sent(retried.effects)).toEqual([
      {
        type: 'decide',
        id: 'e1',
        decision: { kind: 'escalation', choice: 'retry', instruction: 'use yarn' },
      },
    ]);
  });

  it('the footer and ? help come from ESCALATION_KEYS', () => {
    expect(cardKeysLine(escalation())).toBe(ESCALATION_FOOTER);
    expect(ESCALATION_FOOTER).toContain('r retry with an instruction');
    expect(escalationHelp().map((r) => r.keys)).toEqual(['r', 't', 's', 'c', 'Tab', '?']);
  });
});

describe('p pauses the requesting agent (issue 14 §2)', () => {
  it('on a tool card: sends pause for that agent; the card stays undecided', () => {
    const { effects, state } = play([write()], ['p']);
    expect(sent(effects)).toEqual([{ type: 'pause', agentId: 'agent-2' }]);
    expect(state.message?.text).toContain('pausing tester');
  });
  it('on a question card too', () => {
    const question = makeRequest({
      id: 'q1',
      agentId: 'main',
      preview: { kind: 'question', question: 'Which?', options: ['a'] },
    });
    expect(sent(play([question], ['p']).effects)).toEqual([{ type: 'pause', agentId: 'main' }]);
  });
});
