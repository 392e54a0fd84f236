import { Text } from 'ink';
import { type ReactNode, useEffect, useState } from 'react';
import { formatDurationCompact } from '../../src/text/duration';

/** How often a running card's time moves on. */
const TICK_MS = 1000;

/** Whole seconds below a minute ("7s"), then "1m05s": a ticking clock does not need tenths. */
export function elapsedText(ms: number): string {
  return ms < 60_000 ? `${Math.max(0, Math.floor(ms / 1000))}s` : formatDurationCompact(ms);
}

/** The time since `since` (ms since the epoch), ticking each second while shown. */
export function Elapsed({ since, color }: { since: number; color?: string }): ReactNode {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return <Text color={color}> {elapsedText(now - since)}</Text>;
}
