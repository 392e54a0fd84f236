import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import type { ApprovalRequest } from '../../../src/protocol';
import { displayLine } from '../../../src/text/wrap';
import { prettyJson } from '../../../src/text/json';
import { truncateCells } from '../../../src/text/truncate';
import { useTheme } from '../../look/use-theme';
import { ARGS_EDITOR_KEYS, footerLine, keyId, lookup } from '../../keys/keymap';
import { useKeys } from '../../keys/use-keys';
import { useDrawer } from '../drawer-context';
import { externalEditField } from '../drawer-state';
import { editorFromText, editorKey, editorText, parseArgs } from './args-editor-state';

/**
 * Edit the call's arguments as pretty JSON. Arrows move, typing inserts, Enter breaks the line,
 * Ctrl+S sends the edit for review, Esc cancels. Invalid JSON shows the parse error and keeps the
 * editor open; the core re-checks valid edits (schema, guards, policy) and shows the edited call on
 * the card (its diff, what changed), and only the person's next approve runs it. The text lives in a ref
 * that every key reads and writes, so a burst of keys (an edit then Ctrl+S, with no render
 * between) saves the latest text; state only mirrors it.
 */
export function EditArgs(props: {
  request: ApprovalRequest;
  width: number;
  height: number;
  isActive: boolean;
}) {
  const { dispatch, gate } = useDrawer();
  const [error, setError] = useState<string | undefined>();
  const theme = useTheme();
  const [editor, setEditor] = useState(() => editorFromText(prettyJson(props.request.args)));
  // Seeded with the first state only; from then on every key writes it before the render shows it.
  const latest = useRef(editor);
  useKeys(
    (input, key) => {
      const action = lookup(ARGS_EDITOR_KEYS, keyId(input, key));
      if (action === 'cancel') return dispatch({ type: 'back' });
      if (action === 'save') {
        const parsed = parseArgs(editorText(latest.current));
        return parsed.ok
          ? dispatch({ type: 'decide', decision: { kind: 'edit', args: parsed.value, review: true } })
          : setError(parsed.error);
      }
      latest.current = editorKey(latest.current, input, key);
      setEditor(latest.current);
    },
    { isActive: props.isActive, gate },
  );
  // File writes can open $EDITOR on the proposed content instead.
  const external =
    externalEditField(props.request) !== undefined ? ' · Esc then E: $EDITOR on the content' : '';
  const rows = Math.max(1, props.height - 2);
  const start = Math.max(0, Math.min(editor.row - Math.floor(rows / 2), editor.lines.length - rows));
  const gutter = String(editor.lines.length).length;
  const room = Math.max(4, props.width - gutter - 1);
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Edit arguments (JSON)</Text>
        <Text dimColor>
          {' · '}
          {footerLine(Object.values(ARGS_EDITOR_KEYS))}
          {external}
        </Text>
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
                {truncateCells(displayLine(text.slice(col + 1)), Math.max(1, room - col - 1))}
              </>
            ) : (
              truncateCells(displayLine(text), room)
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
