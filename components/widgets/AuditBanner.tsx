import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import type { CoreState } from '../../src/protocol';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../look/use-theme';

type Props = {
  /** `CoreState.auditUnavailable`: the banner shows while it is set and goes when the core clears it. */
  problem: CoreState['auditUnavailable'];
  width: number;
};

/**
 * One line above the status bar while the audit log cannot be written: nothing runs without its
 * audit line, so every tool call is refused (audit_unavailable) until the log takes lines again.
 * The core checks every few seconds and clears the state itself; the person only has to make room.
 */
export const AuditBanner = memo(function AuditBanner({ problem, width }: Props): ReactNode {
  const theme = useTheme();
  if (!problem) return null;
  const text = `✗ AUDIT LOG UNAVAILABLE · nothing runs until it can be written · ${problem.error} · since ${problem.since.slice(11, 19)} UTC`;
  return (
    <Box width={width} height={1} overflow="hidden">
      <Text bold inverse color={theme.error} wrap="truncate-end">
        {truncateChars(text, Math.max(1, width))}
      </Text>
    </Box>
  );
});
