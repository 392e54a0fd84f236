import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PolicyPanel } from '../../../components/panels/PolicyPanel';
import { TrustCard } from '../../../components/panels/TrustCard';
import type { ProjectTrustState } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, waitForFrame, waitUntil } from '../../helpers/ink';
import { renderApp } from '../app-harness';

const HASH = 'a'.repeat(64);
const trust = (overrides: Partial<ProjectTrustState> = {}): ProjectTrustState => ({
  status: 'untrusted',
  asking: true,
  hash: HASH,
  store: '/home/tester/.warden/trust.json',
  items: [
    { kind: 'rule', file: '/p/.warden/policy.json', text: 'allow * (every tool, every call) — project#1' },
    {
      kind: 'setting',
      file: '/p/.warden/config.json',
      text: 'mode "auto-edit": file writes inside the project would run without asking',
    },
  ],
  ...overrides,
});

describe('TrustCard', () => {
  it('lists what would loosen, where trust is kept, and its keys', async () => {
    const core = new FakeCore();
    const view = render(<TrustCard client={core} trust={trust()} width={100} maxRows={20} isActive />);
    const frame = await waitForFrame(view.lastFrame, 'allow * (every tool, every call)');
    expect(frame).toContain('/p/.warden/policy.json and /p/.warden/config.json would loosen the gate');
    expect(frame).toContain('mode "auto-edit"');
    expect(frame).toContain('/home/tester/.warden/trust.json');
    expect(frame).toContain('t trust these files');
  });

  it.each([
    ['t', true],
    ['n', false],
    [KEY.escape, false],
  ])('key %j sends trust_project %s with the hash the card showed', async (key, answer) => {
    const core = new FakeCore();
    const view = render(<TrustCard client={core} trust={trust()} width={100} maxRows={20} isActive />);
    await waitForFrame(view.lastFrame, 'Trust this project');
    await press(view.stdin, key);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'trust_project', trust: answer, hash: HASH }]));
  });

  it('the app shows the card while the core asks, and the prompt does not take keys then', async () => {
    const core = new FakeCore({ trust: trust() });
    const view = await renderApp(core);
    await waitForFrame(view.lastFrame, 'Trust this project');
    await press(view.stdin, 'x', 't');
    await waitUntil(() =>
      expect(core.sent).toContainEqual({ type: 'trust_project', trust: true, hash: HASH }),
    );
    core.update({ trust: trust({ status: 'trusted', asking: false, by: 'person' }) });
    await waitForFrame(view.lastFrame, (f) => !f.includes('Trust this project'));
    expect(core.sent.some((c) => c.type === 'submit')).toBe(false);
  });
});

describe('/policy shows what the project holds back', () => {
  it('held project rules and settings are listed, with the count on the source line', async () => {
    const view = render(
      <PolicyPanel
        mode="manual"
        sandboxed
        grants={0}
        policy={{ sources: [{ source: 'project', path: '/p/.warden/policy.json', rules: 1, held: 1 }] }}
        trust={trust({ asking: false })}
        recentAudit={[]}
        isActive
        width={120}
        maxRows={40}
        onClose={() => {}}
      />,
    );
    const frame = await waitForFrame(view.lastFrame, 'Project trust');
    expect(frame).toContain('1 held back (not trusted)');
    expect(frame).toContain('held rule allow * (every tool, every call)');
    expect(frame).toContain('held setting mode "auto-edit"');
  });
});

describe('TrustCard with more than fits', () => {
  const many = (): ProjectTrustState =>
    trust({
      items: [
        {
          kind: 'rule',
          file: '/p/.warden/policy.json',
          text: 'allow * (every tool, every call) — project#31',
          broad: true,
        },
        ...Array.from({ length: 30 }, (_, i) => ({
          kind: 'rule' as const,
          file: '/p/.warden/policy.json',
          text: `allow execute_command when command "npm run t${i}" — project#${i + 1}`,
        })),
      ],
    });

  it('the broad rule is on the first screen and marked; t opens the whole list instead of trusting', async () => {
    const core = new FakeCore();
    const view = render(<TrustCard client={core} trust={many()} width={80} maxRows={15} isActive />);
    const frame = await waitForFrame(view.lastFrame, 'more: t shows the whole list');
    expect(frame).toMatch(/BROAD\s+allow \* \(every tool, every call\)/);
    expect(frame).toContain('t see the whole list');
    await press(view.stdin, 't');
    await waitForFrame(view.lastFrame, '(1–6 of 31)');
    expect(core.sent).toEqual([]);
  });

  it('from the whole list, t trusts only once the last line was shown (t before that goes to the end)', async () => {
    const core = new FakeCore();
    const view = render(<TrustCard client={core} trust={many()} width={80} maxRows={15} isActive />);
    await waitForFrame(view.lastFrame, 'more: t shows');
    await press(view.stdin, 't');
    await waitForFrame(view.lastFrame, '(1–6 of 31)');
    await press(view.stdin, KEY.down);
    await waitForFrame(view.lastFrame, '(2–7 of 31)');
    await press(view.stdin, 't');
    const end = await waitForFrame(view.lastFrame, '(26–31 of 31)');
    expect(end).toContain('npm run t29');
    expect(core.sent).toEqual([]);
    await press(view.stdin, 't');
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'trust_project', trust: true, hash: HASH }]));
  });

  it('n keeps them held back from any view', async () => {
    const core = new FakeCore();
    const view = render(<TrustCard client={core} trust={many()} width={80} maxRows={15} isActive />);
    await waitForFrame(view.lastFrame, 'more: t shows');
    await press(view.stdin, 't', 'n');
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'trust_project', trust: false, hash: HASH }]));
  });
});
