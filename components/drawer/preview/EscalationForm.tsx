import { Box, type Key, Text } from 'ink';
import { useState } from 'react';
import type { ApprovalPreview } from '../../../src/protocol';
import { displayLine, wrap } from '../../../src/text/wrap';
import { useTheme } from '../../hooks/use-theme';
import { ANSWER_KEYS, ESCALATION_FOOTER, keyId, lookup } from '../../keys/keymap';
import { TextField } from '../../widgets/TextField';
import { useDrawer } from '../drawer-context';

const WHY: Record<Extract<ApprovalPreview, { kind: 'escalation' }>['trigger'], string> = {
  failures: 'failed the same step repeatedly',
  rejections: 'had similar calls rejected',
  max_steps: 'reached its step limit',
  model: 'is stuck and asks for help',
};

/**
 * An escalation card (issue 14 §3): the agent stopped and asks. Shows the goal, what it tried (the
 * calls and their short results) and what it needs; the drawer's keys choose (ESCALATION_KEYS),
 * and `r` opens this view's instruction field, whose Enter sends "retry with this instruction".
 */
export function EscalationForm(props: {
  preview: Extract<ApprovalPreview, { kind: 'escalation' }>;
  agentName: string;
  typing: boolean;
  width: number;
  height: number;
  isActive: boolean;
}) {
  const { dispatch, gate } = useDrawer();
  const theme = useTheme();
  const [instruction, setInstruction] = useState('');
  const { preview: p, width } = props;
  const onFieldKey = (input: string, key: Key) => {
    const action = lookup(ANSWER_KEYS, keyId(input, key));
    if (action === 'back') dispatch({ type: 'back' });
  };
  const goal = wrap(`Goal: ${p.goal}`, width, 2);
  const needs = wrap(`Needs: ${p.needs}`, width, 3);
  const triedRows = Math.max(0, props.height - goal.length - needs.length - 4);
  const tried = p.tried.slice(-Math.max(1, Math.floor(triedRows / 2)));
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text bold color={theme.warn} wrap="truncate-end">
        ⚑ {displayLine(props.agentName)} {WHY[p.trigger]} and stopped
      </Text>
      {goal.map((line, i) => (
        <Text key={`g${i}`}>{line}</Text>
      ))}
      <Text dimColor>Tried:</Text>
      {tried.map((t, i) => (
        <Box key={`t${i}`} flexDirection="column">
          <Text wrap="truncate-end"> • {displayLine(t.call)}</Text>
          <Text dimColor wrap="truncate-end">
            {'   '}→ {displayLine(t.result)}
          </Text>
        </Box>
      ))}
      {needs.map((line, i) => (
        <Text key={`n${i}`} bold>
          {line}
        </Text>
      ))}
      {props.typing ? (
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
      ) : null}
      <Text dimColor wrap="truncate-end">
        {props.typing ? `${ANSWER_KEYS.send.show} retries with it · Esc back` : ESCALATION_FOOTER}
      </Text>
    </Box>
  );
}
