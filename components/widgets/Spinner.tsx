import { Text } from 'ink';
import { type ReactNode, useEffect, useState } from 'react';

/**
 * cli-spinners' "dots" (the frames ink-spinner drew here): ink-spinner imports every spinner of
 * cli-spinners (31 kB of the first frame's code) to draw this one.
 */
export const DOTS = { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] } as const;

/** A running tool's spinner: the next "dots" frame every 80 ms, as ink-spinner drew it. */
export function Spinner(): ReactNode {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % DOTS.frames.length), DOTS.interval);
    return () => clearInterval(timer);
  }, []);
  return <Text>{DOTS.frames[frame]}</Text>;
}
