import { Box, type Key, Text } from 'ink';
import { useState } from 'react';
import type { ApprovalPreview } from '../src/protocol';
import { displayLine, wrap } from './approval-text';
import { useApprovalInput, useApprovalKeyGate } from './hooks/use-approval-input';
import { TextField } from './TextField';

/**
 * ask_user: the question, its options (↑/↓ + Enter answers) and a last entry to type a free answer.
 * n/Esc declines, c cancels the task, Tab moves to another pending request, ? shows the keys.
 * Without options the text field is open from the start and Esc declines.
 */
export function QuestionForm(props: {
  preview: Extract<ApprovalPreview, { kind: 'question' }>;
  width: number;
  height: number;
  isActive: boolean;
  onAnswer: (text: string) => void;
  onDecline: () => void;
  onCancelTask: () => void;
  onQueue: (delta: 1 | -1) => void;
  onHelp: () => void;
  onInvalid: (input: string) => void;
}) {
  const options = props.preview.options ?? [];
  const [index, setIndex] = useState(0);
  const [typing, setTyping] = useState(options.length === 0);
  const [answer, setAnswer] = useState('');
  const gate = useApprovalKeyGate();
  useApprovalInput(
    (input, key) => {
      if (key.upArrow) return setIndex((i) => Math.max(0, i - 1));
      if (key.downArrow) return setIndex((i) => Math.min(options.length, i + 1));
      if (key.tab) return props.onQueue(key.shift ? -1 : 1);
      if (key.return) {
        const option = options[index];
        return option === undefined ? setTyping(true) : props.onAnswer(option);
      }
      if (key.escape || input === 'n') return props.onDecline();
      if (input === 't') return setTyping(true);
      if (input === 'c') return props.onCancelTask();
      if (input === '?') return props.onHelp();
      if (key.ctrl || key.meta || input === '') return;
      props.onInvalid(input);
    },
    { isActive: props.isActive && !typing },
  );
  // While typing, the field takes text and Enter; what it leaves alone moves or goes back.
  const onFieldKey = (_input: string, key: Key) => {
    if (key.escape) return options.length ? setTyping(false) : props.onDecline();
    if (key.tab || (!options.length && (key.upArrow || key.downArrow))) {
      props.onQueue(key.upArrow || (key.tab && key.shift) ? -1 : 1);
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
      {options.map((option, i) => (
        <Text key={`o${i}`} wrap="truncate-end" inverse={!typing && i === index}>
          {!typing && i === index ? '› ' : '  '}
          {displayLine(option)}
        </Text>
      ))}
      {typing ? (
        <Text>
          answer ›{' '}
          <TextField
            value={answer}
            onChange={setAnswer}
            onSubmit={(value) => {
              if (value.trim()) props.onAnswer(value);
            }}
            isActive={props.isActive}
            onKey={onFieldKey}
            gate={gate}
          />
        </Text>
      ) : (
        <Text inverse={index === options.length}>{index === options.length ? '› ' : '  '}✎ type an answer…</Text>
      )}
      <Text dimColor wrap="truncate-end">
        {typing
          ? `Enter sends · Esc ${options.length ? 'back to the options' : 'declines'}`
          : '↑/↓ + Enter answer · t type · n/Esc decline · c cancel task · Tab next request'}
      </Text>
    </Box>
  );
}
