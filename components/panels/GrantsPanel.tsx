import { Box, Text } from 'ink';
import { type ReactNode, useState } from 'react';
import type { CoreClient, Grant } from '../../src/protocol';
import { clock } from '../look/format';
import { truncateChars } from '../../src/text/truncate';
import { useListCursor, windowStart } from './use-list-cursor';
import { useTheme } from '../look/use-theme';
import { Panel } from '../widgets/Panel';
import { GRANT_SAVE_KEYS, GRANTS_KEYS, PANEL_FOOTERS } from '../keys/keymap';
import { runKey, useKeys } from '../keys/use-keys';

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
  const grant = grants[cursor];
  const askToSave = (target: 'project' | 'user') => () => grant && setConfirm({ grant, target });
  // One subscription for both tables: a second hook switched on by `confirm` would subscribe only
  // in a passive effect, and a key arriving before it would be lost.
  useKeys(
    (input, key) => {
      if (confirm) {
        runKey(
          GRANT_SAVE_KEYS,
          {
            save: () => {
              client.send({ type: 'save_grant', grantId: confirm.grant.id, target: confirm.target });
              setFeedback(`asked to save to the ${confirm.target} policy: ${confirm.grant.ruleText}`);
              setConfirm(undefined);
            },
            cancel: () => setConfirm(undefined),
          },
          input,
          key,
        );
        return;
      }
      runKey(
        GRANTS_KEYS,
        {
          select: () => {}, // the list cursor moves
          revoke: () => {
            if (!grant) return;
            client.send({ type: 'revoke_grant', grantId: grant.id });
            setFeedback(`revoked: ${grant.label}`);
          },
          save_project: askToSave('project'),
          save_user: askToSave('user'),
          close: onClose,
        },
        input,
        key,
      );
    },
    { isActive },
  );
  const visible = Math.max(1, Math.floor((rows - 5) / 2));
  const start = windowStart(cursor, grants.length, visible);
  return (
    <Panel title={`Grants (${grants.length})`} footer={PANEL_FOOTERS.grants} width={width}>
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
          <Text dimColor>{PANEL_FOOTERS.grant_save}</Text>
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
