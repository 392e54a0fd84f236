import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { AuditBrowser } from '../../../components/panels/AuditBrowser';
import type { AuditRecord } from '../../../src/protocol/audit';
import type { AgentInfo } from '../../../src/protocol';
import { FakeCore, makeAuditRecord, makeStats } from '../../helpers/fake-core';
import { KEY, press, type, waitForFrame, waitUntil } from '../../helpers/ink';

const TODAY = '2025-01-02';
const YESTERDAY = '2025-01-01';
const now = () => new Date(2025, 0, 2, 12, 0, 0);

const agents: AgentInfo[] = [
  { id: 'main', name: 'main', taskId: 't1', task: 'lead', status: 'running' },
  { id: 'sub-7', name: 'scout', parentId: 'main', taskId: 't1', task: 'look', status: 'done' },
];

const DAYS: Record<string, AuditRecord[]> = {
  [TODAY]: [
    makeAuditRecord({
      tool: 'write_file',
      outcome: 'executed',
      approver: 'human',
      args: { path: 'src/a.ts' },
      rule: 'ask-writes',
    }),
    makeAuditRecord({
      tool: 'execute_command',
      outcome: 'rejected',
      approver: 'human',
      args: { command: 'rm -rf build' },
      reason: 'use npm run clean',
      rule: 'ask-commands',
    }),
    makeAuditRecord({
      tool: 'execute_command',
      outcome: 'executed',
      approver: 'grant',
      agentId: 'sub-7',
      args: { command: 'npm test' },
      editedArgs: { command: 'npm test -- --run' },
      rule: 'grant-npm',
    }),
    makeAuditRecord({
      tool: 'read_file',
      outcome: 'executed',
      approver: 'policy',
      args: { path: 'TOKEN=[REDACTED:token]' },
      rule: 'allow-reads',
    }),
  ],
  [YESTERDAY]: [
    makeAuditRecord({
      tool: 'web_fetch',
      outcome: 'blocked',
      approver: 'none',
      args: { url: 'http://10.0.0.1' },
      rule: 'ssrf',
    }),
  ],
};

function setup(width = 100) {
  const core = new FakeCore();
  core.onCommand = (command, c) => {
    if (command.type !== 'query_audit') return;
    const { query } = command;
    const all = DAYS[query.from ?? ''] ?? [];
    // Like the core: filters and search applied there, newest first.
    const text = query.text?.toLowerCase();
    const records = all
      .filter(
        (r) =>
          (query.tool === undefined || r.tool === query.tool) &&
          (query.outcome === undefined || r.outcome === query.outcome) &&
          (query.approver === undefined || r.approver === query.approver) &&
          (query.agent === undefined || r.agentId === query.agent) &&
          (text === undefined || JSON.stringify(r).toLowerCase().includes(text)),
      )
      .reverse();
    const stats = makeStats({
      total: all.length,
      byOutcome: { executed: all.filter((r) => r.outcome === 'executed').length },
      byApprover: { human: all.filter((r) => r.approver === 'human').length },
      approveRate: 0.5,
      rejectRate: 0.5,
      editRate: 0.25,
      waitMedianMs: 2100,
      waitP95Ms: 9000,
    });
    // Answer asynchronously, like the real core reading files.
    queueMicrotask(() => {
      c.emit({ type: 'audit_result', queryId: command.queryId, records });
      if (command.stats) c.emit({ type: 'audit_stats', queryId: command.queryId, stats });
    });
  };
  const onClose = vi.fn();
  const view = render(
    <AuditBrowser
      client={core}
      agents={agents}
      isActive
      width={width}
      height={30}
      onClose={onClose}
      now={now}
    />,
  );
  return { ...view, core, onClose };
}

