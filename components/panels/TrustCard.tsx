import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { CoreClient, ProjectTrustState } from '../../src/protocol';
import { oneLine } from '../format';
import { truncateChars } from '../../src/text/truncate';
import { PANEL_FOOTERS, TRUST_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { useTheme } from '../hooks/use-theme';
import { Panel } from '../widgets/Panel';

type Props = {
  client: CoreClient;
  trust: ProjectTrustState;
  width: number;
  maxRows: number;
  isActive: boolean;
};

/**
 * The trust card: shown when a project's `.warden` files would loosen the gate (allow rules,
 * `mode: "auto-edit"`, `webSearch`) and the person has not trusted exactly this content. It
 * lists what would loosen; `t` trusts (recorded in `$WARDEN_HOME/trust.json`, bound to the
 * files' hash), `n` or Esc keeps it held back. Ask and deny rules of the project count either way.
 */
export function TrustCard({ client, trust, width, maxRows, isActive }: Props): ReactNode {
  const theme = useTheme();
  const answer = (yes: boolean) => () => client.send({ type: 'trust_project', trust: yes, hash: trust.hash });
  useKeyTable(TRUST_KEYS, { trust: answer(true), keep: answer(false) }, { isActive });
  const files = [...new Set(trust.items.map((i) => i.file))];
  // Title, two intro lines, two closing lines, footer and borders; the rest lists the items.
  const room = Math.max(1, maxRows - 9);
  const shown = trust.items.slice(0, room);
  const inner = Math.max(10, width - 4);
  return (
    <Panel title="Trust this project's settings?" footer={PANEL_FOOTERS.trust} width={width}>
      <Text wrap="wrap">{truncateChars(oneLine(files.join(' and ')), inner * 2)} would loosen the gate:</Text>
      {shown.map((item, i) => (
        <Text key={i} wrap="truncate-end">
          <Text color={theme.warn}>{item.kind === 'rule' ? '  rule    ' : '  setting '}</Text>
          {truncateChars(oneLine(item.text), inner - 10)}
        </Text>
      ))}
      {trust.items.length > shown.length ? (
        <Text dimColor> … and {trust.items.length - shown.length} more (/policy lists them)</Text>
      ) : null}
      <Text wrap="wrap" dimColor>
        Until you trust them they are held back; the project's ask and deny rules count anyway.
      </Text>
      <Text wrap="wrap" dimColor>
        Trust is kept in {oneLine(trust.store)} for exactly these contents: any change asks again.
      </Text>
    </Panel>
  );
}
