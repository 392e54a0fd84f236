import { Text } from 'ink';
import type { ReactNode } from 'react';
import { formatDurationCompact } from '../../src/text/duration';
import { useSecondTick } from '../look/use-second-tick';

/** Whole seconds below a minute ("7s"), then "1m05s": a ticking clock does not need tenths. */
export function elapsedText(ms: number): string {
  return ms < 60_000 ? `${Math.max(0, Math.floor(ms / 1000))}s` : formatDurationCompact(ms);
}

/**
 * The time since `since` (ms since the epoch), ticking each second while shown — on the timer all
 * clocks share, so many running cards cost one frame a second, not one each.
 */
export function Elapsed({ since, color }: { since: number; color?: string }): ReactNode {
  const now = useSecondTick();
  return <Text color={color}> {elapsedText(now - since)}</Text>;
}
