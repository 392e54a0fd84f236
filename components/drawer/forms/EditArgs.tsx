import { Box, Text } from 'ink';
import { useState } from 'react';
import { parseArgs } from './args-editor-state';
import { displayLine, prettyJson, truncate } from './approval-text';
import { useArgsEditor } from './hooks/use-args-editor';
import { useTheme } from './hooks/use-theme';

/**
 * Edit the call's arguments as pretty JSON. Arrows move, typing inserts, Enter breaks the line,
 * Ctrl+S saves, Esc cancels. Invalid JSON shows the parse error and keeps the editor open; the
 * core re-checks valid edits (schema, guards, policy) before anything runs.
 */
export function EditArgs(props: {
  args: unknown;
  width: number;
  height: number;
  isActive: boolean;
  /** Shown for file writes: the key that opens $EDITOR on the proposed content instead. */
  externalHint?: string;
  onSave: (args: unknown) => void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<string | undefined>();
  const theme = useTheme();
  const editor = useArgsEditor({
    isActive: props.isActive,
    text: prettyJson(props.args),
    onSave: (text) => {
      const parsed = parseArgs(text);
      if (parsed.ok) props.onSave(parsed.value);
      else setError(parsed.error);
    },
    onCancel: props.onCancel,
  });
  const rows = Math.max(1, props.height - 2);
  const start = Math.max(0, Math.min(editor.row - Math.floor(rows / 2), editor.lines.length - rows));
  const gutter = String(editor.lines.length).length;
  const room = Math.max(4, props.width - gutter - 1);
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Edit arguments (JSON)</Text>
        <Text dimColor> · Ctrl+S save · Esc cancel{props.externalHint ? ` · ${props.externalHint}` : ''}</Text>
      </Text>
      {editor.lines.slice(start, start + rows).map((line, i) => {
        const row = start + i;
        // Keep the cursor in view on long lines by scrolling that line horizontally.
        const from = row === editor.row ? Math.max(0, editor.col - room + 2) : 0;
        // Only what can show is prepared: a 5 MB file's content is one JSON line.
        const text = line.slice(from, from + room * 2);
        const col = editor.col - from;
        return (
          <Text key={row} wrap="truncate-end">
            <Text dimColor>{`${String(row + 1).padStart(gutter)} `}</Text>
            {row === editor.row ? (
              <>
                {displayLine(text.slice(0, col))}
                <Text inverse>{displayLine(text.slice(col, col + 1)) || ' '}</Text>
                {truncate(displayLine(text.slice(col + 1)), Math.max(1, room - col - 1))}
              </>
            ) : (
              truncate(displayLine(text), room)
            )}
          </Text>
        );
      })}
      {error ? (
        <Text color={theme.error} wrap="truncate-end">
          Invalid JSON: {error}
        </Text>
      ) : null}
    </Box>
  );
}
