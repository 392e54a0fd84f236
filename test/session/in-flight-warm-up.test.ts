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

function parts(order: string[], prepared: Promise<void> = Promise.resolve()) {
  const answering = new AnswerWatch();
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
  const base = createExecuteCommandTool();
  const tool = defineTool({
    ...base,
    schema: {
      ...base.schema,
      safeParse: (value: unknown) => {
        order.push('schema');
        return base.schema.safeParse(value);
      },
    } as typeof base.schema,
  });
  const model: ModelClient = {
    name: 'm',
    demo: false,
    complete: () => Promise.reject(new Error('not asked')),
    warmUp: async () => void order.push('model'),
  };
  return { answering, warm: inFlightWarmUp({ tools: [tool], guard, model, answering }) };
}

describe('inFlightWarmUp', () => {
  it('runs its steps while the request is out, once per session', async () => {
    const order: string[] = [];
    const { answering, warm } = parts(order);
    answering.requested();
    warm();
    warm();
    await vi.waitFor(() => expect(order).toContain('model'));
    expect(order).toEqual(['prepare', 'judge ls -la', 'schema', 'model']);
    answering.onEvent({ type: 'turn_done', agentId: 'main', text: '' });
    answering.requested();
    warm();
    await turns(20);
    expect(order).toEqual(['prepare', 'judge ls -la', 'schema', 'model']);
  });

  it('takes no step once the answer streams in: the answer does that work itself', async () => {
    const order: string[] = [];
    let loaded = () => {};
    const { answering, warm } = parts(order, new Promise((resolve) => (loaded = resolve)));
    answering.requested();
    warm();
    await vi.waitFor(() => expect(order).toEqual(['prepare']));
    // The answer's first byte comes while the judge's module loads.
    answering.answering();
    loaded();
    await turns(20);
    expect(order).toEqual(['prepare']);
  });

  it('takes none with no request out', async () => {
    const order: string[] = [];
    const { warm } = parts(order);
    warm();
    await turns(20);
    expect(order).toEqual([]);
  });
});
