import { Box, Text } from 'ink';
import { useState } from 'react';
import { useApprovalKeyGate } from './hooks/use-approval-input';
import { useTheme } from './hooks/use-theme';
import { TextField } from './TextField';

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
  const gate = useApprovalKeyGate();
  const [reason, setReason] = useState('');
  return (
    <Box flexDirection="column" width={props.width}>
      <Text color={theme.error} bold>
        Reject {props.subject ?? 'this call'}
      </Text>
      <Text dimColor>Why? The model reads this and should change its plan. Enter sends · Esc back</Text>
      {/* One Text: a long reason wraps under the label instead of squeezing it. */}
      <Text>
        reason ›{' '}
        <TextField
          value={reason}
          onChange={setReason}
          onSubmit={(value) => props.onSend(value.trim() || undefined)}
          isActive={props.isActive}
          onKey={(_input, key) => {
            if (key.escape) props.onBack();
          }}
          gate={gate}
          placeholder="(optional)"
        />
      </Text>
    </Box>
  );
}
