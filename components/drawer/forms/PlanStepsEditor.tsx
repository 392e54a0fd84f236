import { Box, type Key, Text } from 'ink';
import { useRef, useState } from 'react';
import { displayLine } from '../../../src/text/wrap';
import { useTheme } from '../../look/use-theme';
import { footerLine, keyId, lookup, PLAN_EDITOR_KEYS } from '../../keys/keymap';
import { TextField } from '../../widgets/TextField';
import { useDrawer } from '../drawer-context';

type EditorState = { steps: string[]; focus: number };

const PLACEHOLDER = '(empty: removed on save)';

/** The editor's keys line, from the keymap. */
const HINT = footerLine(Object.values(PLAN_EDITOR_KEYS));

/** The non-empty steps, trimmed, each on one line: clearing a step's text removes the step. */
export function cleanSteps(steps: string[]): string[] {
  return steps.map((s) => s.replace(/\s*\n\s*/g, ' ').trim()).filter((s) => s !== '');
}

/**
 * One line per plan step; the focused step is the one TextField, kept mounted (same key) while the
 * focus moves so it holds keys across the move instead of losing them. ↑/↓ move between steps,
 * Enter goes to the next step and on the last one saves, Ctrl+N adds a step below, Ctrl+S saves
 * from anywhere, Esc cancels. The steps live in a ref every key reads and writes, so a burst of
 * keys (text then Ctrl+S) acts on the latest text, not the last render's.
 */
export function PlanStepsEditor(props: {
  steps: string[];
  width: number;
  height: number;
  isActive: boolean;
}) {
  const { dispatch, gate } = useDrawer();
  const [state, setState] = useState<EditorState>(() => ({
    steps: props.steps.length ? props.steps : [''],
    focus: 0,
  }));
  // Seeded with the first state only; from then on every key writes it before the render shows it.
  const latest = useRef(state);
  const [error, setError] = useState<string | undefined>();
  const theme = useTheme();
  const update = (next: EditorState) => {
    latest.current = next;
    setState(next);
  };
  const save = () => {
    const steps = cleanSteps(latest.current.steps);
    if (steps.length) dispatch({ type: 'decide', decision: { kind: 'approve_plan', steps } });
    else setError('A plan needs at least one step (Esc cancels the edit).');
  };
  const edit = (text: string) => {
    const { steps, focus } = latest.current;
    setError(undefined);
    update({ steps: steps.map((s, i) => (i === focus ? text : s)), focus });
  };
  const next = () => {
    const { steps, focus } = latest.current;
    if (focus >= steps.length - 1) save();
    else update({ steps, focus: focus + 1 });
  };
  // Text and Enter are the field's; it hands on the rest in order, so a move lands between edits.
  const onKey = (input: string, key: Key) => {
    const { steps, focus } = latest.current;
    const action = lookup(PLAN_EDITOR_KEYS, keyId(input, key));
    if (action === 'cancel') return dispatch({ type: 'back' });
    if (action === 'save') return save();
    if (action === 'up') return update({ steps, focus: Math.max(0, focus - 1) });
    if (action === 'down') return update({ steps, focus: Math.min(steps.length - 1, focus + 1) });
    if (action === 'add')
      update({ steps: [...steps.slice(0, focus + 1), '', ...steps.slice(focus + 1)], focus: focus + 1 });
  };
  const rows = Math.max(1, props.height - 2);
  const start = Math.max(0, Math.min(state.focus - Math.floor(rows / 2), state.steps.length - rows));
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Edit the plan</Text>
        <Text dimColor> · {HINT}</Text>
      </Text>
      {state.steps.slice(start, start + rows).map((step, i) => {
        const at = start + i;
        const label = `${String(at + 1).padStart(2)}. `;
        if (at !== state.focus) {
          return (
            <Text key={at} wrap="truncate-end">
              {label}
              {step ? displayLine(step) : <Text dimColor>{PLACEHOLDER}</Text>}
            </Text>
          );
        }
        return (
          // One Text (a long step wraps under its number), keyed apart from the rows so the field
          // stays mounted while the focus moves.
          <Text key="focus">
            <Text color={theme.accent}>{label}</Text>
            <TextField
              value={step}
              onChange={edit}
              onSubmit={next}
              onKey={onKey}
              isActive={props.isActive}
              gate={gate}
              placeholder={PLACEHOLDER}
            />
          </Text>
        );
      })}
      {error ? <Text color={theme.error}>{error}</Text> : null}
    </Box>
  );
}
