import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { StartInfo } from '../../src/protocol';
import { useTheme } from '../look/use-theme';

/**
 * The first thing in the transcript: which model answers (and at which host — never a key), in
 * which project, in which mode, and whether commands run in the bubblewrap sandbox. A demo session
 * says it is one.
 */
export function StartBanner({ start }: { start: StartInfo }): ReactNode {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={theme.border}
      paddingX={1}
      alignSelf="flex-start"
    >
      <Text>
        <Text bold color={theme.accent}>
          warden
        </Text>
        {start.demo ? (
          <Text bold color={theme.warn}>
            {' '}
            DEMO · scripted model {start.model}, no API key
          </Text>
        ) : (
          <Text>
            {' '}
            · model <Text bold>{start.model}</Text>
            {start.endpoint ? ` at ${start.endpoint}` : ''}
          </Text>
        )}
      </Text>
      <Text>
        project <Text bold>{start.root}</Text>
      </Text>
      <Text>
        mode{' '}
        <Text bold color={start.mode === 'auto' ? theme.warn : theme.accent}>
          {start.mode}
        </Text>
        {' · '}
        {start.sandbox.kind === 'bubblewrap' ? (
          <Text>sandbox on (bubblewrap)</Text>
        ) : (
          <Text color={theme.warn}>⚠ sandbox off ({start.sandbox.reason}): every command asks</Text>
        )}
      </Text>
    </Box>
  );
}
