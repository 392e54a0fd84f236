import { Box, Text } from 'ink';
import { useApprovalInput } from './hooks/use-approval-input';
import { useTheme } from './hooks/use-theme';

type HelpKind = 'diff' | 'command' | 'json' | 'plan' | 'question';

const QUEUE: [string, string][] = [['↑/↓ Tab', 'pick another pending request']];
const TOOL: [string, string][] = [
  ['y', 'approve this call once'],
  ['a', 'approve all calls like it (choose the scope and minutes)'],
  ['n', 'reject, with a reason the model reads'],
  ['s', 'skip this call (the model is told it was skipped)'],
  ['e', 'edit the arguments as JSON (Ctrl+S saves, Esc cancels)'],
  ['c', "cancel the agent's whole task"],
  ['Esc', 'cancel the running turn (every pending request of it)'],
  ['j/k PgUp/PgDn', 'scroll · g/G or Home/End: top/bottom'],
  ['f', 'full screen on/off'],
];
const DIFF: [string, string][] = [
  ['E', 'open $EDITOR on the proposed content'],
  ['u', 'unified / side-by-side (side by side needs 100 columns)'],
];
const PLAN: [string, string][] = [
  ['y', 'approve the plan'],
  ['e', 'edit the steps (↑/↓ between steps, Ctrl+N new step, Enter on the last saves, Esc cancels)'],
  ['n', 'reject the plan, with a reason'],
  ['c', "cancel the agent's whole task"],
  ['Esc', 'cancel the running turn'],
  ['j/k', 'scroll the steps'],
];
const QUESTION: [string, string][] = [
  ['↑/↓ Enter', 'pick an answer (last entry: type your own)'],
  ['t', 'type an answer'],
  ['n / Esc', 'decline to answer'],
  ['c', "cancel the agent's whole task"],
  ['Tab', 'pick another pending request'],
];

/** The keys of the card in view. Any key closes it. */
export function ApprovalHelp(props: { kind: HelpKind; width: number; isActive: boolean; onClose: () => void }) {
  useApprovalInput(() => props.onClose(), { isActive: props.isActive });
  const theme = useTheme();
  const rows =
    props.kind === 'question'
      ? QUESTION
      : props.kind === 'plan'
        ? [...PLAN, ...QUEUE]
        : [...TOOL, ...(props.kind === 'diff' ? DIFF : []), ...QUEUE];
  return (
    <Box flexDirection="column" width={props.width}>
      <Text bold>Keys · any key closes this help</Text>
      {rows.map(([keys, what]) => (
        <Text key={keys} wrap="truncate-end">
          <Text color={theme.accent}>{keys.padEnd(14)}</Text>
          {what}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        Unknown keys count as mistakes; after five in a row the request is rejected.
      </Text>
    </Box>
  );
}
