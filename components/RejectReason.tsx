import { Box, Text } from 'ink';
import { ApprovalTextField } from './ApprovalTextField';
import { useApprovalTextField } from './hooks/use-approval-text-field';
import { useTheme } from './hooks/use-theme';

/** Reject with an optional reason the model reads. Enter sends (empty: no reason), Esc goes back. */
export function RejectReason(props: {
  width: number;
  isActive: boolean;
  /** What is being rejected, e.g. "the plan" or "this call". */
  subject?: string;
  onSend: (reason: string | undefined) => void;
  onBack: () => void;
}) {
  const theme = useTheme();
  const field = useApprovalTextField({
    isActive: props.isActive,
    onSubmit: (value) => props.onSend(value.trim() || undefined),
    onCancel: props.onBack,
  });
  return (
    <Box flexDirection="column" width={props.width}>
      <Text color={theme.error} bold>
        Reject {props.subject ?? 'this call'}
      </Text>
      <Text dimColor>Why? The model reads this and should change its plan. Enter sends · Esc back</Text>
      <Box>
        <Text>reason › </Text>
        <ApprovalTextField
          value={field.value}
          cursor={field.cursor}
          width={props.width - 9}
          focused={props.isActive}
          placeholder="(optional)"
        />
      </Box>
    </Box>
  );
}
