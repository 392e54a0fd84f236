import { describe, expect, it } from 'vitest';
import { planStepOf } from '../../src/agent/plan-step';

const plan = {
  title: 'Add farewell()',
  steps: [
    { text: 'Read the project', done: false },
    { text: 'Write src/farewell.js and try it (sub-agent writer)', done: false },
    { text: 'Write test/farewell.test.js and run npm test (sub-agent tester)', done: false },
    { text: 'Summarise what changed', done: false },
  ],
};

describe('planStepOf (issue 33: no stale step on sub-agents’ cards)', () => {
  it('the main agent is on the first open step', () => {
    expect(planStepOf(plan, 'main', false)).toMatchObject({ index: 1, total: 4 });
  });
  it('a sub-agent is on the step that names it, or on none', () => {
    expect(planStepOf(plan, 'writer', true)).toMatchObject({
      index: 2,
      title: expect.stringContaining('writer'),
    });
    expect(planStepOf(plan, 'tester', true)).toMatchObject({ index: 3 });
    expect(planStepOf(plan, 'reviewer', true)).toBeUndefined();
    // A name inside another word is not a match.
    expect(planStepOf(plan, 'writ', true)).toBeUndefined();
  });
});
