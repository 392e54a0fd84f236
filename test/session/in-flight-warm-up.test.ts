// The code a first answer and its card run is warmed while the first request is in flight (issue 34):
// one step per turn of the event loop, none once the answer's first byte is handled, once a session.
import { describe, expect, it, vi } from 'vitest';
import type { ModelClient } from '../../src/llm/types';
import { failClosedCommandGuard, PARSER_LOADING } from '../../src/policy/command/command-guard';
import { AnswerWatch } from '../../src/session/answer-watch';
import { inFlightWarmUp } from '../../src/session/in-flight-warm-up';
import type { LazyCommandGuard } from '../../src/session/wiring/command-guard-loader';
import { createExecuteCommandTool } from '../../src/tools/exec/execute-command';
import { defineTool } from '../../src/tools/types';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

function watchedTool(name: string, order: string[], onParse = () => {}) {
  const base = createExecuteCommandTool();
  return defineTool({
    ...base,
    name,
    schema: {
      ...base.schema,
      safeParse: (value: unknown) => {
        order.push(`schema ${name}`);
        onParse();
        return base.schema.safeParse(value);
      },
    } as typeof base.schema,
  });
}

type Parts = { prepared?: Promise<void>; answering?: AnswerWatch; tools?: ReturnType<typeof watchedTool>[] };

function parts(order: string[], o: Parts = {}) {
  const {
    prepared = Promise.resolve(),
    answering = new AnswerWatch(),
    tools = [watchedTool('a', order)],
  } = o;
  const guard: LazyCommandGuard = {
    commands: {
      judge: (command) => {
        order.push(`judge ${command}`);
        return failClosedCommandGuard(PARSER_LOADING).judge(command);
      },
    },
    ready: async () => {},
    prepare: async () => {
      order.push('prepare');
      await prepared;
    },
  };
  const model: ModelClient = {
    name: 'm',
    demo: false,
    complete: () => Promise.reject(new Error('not asked')),
    warmUp: async () => void order.push('model'),
  };
  return { answering, warm: inFlightWarmUp({ tools, guard, model, answering }) };
}

describe('inFlightWarmUp', () => {
  it('runs its steps while the request is out, once per session', async () => {
    const order: string[] = [];
    const { answering, warm } = parts(order);
    answering.requested();
    warm();
    warm();
    await vi.waitFor(() => expect(order).toContain('model'));
    expect(order).toEqual(['prepare', 'judge ls -la', 'schema a', 'model']);
    answering.onEvent({ type: 'turn_done', agentId: 'main', text: '' });
    answering.requested();
    warm();
    await turns(20);
    expect(order).toEqual(['prepare', 'judge ls -la', 'schema a', 'model']);
  });

  it('takes no step once the answer streams in: the answer does that work itself', async () => {
    const order: string[] = [];
    let loaded = () => {};
    const { answering, warm } = parts(order, { prepared: new Promise((resolve) => (loaded = resolve)) });
    answering.requested();
    warm();
    await vi.waitFor(() => expect(order).toEqual(['prepare']));
    // The answer's first byte comes while the judge's module loads.
    answering.answering();
    loaded();
    await turns(20);
    expect(order).toEqual(['prepare']);
  });

  it('parses one schema a step, so an answer waits for one at most', async () => {
    const order: string[] = [];
    const answering = new AnswerWatch();
    const tools = [watchedTool('a', order, () => answering.answering()), watchedTool('b', order)];
    const { warm } = parts(order, { answering, tools });
    answering.requested();
    warm();
    await vi.waitFor(() => expect(order).toContain('schema a'));
    await turns(20);
    expect(order).toEqual(['prepare', 'judge ls -la', 'schema a']);
  });

  it('takes none with no request out', async () => {
    const order: string[] = [];
    const { warm } = parts(order);
    warm();
    await turns(20);
    expect(order).toEqual([]);
  });
});
