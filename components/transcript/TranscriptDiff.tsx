import { Box, Text } from 'ink';
import type { ToolDiff } from '../../src/protocol';
import { truncateCells } from '../../src/text/truncate';
import { displayLine } from '../../src/text/wrap';
import { useTheme } from '../look/use-theme';

/**
 * The folded diff an approved write keeps under its tool card: its hunks with their line numbers
 * and `-`/`+` markers (coloured, but readable without colour), a fold row for each unchanged run
 * between them, and "+N more changed lines" past the core's caps.
 */
export function TranscriptDiff({ diff, width }: { diff: ToolDiff; width: number }) {
  const theme = useTheme();
  const last = diff.hunks.flatMap((h) => h.lines).reduce((m, l) => Math.max(m, l.no), 1);
  const gutter = String(last).length;
  const room = Math.max(10, width - gutter - 3);
  const summary = diff.isNew ? `new file · ${diff.added} lines` : `+${diff.added} −${diff.removed}`;
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {`${' '.repeat(gutter)} ${summary}`}
      </Text>
      {diff.hunks.map((h, i) => (
        // Hunks have no identity beyond their order in the diff.
        <Box key={i} flexDirection="column">
          {h.skipped > 0 ? (
            <Text
              dimColor
            >{`${' '.repeat(gutter)} ⋯ ${h.skipped} unchanged ${h.skipped === 1 ? 'line' : 'lines'}`}</Text>
          ) : null}
          {h.lines.map((l, k) => {
            const color = l.sign === '-' ? theme.error : l.sign === '+' ? theme.ok : undefined;
            return (
              // Lines have no identity beyond their order in the hunk.
              <Text key={k} wrap="truncate-end">
                <Text dimColor>{`${String(l.no).padStart(gutter)} `}</Text>
                <Text color={color} dimColor={l.sign === ' '}>
                  {`${l.sign} ${truncateCells(displayLine(l.text), room)}`}
                </Text>
              </Text>
            );
          })}
        </Box>
      ))}
      {diff.more > 0 ? (
        <Text
          dimColor
        >{`${' '.repeat(gutter)} +${diff.more} more changed ${diff.more === 1 ? 'line' : 'lines'}`}</Text>
      ) : null}
    </Box>
  );
}
