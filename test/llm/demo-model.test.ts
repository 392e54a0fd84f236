import { describe, expect, it, vi } from 'vitest';
import { createDemoModel } from '../../src/llm/demo-model';
import type { ChatMessage, ModelClient, ToolCallRequest, ToolSpec } from '../../src/llm/types';

const TOOL_NAMES = [
  'read_file',
  'write_file',
  'edit_file',
  'list_dir',
  'grep_code',
  'execute_command',
  'spawn_agents',
  'propose_plan',
  'update_plan',
  'ask_user',
];
const spec = (name: string): ToolSpec => ({ name, description: name, parameters: { type: 'object' } });
const mainTools = TOOL_NAMES.map(spec);
const subTools = TOOL_NAMES.filter((n) => n !== 'spawn_agents').map(spec);

type Played = {
  agent: string;
  text: string;
  pieces: string[];
  calls: { name: string; args: Record<string, unknown>; id: string }[];
};

/** A minimal agent runtime: plays a conversation to its end, running sub-agents for spawn_agents. */
async function play(
  model: ModelClient,
  prompt: string,
  tools: ToolSpec[],
  agent: string,
  log: Played[],
): Promise<ChatMessage[]> {
  const history: ChatMessage[] = [
    { role: 'system', content: `You are ${agent}.` },
    { role: 'user', content: prompt },
  ];
  for (let step = 0; step < 20; step += 1) {
    const pieces: string[] = [];
    const turn = await model.complete({
      messages: history,
      tools,
      signal: new AbortController().signal,
      onText: (d) => pieces.push(d),
    });
    const calls = turn.toolCalls.map((c: ToolCallRequest) => ({
      name: c.function.name,
      args: JSON.parse(c.function.arguments),
      id: c.id,
    }));
    log.push({ agent, text: turn.text, pieces, calls });
    history.push({
      role: 'assistant',
      content: turn.text,
      ...(turn.toolCalls.length > 0 && { tool_calls: turn.toolCalls }),
    });
    if (calls.length === 0) return history;
    for (const call of calls) {
      let content = '{"status":"executed"}';
      if (call.name === 'spawn_agents') {
        const agents = call.args.agents as { name: string; task: string }[];
        const runs = await Promise.all(agents.map((a) => play(model, a.task, subTools, a.name, log)));
        const reports = runs.map((h, i) => ({
          name: agents[i]?.name,
          status: 'done',
          report: h.at(-1)?.content,
        }));
        content = JSON.stringify({ status: 'executed', output: JSON.stringify(reports), data: reports });
      }
      history.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  throw new Error(`${agent} never finished`);
}

const namesOf = (log: Played[], agent: string) =>
  log.filter((p) => p.agent === agent).map((p) => p.calls.map((c) => c.name));

describe('createDemoModel', () => {
  it('plays the main script, whatever the prompt, and each sub-agent its own', async () => {
    const model = createDemoModel({ tickMs: 0 });
    expect(model).toMatchObject({ name: 'demo', demo: true });
    const log: Played[] = [];
    await play(model, 'please fix the flaky test in foo.ts', mainTools, 'main', log);

    expect(namesOf(log, 'main')).toEqual([
      ['list_dir', 'read_file'],
      ['propose_plan'],
      ['update_plan', 'spawn_agents'],
      ['update_plan', 'update_plan', 'update_plan'],
      [],
    ]);
    expect(namesOf(log, 'writer')).toEqual([['write_file'], ['execute_command'], ['write_file'], []]);
    expect(namesOf(log, 'tester')).toEqual([
      ['write_file', 'execute_command'],
      ['edit_file'],
      ['read_file'],
      ['read_file'],
      ['read_file'],
      [],
    ]);

    const main = log.filter((p) => p.agent === 'main');
    expect(main[0]?.text.startsWith('[demo] ')).toBe(true);
    expect(main[0]?.calls[1]?.args).toEqual({ path: 'src/greet.js' });
    expect((main[1]?.calls[0]?.args.steps as string[]).length).toBeGreaterThanOrEqual(3);
    expect([...(main[2]?.calls.slice(0, 1) ?? []), ...(main[3]?.calls ?? [])].map((c) => c.args)).toEqual(
      [1, 2, 3, 4].map((step) => ({ step, done: true })),
    );

    const writer = log.filter((p) => p.agent === 'writer');
    expect(writer[0]?.calls[0]?.args.path).toBe('src/farewell.js');
    expect(writer[1]?.calls[0]?.args.command).toBe(
      `node -e "import('./src/farewell.js').then(m => console.log(m.farewell('demo')))"`,
    );
    expect(writer[2]?.calls[0]?.args.path).toBe('../outside-the-project.txt');
    expect(writer[3]?.text).toMatch(/^\[demo\] writer: done\./);
    const tester = log.filter((p) => p.agent === 'tester');
    expect(tester[0]?.calls.map((c) => c.args.path ?? c.args.command)).toEqual([
      'test/farewell.test.js',
      'npm test',
    ]);

    for (const p of log) {
      expect(p.text.startsWith('[demo]')).toBe(true);
      expect(p.pieces.join('')).toBe(p.text);
      expect(p.pieces.length).toBeGreaterThan(3);
    }
    const ids = log.flatMap((p) => p.calls.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers a short final text once a conversation has run out of script', async () => {
    const model = createDemoModel({ tickMs: 0 });
    const log: Played[] = [];
    const history = await play(model, 'hello', mainTools, 'main', log);
    const again = await model.complete({
      messages: [...history, { role: 'user', content: 'and now?' }],
      tools: mainTools,
      signal: new AbortController().signal,
    });
    expect(again.toolCalls).toEqual([]);
    expect(again.finishReason).toBe('stop');
    expect(again.text).toMatch(/^\[demo\] .*OPENAI_API_KEY/);
  });

  it('stops instead of calling a tool the conversation does not offer', async () => {
    const model = createDemoModel({ tickMs: 0 });
    const turn = await model.complete({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [spec('read_file')],
      signal: new AbortController().signal,
    });
    expect(turn.toolCalls).toEqual([]);
    expect(turn.text).toContain('list_dir');
  });

  it('rejects promptly with code aborted, before or during streaming', async () => {
    const model = createDemoModel({ tickMs: 200 });
    const before = new AbortController();
    before.abort();
    await expect(
      model.complete({ messages: [], tools: mainTools, signal: before.signal }),
    ).rejects.toMatchObject({ code: 'aborted' });

    const during = new AbortController();
    const pieces: string[] = [];
    const pending = model.complete({
      messages: [{ role: 'user', content: 'hi' }],
      tools: mainTools,
      signal: during.signal,
      onText: (d) => pieces.push(d),
    });
    const settled = pending.catch((e: unknown) => e);
    await vi.waitFor(() => expect(pieces.length).toBeGreaterThan(0));
    const abortedAt = performance.now();
    during.abort();
    expect(await settled).toMatchObject({ name: 'ModelError', code: 'aborted' });
    expect(performance.now() - abortedAt).toBeLessThan(150);
  });
});
