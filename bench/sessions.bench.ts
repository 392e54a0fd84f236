// Resuming a saved session (issue 15 §1): a 1,000-event session written by the real recorder, then
// read back the way `--continue` does (read, check every line, fold the history, replay the
// transcript) against the floor of reading the file raw (readFileSync + JSON.parse of each line).
// Also what recording costs a turn: the recorder's time per event.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession, replayTranscript } from '../src/session/saved/session-resume';
import { SessionState, initialCoreState } from '../src/session/session-state';
import { createSessionRecorder } from '../src/session/saved/store';
import { sessionFile } from '../src/session/saved/store-index';
import type { ChatMessage } from '../src/llm/types';
import { median, printRow, timeRuns } from './stats';

const EVENTS = 1000;
const ROUNDS = 30;
const home = mkdtempSync(join(tmpdir(), 'warden-bench-sessions-'));
const root = '/bench/project';
const id = 'bench-session';

// 1,000 events: prompts, tool calls with results, answers, and the history that goes with them.
const recorder = createSessionRecorder({
  home,
  sessionId: id,
  root,
  model: 'm',
  mode: () => 'manual',
  onError: (e) => {
    throw e;
  },
});
const history: ChatMessage[] = [{ role: 'system', content: 'sys' }];
let events = 0;
const t0 = process.hrtime.bigint();
for (let turn = 0; events < EVENTS; turn++) {
  recorder.journal.prompt(`turn ${turn}: fix the tests in src/module-${turn}.ts`);
  history.push({ role: 'user', content: `turn ${turn}: fix the tests in src/module-${turn}.ts` });
  recorder.journal.sync(history);
  events += 2;
  for (let c = 0; c < 3; c++) {
    const callId = `call-${turn}-${c}`;
    const args = { path: `src/module-${turn}.ts`, content: 'x'.repeat(400) };
    recorder.journal.asked(null, [
      { id: callId, type: 'function', function: { name: 'write_file', arguments: JSON.stringify(args) } },
    ]);
    recorder.onEvent({
      type: 'tool_started',
      agentId: 'main',
      callId,
      tool: 'write_file',
      args,
      summary: args.path,
    });
    const result = { status: 'executed' as const, output: `Updated ${args.path}: +3 -1 lines.` };
    recorder.onEvent({ type: 'tool_finished', agentId: 'main', callId, tool: 'write_file', result });
    history.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: callId, type: 'function', function: { name: 'write_file', arguments: JSON.stringify(args) } },
        ],
      },
      { role: 'tool', tool_call_id: callId, content: JSON.stringify(result) },
    );
    recorder.journal.sync(history);
    events += 4;
  }
  recorder.onEvent({ type: 'message_done', agentId: 'main', text: `Turn ${turn} done: the tests pass now.` });
  history.push({ role: 'assistant', content: `Turn ${turn} done: the tests pass now.` });
  recorder.journal.sync(history);
  recorder.onEvent({ type: 'turn_done', agentId: 'main', text: 'done' });
  events += 3;
}
const recordNs = Number(process.hrtime.bigint() - t0);
await recorder.close();
const path = sessionFile(home, id);
const bytes = readFileSync(path).length;

const raw = await timeRuns(ROUNDS, () => {
  for (const line of readFileSync(path, 'utf8').split('\n')) if (line) JSON.parse(line);
});
const resume = await timeRuns(ROUNDS, () => {
  const loaded = loadSession(home, id, root);
  const view = new SessionState(
    initialCoreState({
      sessionId: id,
      root,
      model: { name: 'm', demo: false },
      mode: 'manual',
      sandboxed: true,
    }),
  );
  replayTranscript(view, loaded.restored.replay);
});
rmSync(home, { recursive: true, force: true });

printRow('session file', `${events} events, ${(bytes / 1024).toFixed(0)} KiB`);
printRow('record (per event, in the turn)', `${(recordNs / events / 1000).toFixed(1)} µs`);
printRow('read raw (readFileSync + JSON.parse)', `${median(raw).toFixed(2)} ms`);
printRow('resume (read, check, fold, replay)', `${median(resume).toFixed(2)} ms`);
printRow('resume / raw', `${(median(resume) / median(raw)).toFixed(2)}×`);
