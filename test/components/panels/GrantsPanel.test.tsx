import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { GrantsPanel } from '../../../components/panels/GrantsPanel';
import type { Grant } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, waitForFrame, waitUntil } from '../../helpers/ink';

const grant = (id: string, overrides: Partial<Grant> = {}): Grant => ({
  id,
  label: `grant ${id}`,
  tool: 'write_file',
  match: { kind: 'path_glob', glob: 'src/**' },
  agents: { kind: 'all' },
  ruleText: '{"allow":"write_file src/**"}',
  createdAt: '2025-01-02T10:00:00.000Z',
  uses: 0,
  ...overrides,
});

function setup(grants: Grant[], rows = 30) {
  const core = new FakeCore();
  const onClose = vi.fn();
  const view = render(
    <GrantsPanel client={core} grants={grants} isActive width={90} rows={rows} onClose={onClose} />,
  );
  return { ...view, core, onClose };
}

describe('GrantsPanel', () => {
  it('says so when there are no grants, and sends nothing on keys', async () => {
    const { lastFrame, stdin, core } = setup([]);
    await waitForFrame(lastFrame, 'No approve-all grants in this session.');
    await press(stdin, 'r', 'p', 'u');
    expect(core.sent).toEqual([]);
  });

  it('shows each grant with its scope, uses and expiry', async () => {
    const { lastFrame } = setup([
      grant('g1', { label: 'write_file src/**, all agents', uses: 4 }),
      grant('g2', {
        label: 'execute_command `npm test *`, agent scout',
        agents: { kind: 'agent', agentId: 's1', agentName: 'scout' },
        expiresAt: '2025-01-02T10:30:00.000Z',
      }),
    ]);
    const frame = await waitForFrame(lastFrame, 'Grants (2)');
    expect(frame).toContain('› write_file src/**, all agents');
    expect(frame).toContain('all agents · used 4× · this session');
    expect(frame).toContain('agent scout · used 0× · until');
  });

  it('revokes with r (or d); p / u show the exact rule, and Enter saves it', async () => {
    const { lastFrame, stdin, core } = setup([grant('g1'), grant('g2'), grant('g3')]);
    await waitForFrame(lastFrame, 'Grants (3)');
    await press(stdin, KEY.down, KEY.down, 'r');
    await waitForFrame(lastFrame, 'revoked: grant g3');
    await press(stdin, KEY.up, 'p');
    const shown = await waitForFrame(lastFrame, 'Save this rule to the project policy');
    expect(shown).toContain('{"allow":"write_file src/**"}');
    expect(core.sent).toEqual([{ type: 'revoke_grant', grantId: 'g3' }]);
    await press(stdin, KEY.enter);
    await waitForFrame(lastFrame, 'asked to save to the project policy');
    await press(stdin, KEY.up, 'u', KEY.escape, 'u', KEY.enter, KEY.backspace, KEY.down, 'd');
    await waitUntil(() =>
      expect(core.sent).toEqual([
        { type: 'revoke_grant', grantId: 'g3' },
        { type: 'save_grant', grantId: 'g2', target: 'project' },
        { type: 'save_grant', grantId: 'g1', target: 'user' },
        { type: 'revoke_grant', grantId: 'g2' },
      ]),
    );
  });

  it('keeps the cursor on a grant when the list shrinks', async () => {
    const { lastFrame, stdin, core, rerender, onClose } = setup([grant('g1'), grant('g2')]);
    await waitForFrame(lastFrame, 'Grants (2)');
    await press(stdin, KEY.down);
    await waitForFrame(lastFrame, '› grant g2');
    rerender(
      <GrantsPanel client={core} grants={[grant('g1')]} isActive width={90} rows={30} onClose={onClose} />,
    );
    await waitForFrame(lastFrame, '› grant g1');
    await press(stdin, 'r');
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'revoke_grant', grantId: 'g1' }]));
  });

  it('scrolls a long list to keep the selection visible', async () => {
    const many = Array.from({ length: 20 }, (_, i) => grant(`g${i}`));
    const { lastFrame, stdin } = setup(many, 12);
    await waitForFrame(lastFrame, 'Grants (20)');
    expect(lastFrame()).not.toContain('grant g10');
    await press(stdin, ...Array.from({ length: 10 }, () => KEY.down));
    const frame = await waitForFrame(lastFrame, '› grant g10');
    expect(frame).not.toContain('grant g0 ');
  });

  it('closes on Esc', async () => {
    const { lastFrame, stdin, onClose } = setup([grant('g1')]);
    await waitForFrame(lastFrame, 'Grants (1)');
    await press(stdin, KEY.escape);
    await waitUntil(() => expect(onClose).toHaveBeenCalledTimes(1));
  });
});
