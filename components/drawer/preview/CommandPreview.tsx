import { Box, Text } from 'ink';
import type { ApprovalPreview } from '../../../src/protocol';
import { nameLine } from '../../../src/text/wrap';
import { ApprovalLines } from './ApprovalLines';
import type { PreviewLine } from './approval-lines';
import { useTheme } from '../../look/use-theme';

/**
 * execute_command: whether it is sandboxed, which protected paths approving lifts and which hosts it
 * may reach (one row, always in view), then the command and its details.
 */
export function CommandPreview(props: {
  preview: Extract<ApprovalPreview, { kind: 'command' }>;
  lines: PreviewLine[];
  offset: number;
  width: number;
  height: number;
}) {
  const { preview } = props;
  const theme = useTheme();
  // Only a sandboxed run has read-only protected paths to lift; unsandboxed, everything is writable anyway.
  const lifted = preview.sandboxed
    ? (preview.writes ?? []).filter((w) => w.protected).map((w) => nameLine(w.path))
    : [];
  const hosts = (preview.network ?? []).map((h) => h.host);
  const network = hosts.length > 0 ? `network: ${hosts.join(', ')} only (warden's proxy)` : 'network off';
  const warned = (preview.network ?? []).some((h) => h.warning);
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      {preview.sandboxed ? (
        <Text color={lifted.length > 0 || warned ? theme.warn : theme.ok} wrap="truncate-end">
          {lifted.length > 0
            ? `sandboxed · writes: ${lifted.join(', ')} (protected — writable for this run only) · ${network}`
            : `sandboxed · ${network}, project writable except protected paths, rest read-only`}
        </Text>
      ) : (
        <Text wrap="truncate-end">
          <Text color={theme.error} bold inverse>
            {' NOT sandboxed '}
          </Text>
          <Text color={theme.error}>
            {' '}
            nothing is protected during this run: network, .git, package.json, every file you can write
          </Text>
        </Text>
      )}
      <ApprovalLines
        lines={props.lines}
        offset={props.offset}
        width={props.width}
        height={props.height - 1}
      />
    </Box>
  );
}
