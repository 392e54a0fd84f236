/**
 * `GET /models` through the official package, bounded: `/model` alone lists what the server offers.
 * Many local servers have no such route; the error says so in a sentence a person can act on.
 */
import OpenAI from 'openai';
import { nodeFetch } from './http/node-fetch';
import { DEFAULT_BASE_URL } from './openai-attempt';

/** How long the list may take: it is a convenience, never worth a long wait. */
export const LIST_MODELS_TIMEOUT_MS = 5_000;
/** More ids than this are not worth a notice (a hosted catalogue); the count says how many there were. */
const MAX_IDS = 500;

export type ListModelsOptions = {
  baseUrl: string;
  apiKey?: string;
  signal: AbortSignal;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

/**
 * The server's model ids, sorted.
 * Contract: resolves with the ids or rejects with an Error whose message names the host's answer
 * (no /models route, an HTTP status, a timeout, aborted); never waits past `timeoutMs`.
 */
export async function listModels(o: ListModelsOptions): Promise<string[]> {
  const timeoutMs = o.timeoutMs ?? LIST_MODELS_TIMEOUT_MS;
  const signal = AbortSignal.any([o.signal, AbortSignal.timeout(timeoutMs)]);
  const client = new OpenAI({
    apiKey: o.apiKey || 'not-needed',
    baseURL: o.baseUrl,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    // node:http, as the chat requests (http/node-fetch.ts); the package reads only what it names.
    fetch: o.fetch ?? (nodeFetch as unknown as typeof fetch),
    ...(o.baseUrl !== DEFAULT_BASE_URL && { organization: null, project: null }),
  });
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ signal })) {
      if (typeof model.id === 'string') ids.push(model.id);
      if (ids.length >= MAX_IDS) break;
    }
    return ids.sort();
  } catch (err) {
    if (o.signal.aborted) throw new Error('the request was cancelled');
    if (signal.aborted) throw new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`);
    const status = (err as { status?: unknown }).status;
    if (status === 404 || status === 405) throw new Error('the server has no /models route');
    if (typeof status === 'number') throw new Error(`the server answered HTTP ${status}`);
    throw new Error((err as Error).message || 'the server could not be reached');
  }
}
