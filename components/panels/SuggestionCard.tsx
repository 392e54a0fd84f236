import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { CoreClient, Suggestion } from '../../src/protocol';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../look/use-theme';
import { PANEL_FOOTERS, SUGGESTION_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { oneLine } from '../look/format';
import { Panel } from '../widgets/Panel';

type Props = { client: CoreClient; suggestion: Suggestion; width: number; isActive: boolean };

/**
 * The offer card: warden saw the person approve (or edit) the same shape of call
 * repeatedly and offers, once, to remember it. It shows exactly what would be written and where;
 * nothing is written unless the person says so. `p` saves a rule to the project, `u` to the user's
 * policy (a preference line goes to AGENTS.md with `y`/`p`); `n` or Esc declines for the session.
 */
export function SuggestionCard({ client, suggestion: s, width, isActive }: Props): ReactNode {
  const theme = useTheme();
  const accept = (target: 'project' | 'user') => () => {
    // A preference has one place to go; `u` means nothing for it.
    if (s.kind === 'preference' && target === 'user') return;
    client.send({ type: 'accept_suggestion', id: s.id, target });
  };
  useKeyTable(
    SUGGESTION_KEYS,
    {
      project: accept('project'),
      user: accept('user'),
      decline: () => client.send({ type: 'decline_suggestion', id: s.id }),
    },
    { isActive },
  );
  const inner = Math.max(10, width - 4);
  const what = oneLine(s.kind === 'rule' ? s.ruleText : s.line);
  return (
    <Panel
      title={s.kind === 'rule' ? 'Save this as a rule?' : 'Remember this preference?'}
      footer={s.kind === 'rule' ? PANEL_FOOTERS.suggestion_rule : PANEL_FOOTERS.suggestion_preference}
      width={width}
    >
      <Text wrap="wrap">
        {s.kind === 'rule'
          ? `You approved ${truncateChars(oneLine(s.label), inner)} ${s.count} times. warden would add exactly this rule:`
          : `You changed ${truncateChars(oneLine(s.label), inner)} ${s.count} times. warden would add exactly this line:`}
      </Text>
      <Text wrap="wrap" color={theme.accent}>
        {truncateChars(what, inner * 4)}
      </Text>
      {s.kind === 'rule' ? (
        <>
          <Text wrap="truncate-end" dimColor>
            p → {oneLine(s.files.project)}
          </Text>
          <Text wrap="truncate-end" dimColor>
            u → {oneLine(s.files.user)}
          </Text>
        </>
      ) : (
        <Text wrap="truncate-end" dimColor>
          to {oneLine(s.file)}
        </Text>
      )}
      <Text wrap="wrap" dimColor>
        Offered once: if you say no, warden will not ask again this session.
      </Text>
    </Panel>
  );
}
