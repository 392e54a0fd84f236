import { afterEach, beforeAll, expect } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from '../../src/llm/openai-client';
import { ModelError, type ModelRequest } from '../../src/llm/types';
import { answer, type FaultServer, type FaultStep, fault, startFaultServer } from './fault-openai';

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

/**
 * A fault server per test (fault-openai.ts), closed after each, with the transport loaded once first:
 * the first request of a process loads it, and the short idle settings of fault tests must not count that.
 * Call at a test file's top level; `serve(...steps)` starts the test's server.
 */
export function useFaultServer(): { serve: (...steps: FaultStep[]) => Promise<FaultServer> } {
  let server: FaultServer | undefined;
  beforeAll(async () => {
    const warm = await startFaultServer([fault.send(answer('warm'))]);
    await clientFor(warm.url).complete(request());
    await warm.close();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    serve: async (...steps) => {
      server = await startFaultServer(steps);
      return server;
    },
  };
}
