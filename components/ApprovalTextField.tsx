import { Text } from 'ink';
import { displayLine } from './approval-text';

/** One line of editable text with an inverse cursor, scrolled so the cursor stays in view. */
export function ApprovalTextField(props: {
  value: string;
  cursor: number;
  width: number;
  focused: boolean;
  placeholder?: string;
}) {
  const { value, cursor, focused } = props;
  const room = Math.max(2, props.width - 1);
  if (!value && props.placeholder && !focused) return <Text dimColor>{props.placeholder}</Text>;
  const start = Math.max(0, cursor - room + 1);
  const before = displayLine(value.slice(start, cursor));
  const at = displayLine(value.slice(cursor, cursor + 1)) || ' ';
  const after = displayLine(value.slice(cursor + 1, start + room));
  if (!focused) return <Text wrap="truncate-end">{displayLine(value.slice(0, room))}</Text>;
  return (
    <Text wrap="truncate-end">
      {before}
      <Text inverse>{at}</Text>
      {after}
      {!value && props.placeholder ? <Text dimColor>{` ${props.placeholder}`}</Text> : null}
    </Text>
  );
}