describe('AuditBrowser', () => {
  it("queries today's records and shows the day's stats header", async () => {
    const { lastFrame, core } = setup();
    const frame = await waitForFrame(lastFrame, '4 records');
    expect(core.sentOf('query_audit')).toEqual([
      { type: 'query_audit', queryId: expect.any(String), query: { from: TODAY, to: TODAY }, stats: true },
    ]);
    expect(frame).toContain(`Audit · ${TODAY} (today)`);
    expect(frame).toContain('outcomes: executed 3');
    expect(frame).toContain('approvers: human 2');
    expect(frame).toContain('approve 50% · reject 50% · edit 25%');
    expect(frame).toContain('wait median 2.1s · p95 9s');
    expect(frame).toContain('4 shown of 4 that day');
    expect(frame).toContain('scout');
  });

  it('switches to the previous and next day with ← and →, never past today', async () => {
    const { lastFrame, stdin, core } = setup();
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, KEY.left);
    const frame = await waitForFrame(lastFrame, 'web_fetch');
    expect(frame).toContain(`Audit · ${YESTERDAY}`);
    expect(frame).not.toContain('(today)');
    expect(frame).not.toContain('write_file');
    expect(core.sentOf('query_audit').at(-1)?.query).toEqual({ from: YESTERDAY, to: YESTERDAY });
    await press(stdin, KEY.right);
    await waitForFrame(lastFrame, 'write_file');
    await press(stdin, KEY.right);
    expect(core.sentOf('query_audit').map((c) => c.query.from)).toEqual([TODAY, YESTERDAY, TODAY]);
  });

  it('ignores an answer to a query it no longer waits for', async () => {
    const { lastFrame, core } = setup();
    await waitForFrame(lastFrame, '4 records');
    core.emit({ type: 'audit_result', queryId: 'someone-else', records: [] });
    core.emit({ type: 'audit_stats', queryId: 'someone-else', stats: makeStats({ total: 99 }) });
    await press({ write: () => {} });
    expect(lastFrame()).toContain('4 records');
    expect(lastFrame()).not.toContain('99 records');
  });

  it('filters by tool, outcome, approver and agent, cycling through the values present', async () => {
    const { lastFrame, stdin } = setup();
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, 't');
    let frame = await waitForFrame(lastFrame, 'filters: tool=execute_command');
    expect(frame).toContain('2 shown of 4 that day');
    await press(stdin, 'o');
    frame = await waitForFrame(lastFrame, 'outcome=executed');
    expect(frame).toContain('1 shown of 4 that day');
    expect(frame).toContain('grant-npm');
    await press(stdin, 'x', 'p');
    frame = await waitForFrame(lastFrame, 'filters: approver=grant');
    expect(frame).toContain('1 shown of 4 that day');
    await press(stdin, 'p', 'p');
    frame = await waitForFrame(lastFrame, 'filters: approver=policy');
    expect(frame).toContain('allow-reads');
    await press(stdin, 'p');
    await waitForFrame(lastFrame, 'filters: none');
    await press(stdin, 'g', 'g');
    frame = await waitForFrame(lastFrame, 'filters: agent=scout');
    expect(frame).toContain('1 shown of 4 that day');
  });

  it('searches the records text with /, and Esc in the field clears the search', async () => {
    const { lastFrame, stdin } = setup();
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, '/');
    await waitForFrame(lastFrame, 'search /');
    await type(stdin, 'clean');
    await press(stdin, KEY.enter);
    let frame = await waitForFrame(lastFrame, 'search “clean”');
    expect(frame).toContain('1 shown of 4 that day');
    // The one record that says "clean" (in its reason, cut here beside the what column).
    expect(frame).toMatch(/rm -rf build +rejected +human +ask-commands: use/);
    await press(stdin, '/');
    await waitForFrame(lastFrame, 'search /');
    await press(stdin, KEY.escape);
    frame = await waitForFrame(lastFrame, '4 shown of 4 that day');
    expect(frame).not.toContain('search “');
  });

  it('a what column names the path or command of each call (issue 33)', async () => {
    const { lastFrame } = setup();
    const frame = await waitForFrame(lastFrame, '4 records');
    expect(frame).toMatch(/ what +result/);
    expect(frame).toMatch(/write_file +src\/a\.ts +executed/);
    expect(frame).toMatch(/execute_command +rm -rf build +rejected/);
    // The arguments that ran: the person's edit.
    expect(frame).toMatch(/execute_command +npm test -- --run +(executed|edited)/);
  });

  it('two keys that arrive in one read are two keys: "xp" clears, then filters by approver (issue 33)', async () => {
    const { lastFrame, stdin } = setup();
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, 't');
    await waitForFrame(lastFrame, 'tool=');
    stdin.write('xp');
    const frame = await waitForFrame(lastFrame, 'approver=');
    expect(frame).not.toContain('tool=');
  });

  it('keeps every key of a search typed faster than React renders', async () => {
    const { lastFrame, stdin } = setup();
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, '/');
    await waitForFrame(lastFrame, 'search /');
    await press(stdin);
    for (const key of ['c', 'l', 'x', KEY.backspace, 'e', 'a', 'n', KEY.enter]) stdin.write(key);
    await waitForFrame(lastFrame, (f) => f.includes('search “clean”') && f.includes('1 shown of 4 that day'));
  });

  it('opens a detail view with args and editedArgs side by side, and closes it with Esc', async () => {
    const { lastFrame, stdin, onClose } = setup(100);
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, KEY.down, KEY.enter);
    const frame = await waitForFrame(lastFrame, 'editedArgs');
    const header = frame.split('\n').find((l) => l.includes('args') && l.includes('editedArgs'));
    expect(header).toBeDefined();
    const both = frame.split('\n').find((l) => l.includes('"npm test"') && l.includes('"npm test -- --run"'));
    expect(both).toBeDefined();
    expect(frame).toContain('by grant · rule grant-npm');
    await press(stdin, KEY.escape);
    await waitForFrame(lastFrame, '4 shown of 4 that day');
    expect(onClose).not.toHaveBeenCalled();
    await press(stdin, KEY.escape);
    await waitUntil(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('stacks args and editedArgs when narrow', async () => {
    const { lastFrame, stdin } = setup(70);
    await waitForFrame(lastFrame, 'records');
    await press(stdin, KEY.down, KEY.enter);
    const frame = await waitForFrame(lastFrame, 'editedArgs');
    const lines = frame.split('\n');
    const argsAt = lines.findIndex((l) => /│ args\s/.test(l));
    const editedAt = lines.findIndex((l) => l.includes('editedArgs'));
    expect(argsAt).toBeGreaterThan(-1);
    expect(editedAt).toBeGreaterThan(argsAt);
    expect(lines.some((l) => l.includes('"npm test"') && l.includes('--run'))).toBe(false);
  });

  it('shows redacted args as the core wrote them', async () => {
    const { lastFrame, stdin } = setup();
    await waitForFrame(lastFrame, '4 records');
    await press(stdin, KEY.enter);
    await waitForFrame(lastFrame, '[REDACTED:token]');
  });

  it('opens at the newest page and loads older pages as the cursor reaches the last loaded record', async () => {
    const core = new FakeCore();
    const day = Array.from({ length: 25 }, (_, i) =>
      makeAuditRecord({ tool: 'read_file', rule: `rule-${i}` }),
    );
    core.onCommand = (command, c) => {
      if (command.type !== 'query_audit') return;
      // Pages of 10, newest first; the cursor is the index of the oldest record sent.
      const end = command.before?.offset ?? day.length;
      const records = day.slice(Math.max(0, end - 10), end).reverse();
      const next = end - records.length;
      queueMicrotask(() =>
        c.emit({
          type: 'audit_result',
          queryId: command.queryId,
          records,
          ...(next > 0 ? { before: { day: TODAY, offset: next } } : {}),
        }),
      );
    };
    const { lastFrame, stdin } = render(
      <AuditBrowser
        client={core}
        agents={agents}
        isActive
        width={100}
        height={30}
        onClose={() => {}}
        now={now}
      />,
    );
    let frame = await waitForFrame(lastFrame, 'rule-24');
    expect(frame).toContain('10+ shown');
    await press(stdin, KEY.end);
    frame = await waitForFrame(lastFrame, '25 shown');
    expect(core.sentOf('query_audit').map((q) => q.before?.offset)).toEqual([undefined, 15, 5]);
    await press(stdin, KEY.end);
    await waitForFrame(lastFrame, 'rule-0');
  });
});
