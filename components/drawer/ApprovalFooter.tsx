import { Text } from 'ink';
import { truncate } from './approval-text';
import type { ApprovalPreview } from '../src/protocol';
import type { CardMode } from './hooks/use-approval-card';
import type { InvalidCount } from './hooks/use-approval-decisions';
import { APPROVAL_KEY_HINT } from './hooks/use-approval-keys';
import { useTheme } from './hooks/use-theme';

/** The keys line for the card's kind, or how to leave the form that is open. */
export function footerKeys(kind: ApprovalPreview['kind'] | undefined, mode: CardMode): string {
  if (mode === 'help') return 'any key closes the help';
  if (mode !== 'keys') return 'Esc goes back to the card';
  if (kind === 'plan') return 'y approve · e edit steps · n reject · c cancel · ↑/↓ queue · ? help';
  if (kind === 'question') return '↑/↓ Enter answer · n decline · Tab queue · ? help';
  return `${APPROVAL_KEY_HINT} · ↑/↓ queue`;
}

export type FooterMessage = { text: string; tone: 'hint' | 'warn' | 'info' };

/**
 * The drawer's last line: "…" while keys are paused, "sending…" after a decision, a hint after an
 * unknown key, else the card's keys; on the right the core's count of invalid keys.
 */
export function ApprovalFooter(props: {
  width: number;
  kind: ApprovalPreview['kind'] | undefined;
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
  else if (props.message) left = { text: props.message.text, color: props.message.tone === 'info' ? theme.accent : theme.warn };
  else left = { text: footerKeys(props.kind, props.mode), dim: true };
  return (
    <Text wrap="truncate-end">
      <Text color={left.color} dimColor={left.dim}>
        {truncate(left.text, room).padEnd(room)}
      </Text>
      {right ? (
        <Text color={theme.error} bold>
          {`  ${right}`}
        </Text>
      ) : null}
    </Text>
  );
}
