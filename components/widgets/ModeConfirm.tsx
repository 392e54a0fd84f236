import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { Mode } from '../../src/protocol';
import { useTheme } from '../look/use-theme';
import { footerLine, MODE_CONFIRM_KEYS, type ModeConfirmAction } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';

type Props = {
  /** The mode that stays if the person says no. */
  from: Mode;
  isActive: boolean;
  onAnswer: (answer: ModeConfirmAction) => void;
};

/**
 * One row asking before Shift+Tab switches into `auto`, where nothing asks (guards, deny rules and
 * high risk still stop a call). Its keys come from MODE_CONFIRM_KEYS; nothing else is typed.
 */
export function ModeConfirm({ from, isActive, onAnswer }: Props): ReactNode {
  const theme = useTheme();
  useKeyTable(
    MODE_CONFIRM_KEYS,
    {
      confirm: () => onAnswer('confirm'),
      keep: () => onAnswer('keep'),
      skip: () => onAnswer('skip'),
    },
    { isActive },
  );
  return (
    <Text wrap="wrap">
      <Text color={theme.warn} bold>
        ⚠ Switch to auto mode?
      </Text>
      <Text> Calls run without asking (guards, deny rules and high risk still stop them). </Text>
      <Text dimColor>
        {footerLine(Object.values(MODE_CONFIRM_KEYS))} (now {from})
      </Text>
    </Text>
  );
}
