// Sanitiser throughput: clean text (the common case, one scan), text full of sequences, and the
// UI's per-snapshot cost — a long transcript through safeClient, with and without one change.
import type { CoreClient, CoreState, TranscriptEntry } from '../src/protocol';
import { initialCoreState } from '../src/session/session-state';
import { safeClient } from '../src/text/safe-client';
import { sanitizeText } from '../src/text/sanitize';
import { median, printRow } from './stats';

const ROUNDS = 7;
const MB = 1024 * 1024;

const clean = 'const answer = compute(42); // ordinary model output, code and prose\n'
  .repeat(Math.ceil(MB / 70))
  .slice(0, MB);
const dirty = 'line \u001b[31mred\u001b[0m \u001b]0;title\u0007 \u202e bidi \u001b[2J\n'
  .repeat(Math.ceil(MB / 48))
  .slice(0, MB);

function mbPerSecond(text: string, mode: 'display' | 'exact'): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    sanitizeText(text, mode);
    times.push(performance.now() - start);
  }
  return text.length / MB / (median(times) / 1000);
}

function transcript(count: number): TranscriptEntry[] {
  return Array.from(
    { length: count },
    (_, i): TranscriptEntry =>
      i % 3 === 2
        ? {
            kind: 'tool',
            id: `t${i}`,
            agentId: 'main',
            tool: 'execute_command',
            summary: `npm test ${i}`,
            status: 'executed',
            result: 'ok\n'.repeat(100),
          }
        : {
            kind: 'assistant',
            id: `a${i}`,
            agentId: 'main',
            text: `answer ${i} `.repeat(200),
            streaming: false,
          },
  );
}

function snapshotMs(entries: number, changeEach: boolean): number {
  let state: CoreState = {
    ...initialCoreState({
      sessionId: 's',
      root: '/p',
      model: { name: 'm', demo: false },
      mode: 'manual',
      sandboxed: true,
    }),
    transcript: transcript(entries),
  };
  const core: CoreClient = {
    subscribe: () => () => {},
    changes: () => () => {},
    send: () => {},
    snapshot: () => state,
  };
  const client = safeClient(core);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS * 3; i++) {
    if (changeEach)
      state = {
        ...state,
        transcript: [
          ...state.transcript.slice(0, -1),
          { kind: 'assistant', id: 'live', agentId: 'main', text: `streaming ${i}`, streaming: true },
        ],
      };
    const start = performance.now();
    client.snapshot();
    times.push(performance.now() - start);
  }
  return median(times);
}

printRow('sanitizeText, clean text (display)', `${mbPerSecond(clean, 'display').toFixed(0)} MB/s`);
printRow(
  'sanitizeText, text full of sequences (display)',
  `${mbPerSecond(dirty, 'display').toFixed(0)} MB/s`,
);
printRow('sanitizeText, text full of sequences (exact)', `${mbPerSecond(dirty, 'exact').toFixed(0)} MB/s`);
const chars = transcript(1000).reduce(
  (n, e) => n + ('text' in e ? e.text.length : e.kind === 'tool' ? (e.result?.length ?? 0) : 0),
  0,
);
printRow(
  `safeClient snapshot, 1000 entries (${(chars / MB).toFixed(1)} MB), changed`,
  `${snapshotMs(1000, true).toFixed(2)} ms`,
);
printRow('safeClient snapshot, same snapshot again', `${snapshotMs(1000, false).toFixed(3)} ms`);
