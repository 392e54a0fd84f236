import { renderToString } from 'ink';
import type { ApprovalRequest, CoreClient, CoreState, TranscriptEntry } from '../src/protocol';
import { App } from './App';
import { buildDiffModel } from './drawer/preview/diff-rows';

/** Off-screen renders: each compiles what the first card runs, and grows the idle heap by ~10 MiB (measured). */
const RENDERS = 1;

/**
 * A command card: it draws the drawer, details, queue and footer through Ink's output pipeline as
 * a write card does, without starting the syntax highlighter (a diff card would load every grammar
 * — tens of MiB — for a session that may never show a diff).
 */
function sampleRequest(): ApprovalRequest {
  const command = 'npm test -- --run src/values.test.ts && git status --short';
  return {
    id: 'warm-up',
    agentId: 'main',
    agentName: 'main',
    taskId: 'warm-up',
    tool: 'warm-up',
    args: { command },
    argsHash: 'warm-up',
    risk: { level: 'medium', reasons: ['runs a command'] },
    rule: { id: 'ask-commands', source: 'builtin' },
    explanation: 'Commands ask in manual mode.',
    preview: {
      kind: 'command',
      command,
      cwd: '.',
      timeoutMs: 120_000,
      sandboxed: true,
      parts: ['npm test -- --run src/values.test.ts', 'git status --short'],
      notes: [],
    },
    reversible: false,
    createdAt: new Date().toISOString(),
    grantOptions: [],
  };
}

/** One line diff of a small file changed in two places, as a write card computes it. */
function sampleDiff(): void {
  const before = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i}; // line ${i + 1}`).join(
    '\n',
  );
  const after = before.replace('value9 = 9;', 'value9 = 90;').replace('value40 = 40;', 'value40 = 400;');
  buildDiffModel(before, after, false);
}

/** The state the app would show with the sample card waiting: the real one, plus that card. */
function sampleState(real: CoreState): CoreState {
  const request = sampleRequest();
  const card: TranscriptEntry = {
    kind: 'tool',
    id: 'warm-up-card',
    agentId: 'main',
    tool: request.tool,
    summary: 'npm test',
    status: 'waiting',
    startedAt: Date.now(),
  };
  return { ...real, busy: true, pending: [request], transcript: [...real.transcript, card] };
}

/**
 * Too late to warm: the person sent a prompt (a turn is starting, or ran), or a card waits — the
 * real card must never wait for an off-screen one.
 */
const occupied = (client: CoreClient): boolean => {
  const state = client.snapshot();
  return state.busy || state.pending.length > 0 || state.transcript.some((e) => e.kind === 'user');
};

/**
 * Warms the first approval card of a session while the person types the first prompt (issue 16):
 * once the first frame is on screen, renders the whole app off-screen (Ink's `renderToString`, at
 * the terminal's width) with a sample card waiting, and computes one line diff, so V8 has compiled the drawer, diff and Ink's output paths
 * before a real card needs them. Stops as soon as a turn runs or a card waits, and when the
 * returned function is called.
 * Contract: never throws, never sends a command, never writes to the terminal.
 */
export function scheduleWarmUp(
  client: CoreClient,
  columns: () => number,
  /** Hears each off-screen frame (tests). */
  rendered?: (frame: string) => void,
): () => void {
  let stopped = false;
  let handle: NodeJS.Immediate | undefined;
  const step = (left: number) => {
    handle = undefined;
    if (stopped || left === 0 || occupied(client)) return;
    const stub: CoreClient = {
      subscribe: () => () => {},
      send: () => {},
      snapshot: (() => {
        const state = sampleState(client.snapshot());
        return () => state;
      })(),
    };
    try {
      const frame = renderToString(<App client={stub} home="" />, { columns: columns() });
      rendered?.(frame);
      sampleDiff();
    } catch {
      // A warm-up is an optimisation: the real card renders the same code and reports its own errors.
      return;
    }
    handle = setImmediate(() => step(left - 1));
  };
  handle = setImmediate(() => step(RENDERS));
  return () => {
    stopped = true;
    if (handle) clearImmediate(handle);
  };
}
