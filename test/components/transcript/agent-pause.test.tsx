import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { AgentGroup } from '../../../components/transcript/AgentGroup';
import { markPaused, turnOnHold } from '../../../components/transcript/agent-pause';
import type { AgentInfo } from '../../../src/protocol';

const agent = (id: string, status: AgentInfo['status']): AgentInfo => ({
  id,
  name: id,
  parentId: 'main',
  taskId: `task-${id}`,
  task: `the ${id} task`,
  status,
  prompt: 1,
});

describe('a paused agent on screen (issue 33)', () => {
  it('the group says paused, not running', () => {
    const agents = markPaused([agent('writer', 'done'), agent('tester', 'running')], {
      all: false,
      agents: ['tester'],
    });
    const frame = render(<AgentGroup agents={agents} expanded width={100} />).lastFrame() ?? '';
    expect(frame).toContain('1 paused, 1 done');
    expect(frame).toMatch(/⏸ tester paused/);
    expect(frame).not.toMatch(/tester running/);
  });

  it('a turn is on hold when every active agent is paused, not while one still works', () => {
    const agents = [agent('writer', 'running'), agent('tester', 'running')];
    expect(turnOnHold(agents, { all: false, agents: ['tester'] })).toBe(false);
    expect(turnOnHold(agents, { all: false, agents: ['tester', 'writer'] })).toBe(true);
    expect(turnOnHold(agents, { all: true, agents: [] })).toBe(true);
    expect(turnOnHold([agent('writer', 'done')], { all: false, agents: ['main'] })).toBe(true);
    expect(turnOnHold(agents, undefined)).toBe(false);
  });
});
