// A long session: 1000 tool round trips in one session through warden, against the bare client
// sending the same growing history. Prints the CPU time per call near call 1, 100 and 1000, so a cost
// that grows with the history beyond the bytes every client must send shows up as a rising ratio.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../src/llm/openai-client';
import type { ToolSpec } from '../src/llm/types';
import { type FakeReply, type FakeRequestBody, startFakeOpenAI } from '../test/helpers/fake-openai';
import { bareRounds, benchSession, PROMPT, toolSpecsOf } from './agent-common';
import { median, printRow } from './stats';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const MARKS = [1, 100, 1000].filter((n) => n <= CALLS);
const WINDOW = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-bench-long-')));
const home = mkdtempSync(join(tmpdir(), 'warden-bench-long-home-'));
writeFileSync(join(root, 'a.txt'), 'hello\n'.repeat(50));

// A fixed usage: the fake server would otherwise re-serialise the whole history to estimate it.
const usage = { prompt_tokens: 1, completion_tokens: 1 };
const fake = await startFakeOpenAI([], { whenExhausted: { text: 'done', usage } });
const model = createOpenAIClient({ baseUrl: fake.url, apiKey: 'bench', model: 'bench' });
let lastBody: FakeRequestBody | undefined;

/**
 * Pushes CALLS tool calls and a final answer; returns, for each request, the CPU time this process
 * had used when it arrived. CPU time, not wall time: the figure is the work done per call (client,
 * warden and the in-process fake server together), and it holds still on a machine busy with other work.
 * The fake server's record of requests is emptied as they come (a 1000-call session's bodies add up
 * to gigabytes, and collecting them would be most of what is measured); only the last body is kept.
 */
function script(): number[] {
  const stamps: number[] = [];
  for (let i = 0; i <= CALLS; i++) {
    fake.push((): FakeReply => {
      const { user, system } = process.cpuUsage();
      stamps.push((user + system) / 1000);
      lastBody = fake.requests.at(-1)?.body;
      fake.requests.length = 0;
      return i < CALLS
        ? { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' }, id: `call_${i}` }], usage }
        : { text: 'done', usage };
    });
  }
  return stamps;
}

/** Per-call durations: the time from request i to request i+1 (model turn, gate, tool, audit). */
const perCall = (stamps: number[]): number[] => stamps.slice(1).map((t, i) => t - (stamps[i] as number));

/** The median per-call time over WINDOW calls ending at call `n` (1-based), or starting at call 1. */
const around = (calls: number[], n: number): number => {
  const start = Math.max(0, n - WINDOW);
  return median(calls.slice(start, start + WINDOW));
};

type WardenRun = { calls: number[]; tools: ToolSpec[]; system: string; result: string };

async function viaWarden(): Promise<WardenRun> {
  const stamps = script();
  const session = await benchSession({ root, home }, model, {
    maxStepsPerTurn: CALLS + 5,
    contextWindowTokens: 100_000_000,
  });
  const result = await session.run(PROMPT);
  await session.close();
  if (result.status !== 'done') throw new Error(`bench turn failed: ${result.text}`);
  const sent = lastBody;
  const tools = toolSpecsOf(sent);
  const system = String(sent?.messages[0]?.content ?? '');
  const lastTool = sent?.messages.filter((m) => m.role === 'tool').at(-1);
  return { calls: perCall(stamps), tools, system, result: lastTool?.role === 'tool' ? lastTool.content : '' };
}

/** The same requests with no session, gate, tool or audit: the floor any client pays. */
async function bareClient({ tools, system, result }: WardenRun): Promise<number[]> {
  const stamps = script();
  await bareRounds(model, { tools, system, result }, CALLS);
  lastBodyKb = JSON.stringify(lastBody ?? {}).length / 1024;
  return perCall(stamps);
}

let lastBodyKb = 0;

// One short warm-up of each path, so call 1 measures warden and not the JIT.
const warm = await viaWarden();
await bareClient(warm);
const wardenRuns: number[][] = [];
const bareRuns: number[][] = [];
for (let run = 0; run < RUNS; run++) {
  const w = await viaWarden();
  wardenRuns.push(w.calls);
  bareRuns.push(await bareClient(w));
}
printRow('calls in one session', `${CALLS} (median of ${RUNS} sessions, ${WINDOW}-call windows)`);
for (const n of MARKS) {
  const w = median(wardenRuns.map((calls) => around(calls, n)));
  const b = median(bareRuns.map((calls) => around(calls, n)));
  printRow(
    `CPU per call near call ${n}: warden / bare (ms)`,
    `${w.toFixed(2)} / ${b.toFixed(2)}  (ratio ${(w / b).toFixed(2)})`,
  );
}
printRow('last request body (KB)', lastBodyKb.toFixed(0));
await fake.close();
rmSync(root, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
