import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { AuditSidebar } from '../../../components/panels/AuditSidebar';
import { clock } from '../../../components/look/format';
import type { AgentInfo } from '../../../src/protocol';
import { makeAuditRecord } from '../../helpers/fake-core';
import { stripAnsi } from '../../helpers/ink';

const agents: AgentInfo[] = [
  { id: 'sub-1', name: 'scout', parentId: 'main', taskId: 't', task: 'x', status: 'running' },
];

const frameOf = (node: Parameters<typeof render>[0]) => stripAnsi(render(node).lastFrame() ?? '');

describe('AuditSidebar', () => {
  it('says when there are no decisions yet', () => {
    expect(frameOf(<AuditSidebar records={[]} agents={agents} width={40} height={10} />)).toContain(
      'no decisions yet',
    );
  });

  it('shows time, tool, agent name, outcome and approver, newest first', () => {
    const records = [
      makeAuditRecord({
        ts: '2025-01-02T10:00:00.000Z',
        tool: 'write_file',
        outcome: 'executed',
        approver: 'human',
      }),
      makeAuditRecord({
        ts: '2025-01-02T10:05:00.000Z',
        tool: 'execute_command',
        agentId: 'sub-1',
        outcome: 'blocked',
        approver: 'policy',
      }),
    ];
    const frame = frameOf(<AuditSidebar records={records} agents={agents} width={40} height={10} />);
    expect(frame).toContain(`${clock('2025-01-02T10:05:00.000Z')} scout blocked by policy`);
    expect(frame).toContain(`${clock('2025-01-02T10:00:00.000Z')} main executed by human`);
    expect(frame.indexOf('execute_command')).toBeLessThan(frame.indexOf('write_file'));
  });

  it('shows the decision of a line written before execution', () => {
    const record = makeAuditRecord({
      phase: 'decision',
      outcome: undefined,
      decision: 'ask',
      approver: 'human',
    });
    expect(frameOf(<AuditSidebar records={[record]} agents={[]} width={40} height={8} />)).toContain(
      'main ask by human',
    );
  });

  it('says what each call acted on, and marks the earlier decisions on the call a card asks about (issue 33)', () => {
    const records = [
      makeAuditRecord({
        tool: 'execute_command',
        args: { command: 'npm test' },
        argsHash: 'h1',
        outcome: 'rejected',
      }),
      makeAuditRecord({ tool: 'write_file', args: { path: 'src/a.ts' }, argsHash: 'h2' }),
    ];
    const frame = frameOf(
      <AuditSidebar
        records={records}
        agents={[]}
        width={40}
        height={10}
        related={(r) => r.argsHash === 'h1'}
      />,
    );
    expect(frame).toMatch(/^│\s+write_file src\/a\.ts/m);
    expect(frame).toMatch(/▶\S+ main rejected by/);
    expect(frame).toMatch(/execute_command npm test/);
    expect(frame).not.toMatch(/▶\S+ main executed/);
  });

  it('keeps only as many of the latest records as fit its height', () => {
    const records = Array.from({ length: 30 }, (_, i) => makeAuditRecord({ tool: `tool_${i}` }));
    const frame = frameOf(<AuditSidebar records={records} agents={[]} width={40} height={9} />);
    expect(frame).toContain('tool_29');
    expect(frame).toContain('tool_27');
    expect(frame).not.toContain('tool_26');
    expect(frame.split('\n')).toHaveLength(9);
  });
});
