import { Text } from 'ink';
import { truncate } from './approval-text';
import type { InvalidCount } from './hooks/use-approval-decisions';

export type FooterMessage = { text: string; tone: 'hint' | 'warn' | 'info' };

/**
 * The drawer's last line: "…" while keys are paused, "sending…" after a decision, a hint after an
 * unknown key, else the card's keys; on the right the core's count of invalid keys.
 */
export function ApprovalFooter(props: {
  width: number;
  keys: string;
  waiting: boolean;
  deciding: boolean;
  message?: FooterMessage;
  invalid?: InvalidCount;
}) {
  const right = props.invalid ? `${props.invalid.count}/${props.invalid.limit} invalid keys` : '';
  const room = Math.max(4, props.width - (right ? right.length + 2 : 0));
  let left: { text: string; color?: string; dim?: boolean };
  if (props.waiting) left = { text: '… card changed, keys paused', color: 'yellow' };
  else if (props.deciding) left = { text: 'sending decision…', dim: true };
  else if (props.message) left = { text: props.message.text, color: props.message.tone === 'info' ? 'cyan' : 'yellow' };
  else left = { text: props.keys, dim: true };
  return (
    <Text wrap="truncate-end">
      <Text color={left.color} dimColor={left.dim}>
        {truncate(left.text, room).padEnd(room)}
      </Text>
      {right ? (
        <Text color="red" bold>
          {`  ${right}`}
        </Text>
      ) : null}
    </Text>
  );
}
