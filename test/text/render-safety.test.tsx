import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCard } from '../../components/transcript/ToolCard';
import type { ApprovalRequest, CoreState, TranscriptEntry } from '../../src/protocol';
import { renderApp } from '../components/app-harness';
import { FakeCore, makeAuditRecord, makeRequest, makeStats } from '../helpers/fake-core';
import { KEY, press, type, waitForFrame } from '../helpers/ink';

const ESC = '\u001b';
const BEL = '\u0007';

/** One string carrying every kind of attack, each with a payload no UI chrome would contain. */
const EVIL = [
  `A${ESC}]52;c;UFdORUQ=${BEL}`,
  `B${ESC}]0;TITLE-PWNED${ESC}\\`,
  `C${ESC}]8;;https://evil.test/${BEL}docs${ESC}]8;;${BEL}`,
  `D${ESC}[7;7H${ESC}[?1049h`,
  `E${ESC}P1$qm${ESC}\\`,
  'F\u009b6n',
  'G\u202eH\u2066I\u200bJ',
].join('');

/**
 * What must never appear in a frame: the attack sequences raw. The app's own output is fine: its
 * colours, its screen clears and the bell it rings for a new approval (a lone BEL).
 */
const RAW =
  /\u001b\]|\u001bP|\u001b\[7;7H|\u001b\[\?1049h|[\u0080-\u009f\u200b\u202a-\u202e\u2066-\u2069]|[^\n]\u0007/;

function evilState(overrides: Partial<CoreState> = {}): Partial<CoreState> {
  const transcript: TranscriptEntry[] = [
    { kind: 'user', id: 'u1', text: `please ${EVIL}` },
    {
      kind: 'assistant',
      id: 'a1',
      agentId: 'main',
      streaming: false,
      text: `# Title ${EVIL}\n\n- item ${EVIL}\n- **bold ${EVIL}** and \`code ${EVIL}\`\n\n> quote ${EVIL}\n\n\`\`\`sh\nrun ${EVIL}\n\`\`\`\n\nparagraph ${EVIL}`,
    },
    {
      kind: 'tool',
      id: 't1',
      agentId: 'main',
      tool: `read_file`,
      summary: `src/${EVIL}.ts`,
      status: 'executed',
      result: `out ${EVIL}`,
    },
    { kind: 'notice', id: 'n1', level: 'warn', text: `notice ${EVIL}` },
    { kind: 'tool', id: 't2', agentId: 'main', tool: `mcp__srv__${EVIL}`, summary: EVIL, status: 'running' },
    { kind: 'assistant', id: 'a2', agentId: 'main', streaming: true, text: `streaming ${EVIL}` },
  ];
  return {
    transcript,
    busy: true,
    model: { name: `model${EVIL}`, demo: false },
    root: `/tmp/proj${EVIL}`,
    mcp: [{ name: `srv${EVIL}`, status: 'failed', tools: 2, error: `crashed ${EVIL}` }],
    agents: [
      { id: 'main', name: 'main', taskId: 't', task: 'lead', status: 'running' },
      {
        id: 'sub',
        name: `scout${EVIL}`,
        parentId: 'main',
        taskId: 't',
        task: `look ${EVIL}`,
        status: 'running',
      },
    ],
    recentAudit: [
      makeAuditRecord({
        tool: `tool${EVIL}`,
        args: { command: `echo ${EVIL}` },
        reason: `because ${EVIL}`,
        result: `res ${EVIL}`,
      }),
    ],
    ...overrides,
  };
}

function expectSafe(frames: string[]): void {
  const bad = frames.find((f) => RAW.test(f));
  expect(
    bad === undefined
      ? 'no raw sequence'
      : JSON.stringify(bad.slice(Math.max(0, (bad.search(RAW) ?? 0) - 40), (bad.search(RAW) ?? 0) + 40)),
  ).toBe('no raw sequence');
}

afterEach(() => {
  delete process.env.NO_COLOR;
});

describe('untrusted text in rendered components', () => {
  it('control: a component rendered without the safe client prints the sequence raw (so these tests can fail)', () => {
    const { lastFrame } = render(
      <ToolCard
        entry={{
          kind: 'tool',
          id: 't',
          agentId: 'main',
          tool: 'x',
          summary: 'y',
          status: 'executed',
          result: EVIL,
        }}
        width={200}
      />,
    );
    expect(lastFrame()).toMatch(RAW);
  });

  it('transcript, markdown, tool cards, live tail, agents, status bar and sidebar show sequences visibly', async () => {
    const core = new FakeCore(evilState());
    const { lastFrame, frames, stdin } = await renderApp(core, { columns: 220, rows: 60 });
    await waitForFrame(lastFrame, 'paragraph A␛]52;c;UFdORUQ=␇');
    await press(stdin, KEY.ctrl('t'));
    const frame = await waitForFrame(lastFrame, 'tool');
    expect(frame).toContain('⟨U+202E⟩');
    expect(frame).toContain('␛]0;TITLE-PWNED');
    core.emit({ type: 'notice', level: 'error', text: `event ${EVIL}` });
    await waitForFrame(lastFrame, 'event A␛]52');
    core.update({
      transcript: [
        ...(core.state.transcript ?? []),
        {
          kind: 'tool',
          id: 't3',
          agentId: 'sub',
          tool: 'grep',
          summary: 'x',
          status: 'executed',
          result: `late ${EVIL}`,
        },
      ],
    });
    await waitForFrame(lastFrame, 'late A␛]52');
    expectSafe(frames);
  });

  it('the approval card shows every byte of a command and a diff visibly, colour codes included', async () => {
    const command = `echo ${EVIL} ${ESC}[31mred${ESC}[0m`;
    const requests: ApprovalRequest[] = [
      makeRequest({
        id: 'r1',
        tool: 'execute_command',
        why: `why ${EVIL}`,
        explanation: `explain ${EVIL}`,
        args: { command },
        preview: {
          kind: 'command',
          command,
          cwd: `/p${EVIL}`,
          timeoutMs: 1000,
          sandboxed: true,
          parts: [command],
          notes: [`note ${EVIL}`],
        },
      }),
    ];
    const core = new FakeCore(evilState({ pending: requests }));
    const { lastFrame, frames } = await renderApp(core, { columns: 200, rows: 60, realDrawer: true });
    const frame = await waitForFrame(lastFrame, '␛[31mred');
    expect(frame).toContain('A␛]52;c;UFdORUQ=␇');
    const diff = makeRequest({
      id: 'r2',
      agentName: `agent${EVIL}`,
      preview: {
        kind: 'diff',
        path: `src/${EVIL}.ts`,
        before: `old ${EVIL}\n`,
        after: `new ${EVIL}\n`,
        isNew: false,
      },
    });
    core.update({ pending: [diff] });
    await waitForFrame(lastFrame, 'new A␛]52');
    core.emit({ type: 'approval_requested', request: diff });
    expectSafe(frames);
  });

  it('the MCP panel and the audit browser (list and detail) show sequences visibly', async () => {
    const core = new FakeCore(evilState({ busy: false, transcript: [] }));
    core.onCommand = (cmd, c) => {
      if (cmd.type === 'query_audit') {
        const records = [
          makeAuditRecord({
            tool: `tool${EVIL}`,
            args: { [`key${EVIL}`]: `value ${EVIL}` },
            reason: `reason ${EVIL}`,
            result: `result ${EVIL}`,
          }),
        ];
        queueMicrotask(() => {
          c.emit({ type: 'audit_result', queryId: cmd.queryId, records });
          c.emit({ type: 'audit_stats', queryId: cmd.queryId, stats: makeStats({ total: 1 }) });
        });
      }
    };
    const { lastFrame, frames, stdin } = await renderApp(core, { columns: 200, rows: 50 });
    await type(stdin, '/mcp');
    await press(stdin, KEY.enter);
    await waitForFrame(lastFrame, 'crashed A␛]52');
    await press(stdin, 'r');
    expect(core.sentOf('restart_mcp')).toEqual([{ type: 'restart_mcp', server: `srv${EVIL}` }]);
    await press(stdin, KEY.escape);
    await type(stdin, '/audit');
    await press(stdin, KEY.enter);
    await waitForFrame(lastFrame, '1 records');
    await press(stdin, KEY.enter);
    await waitForFrame(lastFrame, 'result: result A␛]52');
    expectSafe(frames);
  });
});
