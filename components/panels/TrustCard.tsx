import { Text } from 'ink';
import { type ReactNode, useState } from 'react';
import type { CoreClient, LooseningItem, ProjectTrustState } from '../../src/protocol';
import { oneLine } from '../look/format';
import { truncateChars } from '../../src/text/truncate';
import { PANEL_FOOTERS, TRUST_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { useTheme } from '../look/use-theme';
import { Panel } from '../widgets/Panel';

type Props = {
  client: CoreClient;
  trust: ProjectTrustState;
  width: number;
  maxRows: number;
  isActive: boolean;
};

/** Title, two intro lines, two closing lines, footer and borders; the rest lists the items. */
const CHROME_ROWS = 9;

/**
 * The trust card: shown when a project's `.warden` files would loosen the gate (allow rules,
 * `mode: "auto-edit"`, `webSearch`) and the person has not trusted exactly this content. It lists
 * what would loosen, broadest first (the core orders them; `broad` ones are marked); `t` trusts
 * (recorded in `$WARDEN_HOME/trust.json`, bound to the files' hash), `n` or Esc keeps it held back.
 * When the list does not fit, `t` opens the whole list instead, and trusts only from there once its
 * last line has been shown: nothing is trusted that the person could not see.
 */
export function TrustCard({ client, trust, width, maxRows, isActive }: Props): ReactNode {
  const theme = useTheme();
  const [whole, setWhole] = useState(false);
  const [top, setTop] = useState(0);
  const room = Math.max(1, maxRows - CHROME_ROWS);
  const fits = trust.items.length <= room;
  const last = Math.max(0, trust.items.length - room);
  const seenEnd = fits || (whole && top >= last);
  const scroll = (by: number) => () => setTop((t) => Math.min(last, Math.max(0, t + by)));
  const answer = (yes: boolean) => () => client.send({ type: 'trust_project', trust: yes, hash: trust.hash });
  const trustKey = () => {
    if (seenEnd) answer(true)();
    else if (!whole) setWhole(true);
    else setTop(last);
  };
  useKeyTable(
    TRUST_KEYS,
    {
      trust: trustKey,
      keep: answer(false),
      up: scroll(-1),
      down: scroll(1),
      page_up: scroll(-room),
      page_down: scroll(room),
    },
    { isActive },
  );
  const files = [...new Set(trust.items.map((i) => i.file))];
  const inner = Math.max(10, width - 4);
  // Folded: one row says how many more there are; whole: a window over all of them.
  const shown = fits
    ? trust.items
    : whole
      ? trust.items.slice(top, top + room)
      : trust.items.slice(0, Math.max(1, room - 1));
  const footer = fits ? PANEL_FOOTERS.trust : whole ? PANEL_FOOTERS.trust_list : PANEL_FOOTERS.trust_more;
  return (
    <Panel title="Trust this project's settings?" footer={footer} width={width}>
      <Text wrap="wrap">
        {truncateChars(oneLine(files.join(' and ')), inner * 2)} would loosen the gate
        {whole ? ` (${top + 1}–${top + shown.length} of ${trust.items.length})` : ''}:
      </Text>
      {shown.map((item, i) => (
        <ItemRow key={top + i} item={item} inner={inner} warn={theme.warn} danger={theme.error} />
      ))}
      {!fits && !whole ? (
        <Text dimColor>
          {' '}
          … and {trust.items.length - shown.length} more: t shows the whole list, and trusting is done from
          there
        </Text>
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

function ItemRow({
  item,
  inner,
  warn,
  danger,
}: {
  item: LooseningItem;
  inner: number;
  warn: string | undefined;
  danger: string | undefined;
}): ReactNode {
  const label = item.broad
    ? '  BROAD   '
    : item.kind === 'rule'
      ? '  rule    '
      : item.kind === 'command'
        ? '  command '
        : '  setting ';
  return (
    <Text wrap="truncate-end">
      <Text color={item.broad ? danger : warn} bold={item.broad === true}>
        {label}
      </Text>
      {truncateChars(oneLine(item.text), inner - 10)}
    </Text>
  );
}
