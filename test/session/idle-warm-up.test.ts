// The core's use of the moment the person types the first prompt (issue 16): the shadow repository
// opens, a first answer's code runs once — without a connection, and never once a turn runs.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../src/llm/openai-client';
import type { ModelClient } from '../../src/llm/types';
import { startIdleWarmUp } from '../../src/session/idle-warm-up';
import { createCoreTools } from '../../src/tools';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const recordingModel = (seen: string[]): ModelClient => ({
  name: 'm',
  demo: false,
  complete: () => Promise.reject(new Error('no request in a warm-up')),
  warmUp: async () => void seen.push('model'),
});

describe('the idle warm-up', () => {
  it('opens the checkpoints first, then warms the model; every step runs once', async () => {
    const seen: string[] = [];
    await startIdleWarmUp({
      busy: () => false,
      openCheckpoints: () => seen.push('checkpoints'),
      tools: createCoreTools('/nonexistent-home'),
      model: recordingModel(seen),
    });
    expect(seen).toEqual(['checkpoints', 'model']);
  });

  it('stops as soon as a turn runs: the steps after it never start', async () => {
    const seen: string[] = [];
    let busy = false;
    await startIdleWarmUp({
      busy: () => busy,
      openCheckpoints: () => {
        seen.push('checkpoints');
        busy = true;
      },
      tools: [],
      model: recordingModel(seen),
    });
    expect(seen).toEqual(['checkpoints']);
  });

  it("the OpenAI client's warm-up opens no connection, and the first real request still works", async () => {
    fake = await startFakeOpenAI([{ toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] }]);
    const model = createOpenAIClient({ model: 'fake-model', baseUrl: fake.url, apiKey: 'k' });
    await model.warmUp?.();
    expect(fake.requests).toHaveLength(0);
    const turn = await model.complete({
      messages: [{ role: 'user', content: 'read it' }],
      tools: [],
      signal: new AbortController().signal,
    });
    expect(turn.toolCalls.map((c) => c.function.name)).toEqual(['read_file']);
    expect(fake.requests).toHaveLength(1);
  });
});
