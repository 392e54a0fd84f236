import { renderToString } from 'ink';
import type { ApprovalRequest, CoreClient, CoreState, TranscriptEntry } from '../src/protocol';
import { App } from './App';
import { buildDiffModel } from './drawer/preview/diff-rows';

/**
 * The off-screen cards, one render each (a turn of the event loop apart, so typing is not held up
 * longer than one render): a command card, then a change to a file with no grammar, which runs the
 * diff view without starting the syntax highlighter (a grammar loads only for a file that needs it).
 * Together they grow the idle heap by ~10 MiB (measured).
 */
const SAMPLES = ['command', 'diff'] as const;
type Sample = (typeof SAMPLES)[number];

/** Two places of a small file changed, as a write card shows them. */
function sampleFile(): { before: string; after: string } {
  const before = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i}; // line ${i + 1}`).join(
    '\n',
  );
  const after = before.replace('value9 = 9;', 'value9 = 90;').replace('value40 = 40;', 'value40 = 400;');
  return { before, after };
}

function samplePreview(sample: Sample, command: string): ApprovalRequest['preview'] {
  if (sample === 'diff') return { kind: 'diff', path: 'warm-up.txt', ...sampleFile(), isNew: false };
  return {
    kind: 'command',
    command,
    cwd: '.',
    timeoutMs: 120_000,
    sandboxed: true,
    parts: ['npm test -- --run src/values.test.ts', 'git status --short'],
    notes: [],
  };
}

function sampleRequest(sample: Sample): ApprovalRequest {
  const command = 'npm test -- --run src/values.test.ts && git status --short';
  return {
    id: 'warm-up',
    agentId: 'main',
    agentName: 'main',
    taskId: 'warm-up',
    tool: 'warm-up',
    args: { command },
    argsHash: 'warm-up',
    risk: { level: 'medium', reasons: [sample === 'diff' ? 'changes a file' : 'runs a command'] },
    rule: { id: 'ask-commands', source: 'builtin' },
    explanation: 'Commands ask in manual mode.',
    preview: samplePreview(sample, command),
    reversible: false,
    createdAt: new Date().toISOString(),
    grantOptions: [],
  };
}

/** One line diff of the sample file, as a write card computes it. */
function sampleDiff(): void {
  const { before, after } = sampleFile();
  buildDiffModel(before, after, false);
}

/** The state the app would show with the sample card waiting: the real one, plus that card. */
function sampleState(real: CoreState, sample: Sample): CoreState {
  const request = sampleRequest(sample);
  const card: TranscriptEntry = {
    kind: 'tool',
    id: 'warm-up-card',
    agentId: 'main',
    tool: request.tool,
    summary: sample === 'diff' ? 'warm-up.txt' : 'npm test',
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
 * Warms the first approval card of a session while the person types the first prompt:
 * once the first frame is on screen, renders the whole app off-screen (Ink's `renderToString`, at
 * the terminal's width) with each sample card waiting in turn, and computes one line diff, so V8 has
 * compiled the drawer, the command and diff previews and Ink's output paths before a real card needs them. Stops as soon as a turn runs or a card waits, and when the
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
  const step = (index: number) => {
    handle = undefined;
    const sample = SAMPLES[index];
    if (stopped || sample === undefined || occupied(client)) return;
    const stub: CoreClient = {
      subscribe: () => () => {},
      changes: () => () => {},
      send: () => {},
      snapshot: (() => {
        const state = sampleState(client.snapshot(), sample);
        return () => state;
      })(),
    };
    try {
      const frame = renderToString(<App client={stub} home="" />, { columns: columns() });
      rendered?.(frame);
      if (sample === 'command') sampleDiff();
    } catch {
      // A warm-up is an optimisation: the real card renders the same code and reports its own errors.
      return;
    }
    handle = setImmediate(() => step(index + 1));
  };
  handle = setImmediate(() => step(0));
  return () => {
    stopped = true;
    if (handle) clearImmediate(handle);
  };
}
