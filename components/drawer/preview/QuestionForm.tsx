import { Box, type Key, Text } from 'ink';
import { useState } from 'react';
import type { ApprovalPreview } from '../../../src/protocol';
import { displayLine, wrap } from '../../../src/text/wrap';
import { ANSWER_KEYS, footerLine, keyId, lookup, QUESTION_KEYS } from '../../keys/keymap';
import { TextField } from '../../widgets/TextField';
import { useDrawer } from '../drawer-context';

/** The options' keys line, from the keymap. */
const OPTIONS_HINT = `↑/↓ ${footerLine(Object.values(QUESTION_KEYS))}`;

/**
 * ask_user: the question, its options and a last entry to type a free answer. The drawer's keys
 * move the cursor (`option`) and answer; this view owns only the free answer's text field, whose
 * Esc goes back (or declines without options) and whose Tab moves in the queue.
 */
export function QuestionForm(props: {
  preview: Extract<ApprovalPreview, { kind: 'question' }>;
  option: number;
  typing: boolean;
  width: number;
  height: number;
  isActive: boolean;
}) {
  const { dispatch, gate } = useDrawer();
  const options = props.preview.options ?? [];
  const { option, typing } = props;
  const [answer, setAnswer] = useState('');
  // While typing, the field takes text and Enter; what it leaves alone moves or goes back.
  const onFieldKey = (input: string, key: Key) => {
    const id = keyId(input, key);
    const action = lookup(ANSWER_KEYS, id);
    if (action === 'back') return dispatch({ type: 'back' });
    if (action === 'queue' || (!options.length && (id === 'up' || id === 'down'))) {
      dispatch({ type: 'queue', delta: id === 'up' || id === 'shift+tab' ? -1 : 1 });
    }
  };
  const questionRows = Math.max(1, props.height - options.length - 3);
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      {wrap(props.preview.question, props.width, questionRows).map((line, i) => (
        <Text key={`q${i}`} bold>
          {line}
        </Text>
      ))}
      {options.map((text, i) => (
        <Text key={`o${i}`} wrap="truncate-end" inverse={!typing && i === option}>
          {!typing && i === option ? '› ' : '  '}
          {displayLine(text)}
        </Text>
      ))}
      {typing ? (
        <Text>
          answer ›{' '}
          <TextField
            value={answer}
            onChange={setAnswer}
            onSubmit={(value) => {
              if (value.trim()) dispatch({ type: 'decide', decision: { kind: 'answer', text: value } });
            }}
            isActive={props.isActive}
            onKey={onFieldKey}
            gate={gate}
          />
        </Text>
      ) : (
        <Text inverse={option === options.length}>
          {option === options.length ? '› ' : '  '}✎ type an answer…
        </Text>
      )}
      <Text dimColor wrap="truncate-end">
        {typing
          ? `${ANSWER_KEYS.send.show} ${ANSWER_KEYS.send.footer} · Esc ${options.length ? 'back to the options' : 'declines'}`
          : OPTIONS_HINT}
      </Text>
    </Box>
  );
}
