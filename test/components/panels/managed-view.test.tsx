/**
 * What the UI shows of the managed layer: /policy lists the managed rules as locked with their file
 * and what it keeps out; the mode key skips the modes it locks; a two-person card says what it needs
 * and who approved first.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { approvalDetailLines, compactDetailLines } from '../../../components/drawer/approval-details';
import { PolicyPanel } from '../../../components/panels/PolicyPanel';
import { nextMode } from '../../../components/widgets/slash-commands';
import type { ApprovalRequest } from '../../../src/protocol';
import { waitForFrame } from '../../helpers/ink';

describe('/policy with a managed policy', () => {
  it('lists the managed rules as locked with their file, and counts what they keep out', async () => {
    const view = render(
      <PolicyPanel
        mode="manual"
        sandboxed
        grants={0}
        policy={{
          sources: [
            { source: 'builtin', rules: 12 },
            {
              source: 'managed',
              path: '/etc/warden/policy.json',
              rules: 1,
              locked: true,
              only: true,
              lines: ['deny execute_command when command "git push *" — no-push'],
            },
            { source: 'user', path: '/h/.warden/policy.json', rules: 0, ignored: 2 },
          ],
        }}
        recentAudit={[]}
        isActive
        width={140}
        maxRows={40}
        onClose={() => {}}
      />,
    );
    const frame = await waitForFrame(view.lastFrame, 'Rule sources');
    expect(frame).toContain('managed /etc/warden/policy.json · 1 rules · locked: nothing below loosens them');
    expect(frame).toContain('deny execute_command when command "git push *" — no-push');
    expect(frame).toContain("allowManagedRulesOnly: your rules and the project's do not count");
    expect(frame).toContain('user /h/.warden/policy.json · 0 rules · 2 ignored (managed rules only)');
  });
});

describe('the mode key under lockModes', () => {
  it('skips the locked modes, and stays when every other one is locked', () => {
    expect(nextMode('plan')).toBe('auto');
    expect(nextMode('plan', ['auto'])).toBe('manual');
    expect(nextMode('manual', ['auto-edit', 'plan'])).toBe('auto');
    expect(nextMode('manual', ['auto-edit', 'plan', 'auto'])).toBe('manual');
  });
});

describe('a two-person card', () => {
  const card = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
    id: '0123456789abcdef',
    agentId: 'main',
    agentName: 'main',
    taskId: 't',
    tool: 'write_file',
    args: { path: 'a.txt' },
    argsHash: 'h',
    risk: { level: 'high', reasons: [] },
    rule: { id: 'r', source: 'managed' },
    explanation: 'asks',
    preview: { kind: 'diff', path: 'a.txt', before: '', after: 'x', isNew: true },
    reversible: true,
    createdAt: new Date(0).toISOString(),
    grantOptions: [],
    twoPerson: { approvedBy: [] },
    ...over,
  });
  const text = (lines: { label: string; text: string }[]) =>
    lines.map((l) => `${l.label} ${l.text}`).join('\n');

  it('says it needs two people, then who approved first and what it waits for', () => {
    expect(text(approvalDetailLines(card(), 200, 0))).toContain('two needs two people');
    const first = card({
      twoPerson: { approvedBy: [{ channel: 'cli', user: 'bob', host: 'lap', keyName: 'bob' }] },
    });
    expect(text(approvalDetailLines(first, 200, 0))).toContain(
      'two approved by bob@lap, key bob — needs a second person (warden approve 01234567 --key FILE from another identity)',
    );
    expect(text(compactDetailLines(first, 200))).toContain('two approved by bob@lap, key bob');
    expect(text(approvalDetailLines(card({ twoPerson: undefined }), 200, 0))).not.toContain('two ');
  });
});
