import { Box, Text } from 'ink';
import { useState } from 'react';
import type { GrantScope } from '../src/protocol';
import { displayLine, wrap } from './approval-text';
import { useApprovalInput } from './hooks/use-approval-input';
import { useTheme } from './hooks/use-theme';

/** Durations offered for a grant; undefined means "for this session". */
export const GRANT_MINUTES: readonly (number | undefined)[] = [undefined, 5, 15, 60];

/** The scope with the chosen duration; no duration leaves `minutes` out. */
export function scopeWithMinutes(scope: GrantScope, minutes: number | undefined): GrantScope {
  const { minutes: _drop, ...rest } = scope;
  return minutes === undefined ? rest : { ...rest, minutes };
}

/**
 * Approve-all: the scopes the gate offers for this call, each with its label and the exact rule it
 * amounts to. ↑/↓ picks, +/- sets minutes, Enter grants, Esc goes back.
 */
export function GrantChooser(props: {
  options: GrantScope[];
  width: number;
  height: number;
  isActive: boolean;
  onConfirm: (scope: GrantScope) => void;
  onBack: () => void;
}) {
  const { options, width } = props;
  const theme = useTheme();
  const [index, setIndex] = useState(0);
  const [minutesAt, setMinutesAt] = useState(() => Math.max(0, GRANT_MINUTES.indexOf(options[0]?.minutes)));
  const minutes = GRANT_MINUTES[minutesAt];
  useApprovalInput(
    (input, key) => {
      if (key.escape) return props.onBack();
      if (key.upArrow) return setIndex((i) => Math.max(0, i - 1));
      if (key.downArrow) return setIndex((i) => Math.min(options.length - 1, i + 1));
      if (input === '+' || input === '=') return setMinutesAt((m) => Math.min(GRANT_MINUTES.length - 1, m + 1));
      if (input === '-') return setMinutesAt((m) => Math.max(0, m - 1));
      const chosen = options[index];
      if (key.return && chosen) props.onConfirm(scopeWithMinutes(chosen, minutes));
    },
    { isActive: props.isActive },
  );
  if (!options.length) {
    return (
      <Box flexDirection="column" width={width}>
        <Text color={theme.warn}>No approve-all scope is offered for this call; approve it once with y.</Text>
        <Text dimColor>Esc back</Text>
      </Box>
    );
  }
  const ruleRows = Math.max(1, props.height - options.length - 3);
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text bold>Approve all calls like this one — pick a scope</Text>
      {options.map((o, i) => (
        <Box key={`${o.label}-${i}`} flexDirection="column">
          <Text wrap="truncate-end" inverse={i === index}>
            {i === index ? '› ' : '  '}
            {displayLine(o.label)}
          </Text>
          {i === index
            ? wrap(`rule ${o.ruleText}`, width - 4, ruleRows).map((line, k) => (
                <Text key={`r${k}`} dimColor>{`    ${line}`}</Text>
              ))
            : null}
        </Box>
      ))}
      <Text wrap="truncate-end">
        for <Text bold>{minutes === undefined ? 'this session' : `${minutes} minutes`}</Text>
        <Text dimColor> · ↑/↓ scope · +/- minutes · Enter grant · Esc back</Text>
      </Text>
    </Box>
  );
}
