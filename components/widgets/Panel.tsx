import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { useTheme } from '../look/use-theme';

type Props = { title: string; footer?: string; width: number; height?: number; children: ReactNode };

/** A bordered box with a bold title and a dim key hint at the bottom; used by every panel. */
export function Panel({ title, footer, width, height, children }: Props): ReactNode {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={theme.border}
      paddingX={1}
      width={width}
      height={height}
      overflow="hidden"
    >
      <Text bold color={theme.accent}>
        {title}
      </Text>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {children}
      </Box>
      {footer ? (
        <Text dimColor wrap="truncate-end">
          {footer}
        </Text>
      ) : null}
    </Box>
  );
}
