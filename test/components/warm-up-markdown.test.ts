import { describe, expect, it, vi } from 'vitest';
import { scheduleMarkdownWarmUp } from '../../components/warm-up-markdown';
import type { CoreClient } from '../../src/protocol';
import * as blocks from '../../components/transcript/markdown-blocks';
import { FakeCore, makeRequest } from '../helpers/fake-core';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

function counted(state: ConstructorParameters<typeof FakeCore>[0] = {}) {
  const core = new FakeCore(state);
  const send = vi.spyOn(core, 'send');
  const subscribe = vi.spyOn(core, 'subscribe');
  return { core: core as CoreClient, send, subscribe };
}

describe('warming the markdown lexer while the first turn waits for the model (issue 16)', () => {
  it('parses its pieces, one a turn, starting a turn later, even while a turn runs, sending nothing', async () => {
    const c = counted({ busy: true });
    const parsed = vi.fn();
    const parse = vi.spyOn(blocks, 'parseMarkdown');
    scheduleMarkdownWarmUp(c.core, parsed);
    expect(parse).not.toHaveBeenCalled();
    await turns(1);
    expect(parse).toHaveBeenCalledTimes(1);
    await turns(1);
    expect(parse).toHaveBeenCalledTimes(2);
    await turns(10);
    expect(parsed).toHaveBeenCalledTimes(1);
    // Every block form the model writes was among the pieces.
    const kinds = new Set(
      parse.mock.results.flatMap((r) => (r.value as { kind: string }[]).map((b) => b.kind)),
    );
    expect(kinds.size).toBeGreaterThanOrEqual(6);
    expect(c.send).not.toHaveBeenCalled();
    expect(c.subscribe).not.toHaveBeenCalled();
    parse.mockRestore();
  });

  it('stops between pieces once an answer is on screen', async () => {
    const core = new FakeCore({});
    const parse = vi.spyOn(blocks, 'parseMarkdown');
    const parsed = vi.fn();
    scheduleMarkdownWarmUp(core as CoreClient, parsed);
    await turns(1);
    expect(parse).toHaveBeenCalledTimes(1);
    core.update({
      transcript: [{ kind: 'assistant' as const, id: 'a1', agentId: 'main', text: 'hi', streaming: false }],
    });
    await turns(10);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parsed).not.toHaveBeenCalled();
    parse.mockRestore();
  });

  it.each([
    { name: 'a card waits (it must not wait for the warm-up)', state: { pending: [makeRequest()] } },
    {
      name: 'an answer is already on screen (the lexer is warm)',
      state: {
        transcript: [{ kind: 'assistant' as const, id: 'a1', agentId: 'main', text: 'hi', streaming: false }],
      },
    },
  ])('does nothing when $name', async ({ state }) => {
    const parsed = vi.fn();
    scheduleMarkdownWarmUp(counted(state).core, parsed);
    await turns(3);
    expect(parsed).not.toHaveBeenCalled();
  });

  it('stops when told to', async () => {
    const parsed = vi.fn();
    scheduleMarkdownWarmUp(counted().core, parsed)();
    await turns(3);
    expect(parsed).not.toHaveBeenCalled();
  });
});
