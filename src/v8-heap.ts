/**
 * V8 heap tuning for the interactive process. The young generation stays at its first size instead of
 * doubling to 32 MiB: a TUI's garbage is short-lived frames, so the bigger nursery bought little and
 * held memory. Measured (bench/tui.bench.ts and bench/burst.bench.ts, same runs): peak RSS
 * 123 → 111 MiB for a session with two cards, 280 → 220 MiB with a 2,000-entry transcript, 450 → 390
 * MiB for a burst of 5,000 calls; CPU +3 % in the transcript run, card times unchanged within noise.
 * `node --max-semi-space-size` would do the same, but `warden` is started as `node dist/warden.js`.
 * Applied once the first screen is drawn: loading node:v8 costs ~2 ms of start-up, and the nursery
 * cannot have grown far in the few milliseconds before.
 */
export async function keepYoungGenerationSmall(): Promise<void> {
  // V8 prints an unknown flag to stderr, which would land on the person's screen: only on Node
  // versions whose V8 is known to have it (the flag dates from 2015; checked on Node 20).
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20 || major > 24) return;
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}
