import { Box, Text } from 'ink';
import { useState } from 'react';
import type { GrantScope } from '../../../src/protocol';
import { displayLine, wrap } from '../../../src/text/wrap';
import { useTheme } from '../../look/use-theme';
import { footerLine, GRANT_KEYS, keyId, lookup } from '../../keys/keymap';
import { useKeys } from '../../keys/use-keys';
import { useDrawer } from '../drawer-context';

/** Durations offered for a grant; undefined means "for this session". */
export const GRANT_MINUTES: readonly (number | undefined)[] = [undefined, 5, 15, 60];

/** The scope with the chosen duration; no duration leaves `minutes` out. */
export function scopeWithMinutes(scope: GrantScope, minutes: number | undefined): GrantScope {
  const { minutes: _drop, ...rest } = scope;
  return minutes === undefined ? rest : { ...rest, minutes };
}

/** Which agents a grant covers, as the rule preview says it. */
export function agentsCovered(agents: GrantScope['agents']): string {
  return agents.kind === 'all' ? 'all agents' : `this agent only (${agents.agentName})`;
}

/** The chooser's keys line, from the keymap. */
const HINT = footerLine(Object.values(GRANT_KEYS));

/**
 * Approve-all: the scopes the gate offers for this call, each with its label and the exact rule it
 * amounts to. Keys from GRANT_KEYS: ↑/↓ picks, +/- sets minutes, Enter grants, Esc goes back.
 * (Not ink-select-input: its handler reads the last render's row, so ↓ then Enter in one read would
 * grant the row above, and it cannot ask the drawer's grace gate.)
 */
export function GrantChooser(props: {
  options: GrantScope[];
  width: number;
  height: number;
  isActive: boolean;
}) {
  const { options, width } = props;
  const { dispatch, gate } = useDrawer();
  const theme = useTheme();
  const [index, setIndex] = useState(0);
  const [minutesAt, setMinutesAt] = useState(() => Math.max(0, GRANT_MINUTES.indexOf(options[0]?.minutes)));
  const minutes = GRANT_MINUTES[minutesAt];
  useKeys(
    (input, key) => {
      const action = lookup(GRANT_KEYS, keyId(input, key));
      if (action === 'back') return dispatch({ type: 'back' });
      if (action === 'up') return setIndex((i) => Math.max(0, i - 1));
      if (action === 'down') return setIndex((i) => Math.min(options.length - 1, i + 1));
      if (action === 'more') return setMinutesAt((m) => Math.min(GRANT_MINUTES.length - 1, m + 1));
      if (action === 'less') return setMinutesAt((m) => Math.max(0, m - 1));
      const chosen = options[index];
      if (action === 'grant' && chosen)
        dispatch({
          type: 'decide',
          decision: { kind: 'approve_all', scope: scopeWithMinutes(chosen, minutes) },
        });
    },
    { isActive: props.isActive, gate },
  );
  if (!options.length) {
    return (
      <Box flexDirection="column" width={width}>
        <Text color={theme.warn}>No approve-all scope is offered for this call; approve it once with y.</Text>
        <Text dimColor>Esc back</Text>
      </Box>
    );
  }
  const ruleRows = Math.max(1, props.height - options.length - 4);
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text bold>Approve all calls like this one — pick a scope</Text>
      {options.map((o, i) => (
        <Box key={`${o.label}-${i}`} flexDirection="column">
          <Text wrap="truncate-end" inverse={i === index}>
            {i === index ? '› ' : '  '}
            {displayLine(o.label)}
          </Text>
          {i === index ? (
            <Text dimColor wrap="truncate-end">{`    covers ${agentsCovered(o.agents)}`}</Text>
          ) : null}
          {i === index
            ? wrap(`rule ${o.ruleText}`, width - 4, ruleRows).map((line, k) => (
                <Text key={`r${k}`} dimColor>{`    ${line}`}</Text>
              ))
            : null}
        </Box>
      ))}
      <Text wrap="truncate-end">
        for <Text bold>{minutes === undefined ? 'this session' : `${minutes} minutes`}</Text>
        <Text dimColor> · {HINT}</Text>
      </Text>
    </Box>
  );
}
