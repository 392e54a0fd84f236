import { render } from 'ink-testing-library';
import { ApprovalDrawer, type ApprovalDrawerProps } from '../../../components/drawer/ApprovalDrawer';
import type { ApprovalRequest, GrantScope } from '../../../src/protocol';
import { FakeCore, makeRequest } from '../../helpers/fake-core';
import { waitForFrame } from '../../helpers/ink';

/**
 * Writes every key in one synchronous burst, no turn of the event loop between them: React renders
 * nothing in between, so a handler reading the last render's state would drop or misapply keys.
 */
export function burst(stdin: { write: (data: string) => void }, ...keys: string[]): void {
  for (const key of keys) stdin.write(key);
}

/** The injected clock starts here; requests are created 10 s earlier. */
export const T0 = Date.parse('2025-01-02T10:00:10.000Z');

/**
 * Renders the drawer with a FakeCore and an injected clock. `ready(text)` waits for a frame and
 * then moves the clock past the grace window that opens when the drawer appears.
 */
export function renderDrawer(pending: ApprovalRequest[], extra: Partial<ApprovalDrawerProps> = {}) {
  const core = new FakeCore({ pending });
  const clock = { t: T0 };
  let props: ApprovalDrawerProps = {
    client: core,
    pending,
    width: 120,
    height: 36,
    isActive: true,
    now: () => clock.t,
    ...extra,
  };
  const r = render(<ApprovalDrawer {...props} />);
  return {
    core,
    clock,
    ...r,
    rerender(patch: Partial<ApprovalDrawerProps>) {
      props = { ...props, ...patch };
      r.rerender(<ApprovalDrawer {...props} />);
    },
    frame: (predicate: string | RegExp | ((f: string) => boolean)) => waitForFrame(r.lastFrame, predicate),
    async ready(text: string | RegExp = 'Approval needed') {
      const f = await waitForFrame(r.lastFrame, text);
      clock.t += 1000;
      return f;
    },
  };
}

export const grantTool: GrantScope = {
  tool: 'write_file',
  match: { kind: 'tool' },
  agents: { kind: 'agent', agentId: 'main', agentName: 'main' },
  label: 'write_file anywhere in the project, agent main',
  ruleText: '{"tool":"write_file","decision":"allow","agent":"main"}',
};

export const grantGlob: GrantScope = {
  tool: 'write_file',
  match: { kind: 'path_glob', glob: 'src/**' },
  agents: { kind: 'all' },
  label: 'write_file in src/**, all agents',
  ruleText: '{"tool":"write_file","path":"src/**","decision":"allow"}',
};

/** A modification of a 60-line file with one changed line (line 10). */
export function modifyRequest(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const before = Array.from({ length: 60 }, (_, i) => `line ${i + 1} value = ${i}`).join('\n');
  const after = before.replace('line 10 value = 9', 'line 10 value = nine');
  return makeRequest({
    preview: { kind: 'diff', path: 'src/a.ts', before, after, isNew: false },
    args: { path: 'src/a.ts', content: after },
    ...overrides,
  });
}

export function commandRequest(overrides: Partial<ApprovalRequest> = {}, sandboxed = false): ApprovalRequest {
  return makeRequest({
    id: 'req-cmd',
    tool: 'execute_command',
    agentName: 'tester',
    args: { command: 'npm test && rm -rf build' },
    risk: { level: 'high', reasons: ['deletes files'] },
    rule: { id: 'ask-commands', source: 'project' },
    explanation: 'Commands ask unless allowed.',
    reversible: false,
    preview: {
      kind: 'command',
      command: 'npm test && rm -rf build',
      cwd: '/tmp/project',
      timeoutMs: 120_000,
      sandboxed,
      parts: ['npm test', 'rm -rf build'],
      notes: ['rm -rf deletes a directory tree'],
    },
    ...overrides,
  });
}
