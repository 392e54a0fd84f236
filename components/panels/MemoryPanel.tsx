import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { InstructionFileInfo } from '../../src/protocol';
import { formatBytes } from '../../src/text/bytes';
import { displayLine } from '../../src/text/wrap';
import { useTheme } from '../look/use-theme';
import { MEMORY_KEYS, PANEL_FOOTERS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { Panel } from '../widgets/Panel';

type Props = {
  /** Absent from a core that does not report its instruction files. */
  files: InstructionFileInfo[] | undefined;
  isActive: boolean;
  width: number;
  maxRows: number;
  onClose: () => void;
};

const SCOPE: Record<InstructionFileInfo['scope'], string> = {
  person: 'yours  ',
  project: 'project',
  folder: 'folder ',
};

/** /memory: the instruction files in every agent's system prompt, in the order they are given, with their size. */
export function MemoryPanel({ files, isActive, width, maxRows, onClose }: Props): ReactNode {
  const theme = useTheme();
  useKeyTable(MEMORY_KEYS, { close: onClose }, { isActive });
  const hasProject = files?.some((f) => f.scope === 'project') ?? false;
  return (
    <Panel
      title="Memory"
      footer={PANEL_FOOTERS.memory}
      width={width}
      height={maxRows < 12 ? maxRows : undefined}
    >
      <Text bold>Instruction files in the system prompt</Text>
      {files === undefined ? <Text dimColor> the core did not report its instruction files</Text> : null}
      {files?.length === 0 ? <Text dimColor> none</Text> : null}
      {files?.map((f) => (
        <Box key={f.path}>
          <Text wrap="truncate-start">
            {'  '}
            {SCOPE[f.scope]} {displayLine(f.path)}
          </Text>
          <Box flexShrink={0}>
            <Text dimColor>
              {'  '}
              {formatBytes(f.bytes)}
              {f.truncated ? <Text color={theme.warn}> · cut</Text> : null}
            </Text>
          </Box>
        </Box>
      ))}
      <Text> </Text>
      <Text dimColor wrap="wrap">
        Yours ($WARDEN_HOME/AGENTS.md) first, then the project's, then each folder's down to where warden
        started; the later refine the earlier. Each is read again before a prompt; a file is cut at 64 KB, all
        of them at 128 KB.
      </Text>
      {files && !hasProject ? (
        <Text color={theme.accent} wrap="wrap">
          The project has no AGENTS.md: /init proposes a first one (a card shows it before it is written).
        </Text>
      ) : null}
    </Panel>
  );
}
