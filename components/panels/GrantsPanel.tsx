import { Box, Text } from 'ink';
import { type ReactNode, useState } from 'react';
import type { CoreClient, Grant } from '../../src/protocol';
import { clock } from '../format';
import { truncateChars } from '../../src/text/truncate';
import { useListCursor, windowStart } from './use-list-cursor';
import { useTheme } from '../hooks/use-theme';
import { Panel } from '../widgets/Panel';
import { useKeys } from '../keys/use-keys';

type Props = {
  client: CoreClient;
  grants: Grant[];
  isActive: boolean;
  width: number;
  rows: number;
  onClose: () => void;
};

const who = (g: Grant) => (g.agents.kind === 'all' ? 'all agents' : `agent ${g.agents.agentName}`);

/** /grants: this session's approve-all grants; revoke one, or save it as a project/user rule. */
export function GrantsPanel({ client, grants, isActive, width, rows, onClose }: Props): ReactNode {
  const theme = useTheme();
  const [cursor] = useListCursor(grants.length, { isActive });
  const [feedback, setFeedback] = useState('');
  // Saving a grant writes a policy file: the exact rule is shown first and Enter confirms it.
  const [confirm, setConfirm] = useState<{ grant: Grant; target: 'project' | 'user' } | undefined>();
  useKeys(
    (input, key) => {
      if (confirm) {
        if (key.return) {
          client.send({ type: 'save_grant', grantId: confirm.grant.id, target: confirm.target });
          setFeedback(`asked to save to the ${confirm.target} policy: ${confirm.grant.ruleText}`);
        }
        if (key.return || key.escape) setConfirm(undefined);
        return;
      }
      if (key.escape || input === 'q') return onClose();
      const grant = grants[cursor];
      if (!grant) return;
      // Not key.delete: Ink reports Backspace as delete, and a stray Backspace should not revoke.
      if (input === 'r' || input === 'd') {
        client.send({ type: 'revoke_grant', grantId: grant.id });
        setFeedback(`revoked: ${grant.label}`);
      } else if (input === 'p' || input === 'u') {
        setConfirm({ grant, target: input === 'p' ? 'project' : 'user' });
      }
    },
    { isActive },
  );
  const visible = Math.max(1, Math.floor((rows - 5) / 2));
  const start = windowStart(cursor, grants.length, visible);
  return (
    <Panel
      title={`Grants (${grants.length})`}
      footer="↑↓ select · r revoke · p save to project · u save to user · Esc close"
      width={width}
    >
      {grants.length === 0 ? <Text dimColor>No approve-all grants in this session.</Text> : null}
      {grants.slice(start, start + visible).map((g, i) => {
        const selected = start + i === cursor;
        return (
          <Box key={g.id} flexDirection="column">
            <Text bold={selected} color={selected ? theme.accent : undefined} wrap="truncate-end">
              {selected ? '› ' : '  '}
              {truncateChars(g.label, width - 6)}
            </Text>
            <Text dimColor wrap="truncate-end">
              {'    '}
              {who(g)} · used {g.uses}× · {g.expiresAt ? `until ${clock(g.expiresAt)}` : 'this session'} ·
              since {clock(g.createdAt)}
            </Text>
          </Box>
        );
      })}
      {confirm ? (
        <Box flexDirection="column">
          <Text bold>
            Save this rule to the {confirm.target} policy (
            {confirm.target === 'project' ? '.warden/policy.json' : '$WARDEN_HOME/policy.json'})?
          </Text>
          <Text color={theme.accent}>{confirm.grant.ruleText}</Text>
          <Text dimColor>Enter saves · Esc cancels</Text>
        </Box>
      ) : null}
      {feedback ? (
        <Text color={theme.info} wrap="truncate-end">
          {feedback}
        </Text>
      ) : null}
    </Panel>
  );
}
