import { Box, Text } from 'ink';
import { type ReactNode, useMemo } from 'react';
import type { CustomCommandInfo } from '../../src/protocol';
import { SLASH_COMMANDS } from '../widgets/slash-commands';
import { HELP_PANEL_KEYS, KEY_HELP, PANEL_FOOTERS } from '../keys/keymap';
import { Panel } from '../widgets/Panel';
import { useKeyTable } from '../keys/use-keys';
import { useListCursor } from './use-list-cursor';

type Props = {
  isActive: boolean;
  width: number;
  maxRows: number;
  onClose: () => void;
  /** The custom commands from Markdown files, hidden ones with why. */
  custom?: readonly CustomCommandInfo[];
};

/** Borders, title, the footer and the scroll line around the rows. */
const CHROME_ROWS = 5;

type Row =
  | { kind: 'heading'; text: string }
  | { kind: 'row'; left: string; right: string; table: 'keys' | 'commands' }
  | { kind: 'blank' };

const BASE: Row[] = [
  { kind: 'heading', text: 'Keys' },
  ...KEY_HELP.map((k): Row => ({ kind: 'row', left: k.keys, right: k.does, table: 'keys' })),
  { kind: 'blank' },
  { kind: 'heading', text: 'Commands' },
  ...SLASH_COMMANDS.map((c): Row => ({ kind: 'row', left: c.usage, right: c.does, table: 'commands' })),
];

const HIDDEN: Record<NonNullable<CustomCommandInfo['hidden']>, string> = {
  'built-in': 'not offered: a built-in command has this name',
  yours: 'not offered: your own command of this name wins',
  untrusted: "held back until you trust the project's .warden files",
};

/** The help's rows: keys, built-in commands, then the custom commands (yours, then the project's) with where each comes from. */
export function helpRows(custom: readonly CustomCommandInfo[] | undefined): Row[] {
  if (!custom?.length) return BASE;
  return [
    ...BASE,
    { kind: 'blank' },
    { kind: 'heading', text: 'Custom commands ($WARDEN_HOME/commands/, .warden/commands/)' },
    ...custom.map(
      (c): Row => ({
        kind: 'row',
        left: `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`,
        right: `${c.hidden ? `${HIDDEN[c.hidden]} · ` : ''}${c.description ?? 'a prompt from a command file'} · ${c.file}`,
        table: 'commands',
      }),
    ),
  ];
}

/**
 * /help: every key and command, from the same tables the handlers use. When the terminal is too
 * short for all of them, ↑↓ PgUp/PgDn Home/End scroll, and the last line says what is out of sight.
 */
export function HelpOverlay({ isActive, width, maxRows, onClose, custom }: Props): ReactNode {
  const ROWS = useMemo(() => helpRows(custom), [custom]);
  useKeyTable(HELP_PANEL_KEYS, { close: onClose }, { isActive });
  const visible = Math.max(3, maxRows - CHROME_ROWS);
  const scrolls = ROWS.length > visible;
  const [cursor] = useListCursor(scrolls ? ROWS.length - visible + 1 : 1, {
    isActive: isActive && scrolls,
    page: visible,
  });
  const keyWidth = Math.max(...KEY_HELP.map((k) => k.keys.length)) + 2;
  const cmdWidth = Math.max(...SLASH_COMMANDS.map((c) => c.usage.length)) + 2;
  const first = scrolls ? cursor : 0;
  const shown = ROWS.slice(first, first + visible);
  return (
    <Panel title="Help" footer={PANEL_FOOTERS.help} width={width} height={scrolls ? maxRows : undefined}>
      {shown.map((row, i) => {
        const key = `${first + i}`;
        if (row.kind === 'blank') return <Text key={key}> </Text>;
        if (row.kind === 'heading')
          return (
            <Text key={key} bold>
              {row.text}
            </Text>
          );
        const left = row.table === 'commands' ? Math.min(cmdWidth, Math.floor(width / 2)) : keyWidth;
        return (
          <Box key={key}>
            <Box width={left} flexShrink={0}>
              <Text wrap="truncate-end">{row.left}</Text>
            </Box>
            <Text dimColor wrap="truncate-end">
              {row.right}
            </Text>
          </Box>
        );
      })}
      {scrolls ? (
        <Text dimColor>
          {first > 0 ? `↑ ${first} above · ` : ''}
          {ROWS.length - first - shown.length > 0 ? `↓ ${ROWS.length - first - shown.length} below · ` : ''}↑↓
          PgUp/PgDn scroll
        </Text>
      ) : null}
    </Panel>
  );
}
