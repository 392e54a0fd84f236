import { Box, Text } from 'ink';
import { useState } from 'react';
import { ApprovalTextField } from './ApprovalTextField';
import { useApprovalInput } from './hooks/use-approval-input';
import { textFieldKey } from './hooks/use-approval-text-field';
import { useTheme } from './hooks/use-theme';

type EditorState = { steps: string[]; focus: number; cursor: number };

/** The non-empty steps, trimmed: clearing a step's text removes the step. */
export function cleanSteps(steps: string[]): string[] {
  return steps.map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * One text field per plan step. ↑/↓ move between steps, Enter goes to the next step and on the
 * last one saves, Ctrl+N adds a step below, Ctrl+S saves from anywhere, Esc cancels.
 */
export function PlanStepsEditor(props: {
  steps: string[];
  width: number;
  height: number;
  isActive: boolean;
  onSave: (steps: string[]) => void;
  onCancel: () => void;
}) {
  const [state, setState] = useState<EditorState>(() => {
    const steps = props.steps.length ? props.steps : [''];
    return { steps, focus: 0, cursor: steps[0]?.length ?? 0 };
  });
  const [error, setError] = useState<string | undefined>();
  const theme = useTheme();
  const focusOn = (s: EditorState, focus: number): EditorState => ({
    ...s,
    focus,
    cursor: Math.min(s.cursor, s.steps[focus]?.length ?? 0),
  });
  const save = () => {
    const steps = cleanSteps(state.steps);
    if (steps.length) props.onSave(steps);
    else setError('A plan needs at least one step (Esc cancels the edit).');
  };
  useApprovalInput(
    (input, key) => {
      if (key.escape) return props.onCancel();
      if (key.ctrl && input === 's') return save();
      if (key.return) {
        if (state.focus >= state.steps.length - 1) return save();
        return setState((s) => focusOn(s, s.focus + 1));
      }
      if (key.upArrow) return setState((s) => focusOn(s, Math.max(0, s.focus - 1)));
      if (key.downArrow) return setState((s) => focusOn(s, Math.min(s.steps.length - 1, s.focus + 1)));
      if (key.ctrl && input === 'n') {
        return setState((s) => {
          const steps = [...s.steps.slice(0, s.focus + 1), '', ...s.steps.slice(s.focus + 1)];
          return { steps, focus: s.focus + 1, cursor: 0 };
        });
      }
      setError(undefined);
      setState((s) => {
        const next = textFieldKey({ value: s.steps[s.focus] ?? '', cursor: s.cursor }, input, key);
        if (!next) return s;
        const steps = [...s.steps];
        steps[s.focus] = next.value;
        return { steps, focus: s.focus, cursor: next.cursor };
      });
    },
    { isActive: props.isActive },
  );
  const rows = Math.max(1, props.height - 2);
  const start = Math.max(0, Math.min(state.focus - Math.floor(rows / 2), state.steps.length - rows));
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Edit the plan</Text>
        <Text dimColor> · ↑/↓ step · Enter next (saves on the last) · Ctrl+N new step · Ctrl+S save · Esc cancel</Text>
      </Text>
      {state.steps.slice(start, start + rows).map((step, i) => {
        const at = start + i;
        const label = `${String(at + 1).padStart(2)}. `;
        return (
          <Box key={at}>
            <Text color={at === state.focus ? theme.accent : undefined}>{label}</Text>
            <ApprovalTextField
              value={step}
              cursor={at === state.focus ? state.cursor : step.length}
              width={props.width - label.length}
              focused={at === state.focus && props.isActive}
              placeholder="(empty: removed on save)"
            />
          </Box>
        );
      })}
      {error ? <Text color={theme.error}>{error}</Text> : null}
    </Box>
  );
}
