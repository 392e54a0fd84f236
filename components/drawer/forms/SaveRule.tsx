import { Box, Text } from 'ink';
import { useState } from 'react';
import type { GrantScope } from '../../../src/protocol';
import { displayLine, wrap } from '../../../src/text/wrap';
import { useTheme } from '../../look/use-theme';
import { footerLine, keyId, lookup, SAVE_RULE_KEYS } from '../../keys/keymap';
import { useKeys } from '../../keys/use-keys';
import { useDrawer } from '../drawer-context';

/**
 * The rules "don't ask again" may save for a call: each approve-all scope that is a policy rule (a
 * plan's steps are not), once — a saved rule covers every agent, so the all-agents scope stands for it.
 */
export function savableScopes(options: readonly GrantScope[]): GrantScope[] {
  const seen = new Set<string>();
  return options.filter((o) => {
    if (!o.ruleText || o.agents.kind !== 'all' || seen.has(o.ruleText)) return false;
    seen.add(o.ruleText);
    return true;
  });
}

const HINT = footerLine(Object.values(SAVE_RULE_KEYS));

/**
 * "Don't ask again" (`A`): the exact rule approve-all would grant, as the JSON that will be written,
 * and which file takes it. `p` / `u` approve this call (granting the scope for the session) and append
 * the rule; Esc goes back. `untrusted`: the project's files are not trusted, so a rule saved there
 * is held back with their other allow rules — said before the person picks.
 */
export function SaveRule(props: {
  options: GrantScope[];
  width: number;
  height: number;
  isActive: boolean;
  untrusted: boolean;
}) {
  const { width } = props;
  const options = savableScopes(props.options);
  const { dispatch, gate } = useDrawer();
  const theme = useTheme();
  const [index, setIndex] = useState(0);
  useKeys(
    (input, key) => {
      const action = lookup(SAVE_RULE_KEYS, keyId(input, key));
      if (action === 'back') return dispatch({ type: 'back' });
      if (action === 'up') return setIndex((i) => Math.max(0, i - 1));
      if (action === 'down') return setIndex((i) => Math.min(options.length - 1, i + 1));
      const chosen = options[index];
      if ((action === 'project' || action === 'user') && chosen)
        dispatch({ type: 'decide', decision: { kind: 'approve_all', scope: chosen }, save: action });
    },
    { isActive: props.isActive, gate },
  );
  if (!options.length)
    return (
      <Box flexDirection="column" width={width}>
        <Text color={theme.warn}>No rule can be saved for this call; approve it once with y.</Text>
        <Text dimColor>Esc back</Text>
      </Box>
    );
  const chosen = options[index];
  const warnRows = props.untrusted ? 2 : 0;
  const jsonRows = Math.max(1, props.height - options.length - 4 - warnRows);
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text bold>Don't ask again — approve, and save this rule to a policy file</Text>
      {options.map((o, i) => (
        <Text key={o.ruleText} wrap="truncate-end" inverse={i === index}>
          {i === index ? '› ' : '  '}
          {displayLine(o.label.replace(/, all agents$/, ''))}
        </Text>
      ))}
      {chosen
        ? wrap(chosen.ruleText, width - 4, jsonRows).map((line, k) => (
            <Text key={`j${k}`} color={theme.accent}>{`    ${line}`}</Text>
          ))
        : null}
      {props.untrusted
        ? wrap(
            "This project's .warden files are not trusted: a rule saved there is held back with them until you trust them (u counts at once).",
            width,
            2,
          ).map((line, k) => (
            <Text key={`w${k}`} color={theme.warn}>
              {line}
            </Text>
          ))
        : null}
      <Text dimColor wrap="truncate-end">
        {HINT}
      </Text>
    </Box>
  );
}
