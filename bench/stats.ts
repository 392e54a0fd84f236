/** Shared helpers for benchmarks: timing and percentiles. Benchmarks print; they never assert. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Runs `fn` `runs` times and returns each duration in milliseconds. */
export async function timeRuns(runs: number, fn: () => unknown | Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

export function printRow(label: string, value: string): void {
  console.log(`${label.padEnd(48)} ${value}`);
}
