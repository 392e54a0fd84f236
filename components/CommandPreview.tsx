import { Box, Text } from 'ink';
import type { ApprovalPreview } from '../src/protocol';
import { ApprovalLines } from './ApprovalLines';
import type { PreviewLine } from './approval-lines';
import { useTheme } from './hooks/use-theme';

/** execute_command: whether it is sandboxed (always in view), then the command and its details. */
export function CommandPreview(props: {
  preview: Extract<ApprovalPreview, { kind: 'command' }>;
  lines: PreviewLine[];
  offset: number;
  width: number;
  height: number;
}) {
  const { preview } = props;
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      {preview.sandboxed ? (
        <Text color={theme.ok} wrap="truncate-end">
          sandboxed · network off, project writable, rest read-only
        </Text>
      ) : (
        <Text wrap="truncate-end">
          <Text color={theme.error} bold inverse>
            {' NOT sandboxed '}
          </Text>
          <Text color={theme.error}> runs with your full permissions: network, every file you can write</Text>
        </Text>
      )}
      <ApprovalLines lines={props.lines} offset={props.offset} width={props.width} height={props.height - 1} />
    </Box>
  );
}
