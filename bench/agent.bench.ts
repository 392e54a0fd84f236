// Agent core figures: the size of what every request sends (system prompt + tool schemas), and
// the overhead warden adds per tool round trip (model → gate → tool → audit → model) against the
// fake OpenAI server, compared with the bare client sending the same requests with no gate or tool.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '../src/llm/openai-client';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { bareRounds, benchSession, PROMPT, toolSpecsOf } from './agent-common';
import { median, printRow } from './stats';

const ROUND_TRIPS = 40;
const RUNS = 7;

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-bench-agent-')));
const home = mkdtempSync(join(tmpdir(), 'warden-bench-home-'));
writeFileSync(join(root, 'a.txt'), 'hello\n'.repeat(50));

const readCall = { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] };
const script = () => [...Array.from({ length: ROUND_TRIPS }, () => readCall), { text: 'done' }];

const fake = await startFakeOpenAI([], { whenExhausted: { text: 'done' } });
const model = createOpenAIClient({ baseUrl: fake.url, apiKey: 'bench', model: 'bench' });

async function viaWarden(): Promise<number> {
  for (const step of script()) fake.push(step);
  const session = await benchSession({ root, home }, model, {
    maxStepsPerTurn: 100,
    contextWindowTokens: 1_000_000,
  });
  const start = performance.now();
  const result = await session.run(PROMPT);
  const ms = performance.now() - start;
  await session.close();
  if (result.status !== 'done') throw new Error(`bench turn failed: ${result.text}`);
  return ms;
}

/** The same requests (same system prompt, tools and tool results) with no gate, tool or session. */
async function bareClient(): Promise<number> {
  for (const step of script()) fake.push(step);
  const sent = wardenRequest();
  const system = String(sent?.messages[0]?.content);
  const tools = toolSpecsOf(sent);
  const result = JSON.stringify({ status: 'executed', output: readFileSync(join(root, 'a.txt'), 'utf8') });
  const start = performance.now();
  await bareRounds(model, { system, tools, result }, ROUND_TRIPS);
  return performance.now() - start;
}

const wardenRequest = () => fake.requests.find((r) => (r.body.tools ?? []).length > 0)?.body;

await viaWarden();
await bareClient();
const warden: number[] = [];
const bare: number[] = [];
for (let i = 0; i < RUNS; i++) {
  warden.push(await viaWarden());
  bare.push(await bareClient());
}
const firstWardenRequest = wardenRequest();
const systemChars = String(firstWardenRequest?.messages[0]?.content ?? '').length;
const toolChars = JSON.stringify(firstWardenRequest?.tools ?? []).length;
printRow('system prompt (chars)', String(systemChars));
printRow(
  'tool schemas (chars, JSON as sent)',
  `${toolChars} (${firstWardenRequest?.tools?.length ?? 0} tools)`,
);
printRow('system + tools (goal < 6250; peers 5.5k–77k)', String(systemChars + toolChars));
const perTripWarden = median(warden) / ROUND_TRIPS;
const perTripBare = median(bare) / ROUND_TRIPS;
printRow(`round trip via warden (median of ${RUNS}, ms)`, perTripWarden.toFixed(3));
printRow('round trip, bare client, same requests (ms)', perTripBare.toFixed(3));
printRow('warden overhead per tool round trip (ms)', (perTripWarden - perTripBare).toFixed(3));
printRow('ratio warden / bare', (perTripWarden / perTripBare).toFixed(2));
await fake.close();
rmSync(root, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
