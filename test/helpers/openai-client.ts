import { expect } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from '../../src/llm/openai-client';
import { ModelError, type ModelRequest } from '../../src/llm/types';

/** A client for a local fake server; retries wait milliseconds, so failure tests stay fast. */
export const clientFor = (url: string, extra: Partial<OpenAIClientOptions> = {}) =>
  createOpenAIClient({
    baseUrl: url,
    model: 'fake-model',
    retry: { baseDelayMs: 1, maxDelayMs: 4 },
    ...extra,
  });

/** A one-message request offering one tool, with a signal nobody aborts. */
export const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: 'Hello' }],
  tools: [{ name: 'read_file', description: 'Read', parameters: { type: 'object' } }],
  signal: new AbortController().signal,
  ...extra,
});

/** The ModelError `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelError);
  return err as ModelError;
}
