import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export type TerminalSize = { columns: number; rows: number };

const read = (stdout: NodeJS.WriteStream): TerminalSize => ({
  // Piped or test streams may report 0/undefined; fall back to a classic 80×24.
  columns: stdout.columns || 80,
  rows: stdout.rows || 24,
});

/** The terminal's size, updated on every 'resize' of Ink's stdout. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => setSize(read(stdout));
    stdout.on('resize', onResize);
    onResize();
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
