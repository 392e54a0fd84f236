import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import type { CoreState } from '../../src/protocol';
import { compactNumber, shortenPath } from '../look/format';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../look/use-theme';

type Props = {
  model: CoreState['model'];
  mode: CoreState['mode'];
  /** 'checking' while the sandbox probe has not answered (the app's first moments). */
  sandboxed: boolean | 'checking';
  pendingCount: number;
  usage: CoreState['usage'];
  root: string;
  mcp: CoreState['mcp'];
  busy: boolean;
  width: number;
  home?: string;
  /** Approve-all grants in force: calls they cover run without asking, so the bar keeps them in view. */
  grantCount?: number;
  /** A running turn whose every active agent is paused: the pause says so, not "working". */
  held?: boolean;
  /** What is paused: the bar says so until it is resumed. */
  paused?: CoreState['paused'];
  /** The conversation's share of the model's context window. */
  context?: CoreState['context'];
};

const Sep = () => <Text dimColor> │ </Text>;

/** "ctx 42%": the share of the model's window the conversation fills; from 80 % in the warning colour. */
export function contextShare(use: NonNullable<CoreState['context']>): number {
  return use.window > 0 ? Math.min(999, Math.round((use.used / use.window) * 100)) : 0;
}

const ContextFigure = ({ use, warn }: { use: NonNullable<CoreState['context']>; warn?: string }) => {
  const share = contextShare(use);
  return share >= 80 ? (
    <Text bold color={warn}>
      {' '}
      · ctx {share}% (/compact)
    </Text>
  ) : (
    <Text> · ctx {share}%</Text>
  );
};

/**
 * One line at the bottom: what is running, under which rules, and what needs attention. Items
 * are ordered by importance, so when the line is cut at the terminal's width the root goes first.
 */
export const StatusBar = memo(function StatusBar(props: Props): ReactNode {
  const { model, mode, sandboxed, pendingCount, usage, root, mcp, busy, width, home, grantCount = 0 } = props;
  const paused = props.paused;
  const theme = useTheme();
  const failing = mcp.filter((s) => s.status === 'failed').map((s) => s.name);
  const tokens = usage.promptTokens + usage.completionTokens;
  return (
    <Box width={width} height={1} overflow="hidden">
      <Text wrap="truncate-end">
        {model.demo ? (
          <Text bold inverse color={theme.warn}>
            {width >= 100 ? '[DEMO · scripted model, no API key]' : '[DEMO · no API key]'}
          </Text>
        ) : (
          <Text bold>{truncateChars(model.name, 28)}</Text>
        )}
        <Sep />
        <Text>mode </Text>
        <Text bold color={mode === 'auto' ? theme.warn : theme.accent}>
          {mode}
        </Text>
        {grantCount > 0 ? (
          <>
            <Sep />
            <Text color={theme.warn}>
              ✓ {grantCount} grant{grantCount === 1 ? '' : 's'}
            </Text>
          </>
        ) : null}
        <Sep />
        {sandboxed === 'checking' ? (
          <Text dimColor>sandbox …</Text>
        ) : sandboxed ? (
          <Text>sandbox on</Text>
        ) : (
          <Text bold color={theme.warn}>
            ⚠ sandbox off
          </Text>
        )}
        {paused ? (
          <>
            <Sep />
            <Text bold inverse color={theme.warn}>
              ⏸ paused: {paused.all ? 'all agents' : paused.agents.join(', ')} (Ctrl+P resumes
              {busy && props.held ? ' · Esc cancels' : ''})
            </Text>
          </>
        ) : null}
        {pendingCount > 0 ? (
          <>
            <Sep />
            <Text bold color={theme.warn}>
              ● {pendingCount} pending
            </Text>
          </>
        ) : null}
        {failing.length > 0 ? (
          <>
            <Sep />
            <Text color={theme.error}>✗ mcp: {failing.join(', ')}</Text>
          </>
        ) : null}
        <Sep />
        <Text>{compactNumber(tokens)} tok</Text>
        {props.context ? <ContextFigure use={props.context} warn={theme.warn} /> : null}
        {busy && !props.held ? (
          <>
            <Sep />
            <Text color={theme.info}>working (Esc cancels)</Text>
          </>
        ) : null}
        <Sep />
        <Text dimColor>{shortenPath(root, home, Math.max(12, Math.floor(width / 4)))}</Text>
      </Text>
    </Box>
  );
});
