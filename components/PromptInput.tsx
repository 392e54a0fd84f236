import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { complete, SLASH_COMMANDS } from './commands';
import { truncate } from './format';
import { useChordGuard } from './hooks/use-chord-guard';
import { usePromptHistory } from './hooks/use-prompt-history';
import { useTheme } from './hooks/use-theme';
import { useKeys } from './hooks/use-keys';

export type PromptMessage = { level: 'info' | 'warn' | 'error'; text: string };

type Props = {
  isActive: boolean;
  width: number;
  onSubmit: (text: string) => void;
  /** Feedback for the hint line (an unknown command, a notice from the core). */
  message?: PromptMessage;
};

const IDLE_HINT = 'Enter send · ↑↓ history · Tab complete · /help · Ctrl+T audit · Ctrl+C×2 quit';

/** What the line under the prompt says for the current input. */
function hintFor(value: string, message: PromptMessage | undefined, isActive: boolean): { text: string; level?: PromptMessage['level'] } {
  if (value.startsWith('/')) {
    const { matches } = complete(value);
    const word = value.slice(1).split(' ')[0] ?? '';
    const exact = SLASH_COMMANDS.find((c) => c.name === word.toLowerCase());
    if (value.includes(' ') && exact) return { text: `${exact.usage} — ${exact.does}${matches.length ? `  (${matches.join(' | ')})` : ''}` };
    const only = matches.length === 1 ? SLASH_COMMANDS.find((c) => c.name === matches[0]) : undefined;
    if (only) return { text: `${only.usage} — ${only.does}` };
    if (matches.length > 0) return { text: matches.map((m) => `/${m}`).join('  ') };
    return { text: `no command matches ${value.split(' ')[0]} — /help lists them`, level: 'warn' };
  }
  if (message) return message;
  return { text: value || !isActive ? '' : IDLE_HINT };
}

/** The prompt line with ↑/↓ history, slash-command completion and a hint line below it. */
export function PromptInput({ isActive, width, onSubmit, message }: Props): ReactNode {
  const theme = useTheme();
  const [value, setValueState] = useState('');
  // Ink may run a key handler from the previous render; submit reads the latest value from here.
  const latest = useRef('');
  const setValue = useCallback((next: string) => {
    latest.current = next;
    setValueState(next);
  }, []);
  // Bumped when the value is replaced (recall, completion) so the input's cursor goes to the end.
  const [inputKey, setInputKey] = useState(0);
  const history = usePromptHistory();
  const replace = useCallback((next: string) => {
    setValue(next);
    setInputKey((k) => k + 1);
  }, []);
  // Text ending in one line break is typing plus Enter (one chunk from a fast terminal or a
  // script): submit it. Other breaks (a paste) stay in the prompt as newlines.
  const onLineBreaks = (chunk: string, before: string) => {
    const text = chunk.replace(/\r\n?/g, '\n');
    if (text.indexOf('\n') === text.length - 1) submit(before + text.slice(0, -1));
    else replace(before + text);
  };
  const onChange = useChordGuard(value, setValue, isActive, onLineBreaks);

  useKeys(
    (_input, key) => {
      if (key.upArrow) {
        const text = history.older(value);
        if (text !== undefined) replace(text);
      } else if (key.downArrow) {
        const text = history.newer();
        if (text !== undefined) replace(text);
      } else if (key.tab && !key.shift) {
        const { completed } = complete(value);
        if (completed !== undefined) replace(completed);
      }
    },
    { isActive },
  );

  const submit = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') return;
    history.push(trimmed);
    replace('');
    onSubmit(trimmed);
  };

  const hint = hintFor(value, message, isActive);
  const hintColor = hint.level === 'error' ? theme.error : hint.level === 'warn' ? theme.warn : undefined;
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={theme.accent} bold={isActive} dimColor={!isActive}>
          {isActive ? '› ' : '· '}
        </Text>
        <Box flexShrink={1}>
          <TextInput key={inputKey} value={value} onChange={onChange} onSubmit={() => submit(latest.current)} focus={isActive} />
        </Box>
      </Box>
      <Text color={hintColor} dimColor={!hint.level} wrap="truncate-end">
        {truncate(hint.text, width) || ' '}
      </Text>
    </Box>
  );
}
