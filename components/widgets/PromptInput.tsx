import { Box, Text } from 'ink';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { complete, SLASH_COMMANDS, type SlashCommand } from './slash-commands';
import { truncateChars } from '../../src/text/truncate';
import { usePromptHistory } from './use-prompt-history';
import { PROMPT_HINT, PROMPT_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { useTheme } from '../look/use-theme';
import { TextField } from './TextField';
import { applyCompletion, trailingMention } from './path-completion';

export type PromptMessage = { level: 'info' | 'warn' | 'error'; text: string };

type Props = {
  isActive: boolean;
  width: number;
  onSubmit: (text: string) => void;
  /** Feedback for the hint line (an unknown command, a notice from the core). */
  message?: PromptMessage;
  /** Project paths starting with a prefix (the core's `complete_path`); without it Tab leaves `@path` alone. */
  completePath?: (prefix: string) => Promise<string[]>;
  /** The commands Tab completes and the hint describes: the built-ins, then custom ones (default: the built-ins). */
  commands?: readonly SlashCommand[];
};

/** Matches listed under the prompt at most; the rest are counted. */
const LIST_ROWS = 6;

/** What the line under the prompt says for the current input. */
function hintFor(
  value: string,
  message: PromptMessage | undefined,
  isActive: boolean,
  commands: readonly SlashCommand[],
): { text: string; level?: PromptMessage['level'] } {
  if (value.startsWith('/')) {
    const { matches } = complete(value, commands);
    const word = value.slice(1).split(' ')[0] ?? '';
    const exact = commands.find((c) => c.name === word.toLowerCase());
    if (value.includes(' ') && exact)
      return { text: `${exact.usage} — ${exact.does}${matches.length ? `  (${matches.join(' | ')})` : ''}` };
    const only = matches.length === 1 ? commands.find((c) => c.name === matches[0]) : undefined;
    if (only) return { text: `${only.usage} — ${only.does}` };
    if (matches.length > 0) return { text: matches.map((m) => `/${m}`).join('  ') };
    return { text: `no command matches ${value.split(' ')[0]} — /help lists them`, level: 'warn' };
  }
  if (message) return message;
  if (isActive && trailingMention(value))
    return { text: 'Tab completes a project path · the file is attached to the prompt when you send it' };
  return { text: value || !isActive ? '' : PROMPT_HINT };
}

/**
 * The prompt line with ↑/↓ history, Tab completion of slash commands and of `@path` (through the
 * core; several matches are listed under the prompt), and a hint line below it.
 */
export function PromptInput({
  isActive,
  width,
  onSubmit,
  message,
  completePath,
  commands = SLASH_COMMANDS,
}: Props): ReactNode {
  const theme = useTheme();
  const [value, setValueState] = useState('');
  // ↑/↓/Tab read the value from here: it is current even before React re-renders.
  const latest = useRef('');
  const setValue = useCallback((next: string) => {
    latest.current = next;
    setValueState(next);
  }, []);
  const history = usePromptHistory();
  // The matches of the last @path Tab, shown while the value is still the one they were for.
  const [paths, setPaths] = useState<{ forValue: string; list: string[]; none: boolean }>();
  const completeMention = (value: string): boolean => {
    const mention = trailingMention(value);
    if (!mention || !completePath) return false;
    void completePath(mention.prefix).then((matches) => {
      // Typed on meanwhile: this answer is for a value that is gone.
      if (latest.current !== value) return;
      const done = applyCompletion(value, mention, matches);
      if (done.value !== value) setValue(done.value);
      setPaths({ forValue: done.value, list: done.list, none: done.none });
    });
    return true;
  };

  const setIfAny = (text: string | undefined) => text !== undefined && setValue(text);
  useKeyTable(
    PROMPT_KEYS,
    {
      send: () => {}, // TextField submits
      history_older: () => setIfAny(history.older(latest.current)),
      history_newer: () => setIfAny(history.newer()),
      complete: () =>
        completeMention(latest.current) || setIfAny(complete(latest.current, commands).completed),
      quit: () => {}, // use-ctrl-c
    },
    { isActive },
  );

  // TextField hands over the value as of the Enter (or of a chunk ending in a line break).
  const submit = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') return;
    history.push(trimmed);
    setValue('');
    onSubmit(trimmed);
  };

  const shownPaths = paths?.forValue === value ? paths : undefined;
  const hint = shownPaths?.none
    ? { text: `no project path starts with @${trailingMention(value)?.prefix ?? ''}`, level: 'warn' as const }
    : hintFor(value, message, isActive, commands);
  const hintColor = hint.level === 'error' ? theme.error : hint.level === 'warn' ? theme.warn : undefined;
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={theme.accent} bold={isActive} dimColor={!isActive}>
          {isActive ? '› ' : '· '}
        </Text>
        <Box flexShrink={1}>
          <TextField value={value} onChange={setValue} onSubmit={submit} isActive={isActive} />
        </Box>
      </Box>
      {shownPaths && shownPaths.list.length > 0 ? (
        <Text dimColor>
          {shownPaths.list
            .slice(0, LIST_ROWS)
            .map((p) => `  ${truncateChars(p, width - 2)}`)
            .join('\n')}
          {shownPaths.list.length > LIST_ROWS ? `\n  +${shownPaths.list.length - LIST_ROWS} more` : ''}
        </Text>
      ) : null}
      <Text color={hintColor} dimColor={!hint.level} wrap="truncate-end">
        {truncateChars(hint.text, width) || ' '}
      </Text>
    </Box>
  );
}
