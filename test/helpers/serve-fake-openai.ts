import { afterEach } from 'vitest';
import { type FakeOpenAI, type FakeOpenAIOptions, type FakeStep, startFakeOpenAI } from './fake-openai';

/**
 * For a test file: returns `serve(script)`, which starts the fake OpenAI server; whatever it started
 * is closed after each test. (Kept apart from fake-openai.ts, which benchmarks import without vitest.)
 */
export function serveFakeOpenAI(): (script: FakeStep[], options?: FakeOpenAIOptions) => Promise<FakeOpenAI> {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return async (script, options) => {
    fake = await startFakeOpenAI(script, options);
    return fake;
  };
}
