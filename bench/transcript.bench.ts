// Costs that must stay flat as the transcript grows (issue 16), with Ink rendering to a fake
// terminal in this process (production React, as the binary bundles it):
// - terminal resize with 5,000 printed entries: the bounded reprint (the newest two screens)
//   against the whole history printed again (what a resize did before, and what Ctrl+O still does);
// - one frame of the live tail during a burst of 5,000 unfinished calls: the window of the newest
//   that fit against rendering every unfinished entry (what the tail did before).
// Medians of the same run; compare the ratios, not absolute times, on a loaded machine.
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Box, render } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { LiveTail } from '../components/transcript/LiveTail';
import { TranscriptItem } from '../components/transcript/TranscriptItem';
import { TranscriptHistory } from '../components/transcript/TranscriptHistory';
import type { TranscriptEntry } from '../src/protocol';
import { median, printRow } from './stats';

if (process.env.NODE_ENV !== 'production') {
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  process.exit(0);
}

const ENTRIES = 5_000;
const RUNS = 3;
const COLS = 120;
const ROWS = 40;

/** A terminal that records when a write carrying `text` arrives. */
class FakeTerminal extends EventEmitter {
  columns = COLS;
  rows = ROWS;
  isTTY = true;
  bytes = 0;
  private waiters: { text: string; resolve: (at: number) => void }[] = [];
  write(chunk: string): boolean {
    this.bytes += chunk.length;
    const at = performance.now();
    this.waiters = this.waiters.filter((w) => {
      if (!chunk.includes(w.text)) return true;
      w.resolve(at);
      return false;
    });
    return true;
  }
  /** When the next write carrying `text` arrives. */
  next(text: string): Promise<number> {
    return new Promise((resolve) => this.waiters.push({ text, resolve }));
  }
}

const stdin = Object.assign(new EventEmitter(), {
  isTTY: false,
  setRawMode: () => undefined,
  setEncoding: () => undefined,
  ref: () => undefined,
  unref: () => undefined,
  read: () => null,
});

function mount(node: ReactNode, term: FakeTerminal) {
  return render(node, {
    stdout: term as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    patchConsole: false,
    exitOnCtrlC: false,
  });
}

function entry(i: number, status: 'executed' | 'running'): TranscriptEntry {
  if (i % 3 === 0) return { kind: 'user', id: `u${i}`, text: `question ${i}: what does step ${i} do?` };
  if (i % 3 === 1)
    return {
      kind: 'assistant',
      id: `a${i}`,
      agentId: 'main',
      text: `Step **${i}** reads \`src/step${i}.ts\` and:\n\n- parses the input\n- writes the output`,
      streaming: false,
    };
  return {
    kind: 'tool',
    id: `t${i}`,
    agentId: 'main',
    tool: 'read_file',
    summary: `src/step${i}.ts`,
    status,
    ...(status === 'executed'
      ? { result: `export const step${i} = 1;`, output: `export const step${i} = 1;\n// line 2\n// line 3` }
      : { startedAt: Date.now() }),
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function resizeRun(): Promise<{
  full: number;
  bounded: number;
  fullBytes: number;
  boundedBytes: number;
}> {
  const history = Array.from({ length: ENTRIES }, (_, i) => entry(i, 'executed'));
  const last = 'question 4998';
  const term = new FakeTerminal();
  const props = { history, labels: new Map<string, string>(), width: COLS };
  const printed = term.next(last);
  const app = mount(h(TranscriptHistory, { ...props, reprintKey: 0 }), term);
  await printed;
  // The whole history printed again (the old resize; Ctrl+O still does this).
  const fullClear = term.next('\u001B[3J');
  const fullDone = term.next(last);
  let bytes = term.bytes;
  app.rerender(h(TranscriptHistory, { ...props, reprintKey: 1 }));
  const full = (await fullDone) - (await fullClear);
  const fullBytes = term.bytes - bytes;
  // A resize: the newest two screens (it fires once the resize settles, 250 ms later).
  const clear = term.next('\u001B[2J\u001B[H');
  const done = term.next(last);
  term.columns = COLS - 20;
  bytes = term.bytes;
  app.rerender(h(TranscriptHistory, { ...props, width: COLS - 20, reprintKey: 1 }));
  const bounded = (await done) - (await clear);
  const boundedBytes = term.bytes - bytes;
  app.unmount();
  return { full, bounded, fullBytes, boundedBytes };
}

/** The live tail as it was: every unfinished entry rendered each frame, clipped by Yoga. */
function EveryEntryTail({ live, width, rows }: { live: TranscriptEntry[]; width: number; rows: number }) {
  return h(
    Box,
    { flexDirection: 'column', height: rows, overflowY: 'hidden', justifyContent: 'flex-end' },
    h(
      Box,
      { flexDirection: 'column', flexShrink: 0 },
      live.map((e) => h(TranscriptItem, { key: e.id, entry: e, width })),
    ),
  );
}

async function burstFrames(kind: 'window' | 'every'): Promise<{ frame: number; heapMiB: number }> {
  const live = Array.from({ length: ENTRIES }, (_, i) => entry(3 * i + 2, 'running'));
  const term = new FakeTerminal();
  const view = (list: TranscriptEntry[]) =>
    kind === 'window'
      ? h(LiveTail, {
          live: list,
          subAgents: [],
          labels: new Map(),
          width: COLS,
          rows: ROWS - 4,
          agentsExpanded: false,
          showAgents: false,
        })
      : h(EveryEntryTail, { live: list, width: COLS, rows: ROWS - 4 });
  const first = term.next(`step${3 * (ENTRIES - 1) + 2}.ts`);
  const app = mount(view(live), term);
  await first;
  const times: number[] = [];
  let list = live;
  for (let run = 0; run < RUNS; run++) {
    // One event: the newest call's status changes (a new array, as each snapshot is).
    await wait(60);
    const at = list.length - 1;
    const changed = { ...(list[at] as TranscriptEntry & { kind: 'tool' }), status: 'waiting' as const };
    list = [...list.slice(0, at), changed];
    const drawn = term.next('waiting for approval');
    const start = performance.now();
    app.rerender(view(list));
    times.push((await drawn) - start);
    list = [...list.slice(0, at), { ...changed, status: 'running' as const }];
    app.rerender(view(list));
  }
  const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024;
  app.unmount();
  return { frame: median(times), heapMiB };
}

const resizes = [];
for (let i = 0; i < RUNS; i++) resizes.push(await resizeRun());
const full = median(resizes.map((r) => r.full));
const bounded = median(resizes.map((r) => r.bounded));
printRow(`resize, ${ENTRIES} entries: reprint (ms; goal ≤ 200)`, bounded.toFixed(1));
printRow('  whole history reprinted, same run (ms)', `${full.toFixed(1)} (${(full / bounded).toFixed(1)}×)`);
printRow(
  '  bytes written: bounded / whole',
  `${median(resizes.map((r) => r.boundedBytes))} / ${median(resizes.map((r) => r.fullBytes))}`,
);
const windowed = await burstFrames('window');
const every = await burstFrames('every');
printRow(`burst, ${ENTRIES} unfinished calls: one frame (ms)`, windowed.frame.toFixed(1));
printRow(
  '  every unfinished entry rendered, same run (ms)',
  `${every.frame.toFixed(1)} (${(every.frame / windowed.frame).toFixed(1)}×)`,
);
