import { Box, type Key, Text } from 'ink';
import { useState } from 'react';
import type { ApprovalPreview, ApprovalRequest } from '../../../src/protocol';
import { useTheme } from '../../look/use-theme';
import { ANSWER_KEYS, keyId, lookup } from '../../keys/keymap';
import { TextField } from '../../widgets/TextField';
import { useDrawer } from '../drawer-context';
import { type EscalationLine, escalationLines } from './escalation-lines';

/**
 * An escalation card: the agent stopped and asks. It
 * takes the card's whole height — who stopped and why, the goal, each attempt with its result, what
 * it needs, what each choice does — with no tool-call details; the drawer's footer is its key line.
 * `r` opens the instruction field, whose Enter sends "retry with this instruction".
 */
export function EscalationForm(props: {
  preview: Extract<ApprovalPreview, { kind: 'escalation' }>;
  request: Pick<ApprovalRequest, 'agentName' | 'parentAgentId' | 'step'>;
  parentName?: string;
  typing: boolean;
  width: number;
  height: number;
  isActive: boolean;
}) {
  const { dispatch, gate } = useDrawer();
  const theme = useTheme();
  const [instruction, setInstruction] = useState('');
  const { width } = props;
  const onFieldKey = (input: string, key: Key) => {
    const action = lookup(ANSWER_KEYS, keyId(input, key));
    if (action === 'back') dispatch({ type: 'back' });
  };
  const field = props.typing ? 2 : 0;
  const lines = escalationLines(props.request, props.preview, width, props.height - field, props.parentName);
  const color = (tone: EscalationLine['tone']) => (tone === 'title' ? theme.warn : undefined);
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      {lines.map((line, i) => (
        <Box key={i} height={1} flexShrink={0}>
          <Text
            wrap="truncate-end"
            bold={line.tone === 'title' || line.tone === 'needs'}
            dimColor={line.tone === 'dim'}
            color={color(line.tone)}
          >
            {line.text}
          </Text>
        </Box>
      ))}
      {props.typing ? (
        <>
          <Box height={1} flexShrink={0}>
            <Text>
              instruction ›{' '}
              <TextField
                value={instruction}
                onChange={setInstruction}
                onSubmit={(value) => {
                  if (value.trim())
                    dispatch({
                      type: 'decide',
                      decision: { kind: 'escalation', choice: 'retry', instruction: value.trim() },
                    });
                }}
                isActive={props.isActive}
                onKey={onFieldKey}
                gate={gate}
              />
            </Text>
          </Box>
          <Text dimColor wrap="truncate-end">
            {ANSWER_KEYS.send.show} retries with it · Esc back
          </Text>
        </>
      ) : null}
    </Box>
  );
}
