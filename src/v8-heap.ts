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

/**
 * Runs `compile` with V8's baseline wasm compiler only (Liftoff, no TurboFan tier-up), then restores
 * the default for every later module. For the shell grammar (tree-sitter-bash, 1.3 MB of wasm) the
 * optimising tier cost far more than it bought. Measured on Node 20, loading the grammar and parsing
 * 3,000 commands in one process: peak RSS 123–133 → 75–76 MiB, CPU 870–884 → 338–372 ms, the parses
 * 509–529 → 152–206 ms (they no longer wait behind the optimising compile). Not for every module: RE2's
 * wasm matches ~3.5× slower on Liftoff alone (bench over 1.4 MB of text: 157–219 → 615–715 ms), so
 * the flag is set only around this compile.
 */
export async function withBaselineWasm<T>(compile: () => Promise<T>): Promise<T> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20 || major > 24) return compile();
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  try {
    return await compile();
  } finally {
    setFlagsFromString('--no-liftoff-only');
  }
}
