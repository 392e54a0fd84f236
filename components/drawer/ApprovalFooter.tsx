import { Text } from 'ink';
import type { ApprovalRequest } from '../../src/protocol';
import { truncateCells } from '../../src/text/truncate';
import { textWidth } from '../../src/text/width';
import { useTheme } from '../look/use-theme';
import { HELP_CLOSE } from '../keys/keymap';
import { type CardMode, cardKeysLine, type FooterMessage, type InvalidCount } from './drawer-state';

/** The keys line for the card, from the keymap, or how to leave the form that is open. */
export function footerKeys(request: ApprovalRequest | undefined, mode: CardMode): string {
  if (mode === 'help') return HELP_CLOSE;
  if (mode !== 'keys') return 'Esc goes back to the card';
  return request ? cardKeysLine(request) : '';
}

/**
 * A keys line cut to `room` cells by whole keys, never mid-word, and keeping `? help` last: it lists
 * every key the line had no room for (at 80 columns a tool card's line lost `c cancel` and `? help`).
 */
export function fitKeysLine(line: string, room: number): string {
  if (textWidth(line) <= room) return line;
  const parts = line.split(' · ');
  const help = parts.find((p) => p.startsWith('? '));
  const rest = parts.filter((p) => p !== help);
  while (rest.length > 1 && textWidth([...rest, ...(help ? [help] : [])].join(' · ')) > room) rest.pop();
  return truncateCells([...rest, ...(help ? [help] : [])].join(' · '), room);
}

/**
 * The drawer's last line: "…" while keys are paused, "sending…" after a decision, a hint after an
 * unknown key, else the card's keys; on the right the core's count of invalid keys.
 */
export function ApprovalFooter(props: {
  width: number;
  request: ApprovalRequest | undefined;
  mode: CardMode;
  waiting: boolean;
  deciding: boolean;
  message?: FooterMessage;
  invalid?: InvalidCount;
}) {
  const theme = useTheme();
  const right = props.invalid ? `${props.invalid.count}/${props.invalid.limit} invalid keys` : '';
  const room = Math.max(4, props.width - (right ? right.length + 2 : 0));
  let left: { text: string; color?: string; dim?: boolean };
  if (props.waiting) left = { text: '… card changed, keys paused', color: theme.warn };
  else if (props.deciding) left = { text: 'sending decision…', dim: true };
  else if (props.message)
    left = { text: props.message.text, color: props.message.tone === 'info' ? theme.accent : theme.warn };
  else left = { text: fitKeysLine(footerKeys(props.request, props.mode), room), dim: true };
  return (
    <Text wrap="truncate-end">
      <Text color={left.color} dimColor={left.dim}>
        {truncateCells(left.text, room).padEnd(room)}
      </Text>
      {right ? (
        <Text color={theme.error} bold>
          {`  ${right}`}
        </Text>
      ) : null}
    </Text>
  );
}
