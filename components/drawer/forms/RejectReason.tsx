import { Box, Text } from 'ink';
import { useState } from 'react';
import { useTheme } from '../../look/use-theme';
import { footerLine, keyId, lookup, REJECT_KEYS } from '../../keys/keymap';
import { TextField } from '../../widgets/TextField';
import { useDrawer } from '../drawer-context';

/** Reject with an optional reason the model reads. Enter sends (empty: no reason), Esc goes back. */
export function RejectReason(props: {
  width: number;
  isActive: boolean;
  /** What is being rejected, e.g. "the plan" or "this call". */
  subject?: string;
}) {
  const theme = useTheme();
  const { dispatch, gate } = useDrawer();
  const [reason, setReason] = useState('');
  return (
    <Box flexDirection="column" width={props.width}>
      <Text color={theme.error} bold>
        Reject {props.subject ?? 'this call'}
      </Text>
      <Text dimColor>
        Why? The model reads this and should change its plan. {footerLine(Object.values(REJECT_KEYS))}
      </Text>
      {/* One Text: a long reason wraps under the label instead of squeezing it. */}
      <Text>
        reason ›{' '}
        <TextField
          value={reason}
          onChange={setReason}
          onSubmit={(value) => {
            const text = value.trim();
            dispatch({
              type: 'decide',
              decision: text ? { kind: 'reject', reason: text } : { kind: 'reject' },
            });
          }}
          isActive={props.isActive}
          onKey={(input, key) => {
            if (lookup(REJECT_KEYS, keyId(input, key)) === 'back') dispatch({ type: 'back' });
          }}
          gate={gate}
          placeholder="(optional)"
        />
      </Text>
    </Box>
  );
}
