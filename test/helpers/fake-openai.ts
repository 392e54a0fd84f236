/**
 * A fake OpenAI-compatible server for tests: `node:http` on 127.0.0.1, port 0.
 * (Longer than the usual 200 lines on purpose: every end-to-end test leans on this one helper, and
 * its reply shapes are easier to trust when the whole wire format is readable in one place.)
 *
 * ```ts
 * const fake = await startFakeOpenAI([
 *   { text: 'Reading.', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
 *   (req) => ({ text: `saw: ${lastToolMessage(req)?.content}` }),   // answer from what the model got
 * ]);
 * // point the client (or the warden binary: OPENAI_BASE_URL=fake.url) at it, then
 * expect(fake.requests[1]?.body.messages.at(-1)?.role).toBe('tool');
 * await fake.close();
 * ```
 *
 * Each chat-completions request takes the next step of the script (a reply, or a function of the
 * recorded request that returns one). Streaming replies are real `chat.completion.chunk` SSE:
 * a role chunk, the text in `chunkSize` pieces, each tool call as a header chunk (index, id, type,
 * name) followed by its argument JSON in `chunkSize` pieces (so it splits mid-string), a finish
 * chunk, a usage chunk when the request asked for `stream_options.include_usage`, then
 * `data: [DONE]`. `stream: false` gets one `chat.completion` object. When the script runs out the
 * server answers 500 "script has no reply left" (or `whenExhausted`), so a test never hangs on it.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '../../src/llm/types';

export type FakeToolCall = {
  name: string;
  /** An object is sent as its JSON; a string is sent verbatim (e.g. deliberately broken JSON). */
  args: Record<string, unknown> | string;
  id?: string;
};

export type FakeUsage = { prompt_tokens: number; completion_tokens: number; total_tokens?: number };

/** Quirks of real servers, to prove the client copes with them. */
export type FakeWireStyle = {
  /** Drop `index` from tool-call deltas. */
  omitIndex?: boolean;
  /** Give every tool call index 0 (parallel calls told apart only by id). */
  indexAllZero?: boolean;
  omitType?: boolean;
  /** Send tool calls without ids. */
  omitCallIds?: boolean;
  /** Each tool call in a single delta, arguments whole. */
  wholeToolCalls?: boolean;
  /** Only `choices` (and `usage`): no id, object, created, model, system_fingerprint, logprobs. */
  bare?: boolean;
  /** Answer one `chat.completion` JSON object even when the request asked to stream. */
  ignoreStream?: boolean;
};

export type FakeReply = {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Characters per text or argument piece (default 7). */
  chunkSize?: number;
  /** A non-2xx status answers with `errorBody` instead of a completion. */
  status?: number;
  /** JSON body for an error status (a string is sent as text); default `{error:{message,…}}`. */
  errorBody?: unknown;
  headers?: Record<string, string>;
  /** Send this many SSE events (the role chunk counts), then hold the connection open. */
  hangAfterChunks?: number;
  /** Send this many SSE events, then destroy the socket (a network failure mid-stream). */
  dropAfterChunks?: number;
  /**
   * Destroy only once this settles (e.g. when the test saw the text arrive); without it the socket
   * dies at once, and the client may lose the last events with it.
   */
  dropWhen?: Promise<unknown>;
  /** Usage to report when asked; default estimated from lengths; `false` never reports usage. */
  usage?: FakeUsage | false;
  /** Default 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string;
  /**
   * Raw SSE `data:` payloads sent verbatim instead of the built ones (include '[DONE]' yourself),
   * for servers that misbehave: an `{"error":…}` event mid-stream, a chunk that is not JSON.
   */
  events?: string[];
  /**
   * The whole SSE body, prebuilt (`ssePieces`), each piece one write: a bench's big answer then costs
   * the fake server a few writes, not one per event (its own time, not the client's, on a 2-core box).
   */
  sse?: string[];
  /** Pause between SSE events, for watching a UI stream; unit tests should not need it. */
  chunkDelayMs?: number;
  style?: FakeWireStyle;
};

/** The body a client sent, parsed. */
export type FakeRequestBody = {
  model?: string;
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
};

export type RecordedRequest = {
  /** 0-based position among chat-completions requests. */
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: FakeRequestBody;
};

export type FakeStep = FakeReply | ((request: RecordedRequest) => FakeReply | Promise<FakeReply>);

export type FakeOpenAIOptions = {
  /** The reply once the script is used up (default: a 500 naming the request). */
  whenExhausted?: FakeStep;
  /** Answer 400 to any request carrying `stream_options`, like some older servers. */
  rejectStreamOptions?: boolean;
  /** The ids `GET /models` lists (default ['fake-model']); `false`: no such route (404), like many local servers. */
  models?: string[] | false;
  /** Serve https with this key and certificate (PEM) instead of plain http. */
  tls?: { key: string; cert: string };
};

export type FakeOpenAI = {
  /** Base URL including `/v1`, ready for OPENAI_BASE_URL. */
  url: string;
  /** Every chat-completions request, in arrival order (rejected ones too). */
  requests: RecordedRequest[];
  /** Appends steps to the script. */
  push(...steps: FakeStep[]): void;
  /** Resolves once `count` requests have arrived. Contract: rejects after `timeoutMs` (default 10 s). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Stops the server and cuts any open (hanging) connection. */
  close(): Promise<void>;
};

/** The last `tool` message the model was sent, if any. */
export function lastToolMessage(
  request: RecordedRequest,
): Extract<ChatMessage, { role: 'tool' }> | undefined {
  return request.body.messages
    .filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool')
    .at(-1);
}

/** The names of the tools offered in a request. */
export function toolNames(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((t) => t.function.name);
}

const pieces = (s: string, size: number): string[] => {
  const chars = Array.from(s);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
};

const argsText = (call: FakeToolCall): string =>
  typeof call.args === 'string' ? call.args : JSON.stringify(call.args);

function estimateUsage(body: FakeRequestBody, reply: FakeReply): FakeUsage {
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const completion = Math.ceil(
    ((reply.text ?? '').length + (reply.toolCalls ?? []).map(argsText).join('').length) / 4,
  );
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * Builds the SSE `data:` payloads of one streamed reply, in order, ending with `[DONE]`, as the server
 * would for `req`. A bench builds a big reply ahead with it (passed back as `events`), so the time the
 * fake server takes to build it is not counted as the client's.
 */
export function streamEvents(reply: FakeReply, req: Pick<RecordedRequest, 'index' | 'body'>): string[] {
  const style = reply.style ?? {};
  const size = Math.max(1, reply.chunkSize ?? 7);
  const created = Math.floor(Date.now() / 1000);
  const envelope = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify(
      style.bare
        ? { choices, ...extra }
        : {
            id: `chatcmpl-fake-${req.index}`,
            object: 'chat.completion.chunk',
            created,
            model: req.body.model ?? 'fake-model',
            system_fingerprint: 'fp_fake',
            choices,
            ...extra,
          },
    );
  const choice = (delta: Record<string, unknown>, finish: string | null = null) =>
    envelope([{ index: 0, delta, ...(style.bare ? {} : { logprobs: null }), finish_reason: finish }]);

  const events = [choice({ role: 'assistant', content: '' })];
  for (const piece of pieces(reply.text ?? '', size)) events.push(choice({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, i) => {
    const index = style.omitIndex ? {} : { index: style.indexAllZero ? 0 : i };
    const id = style.omitCallIds ? {} : { id: call.id ?? `call_fake_${req.index}_${i}` };
    const type = style.omitType ? {} : { type: 'function' };
    const args = argsText(call);
    const head = {
      ...index,
      ...id,
      ...type,
      function: { name: call.name, arguments: style.wholeToolCalls ? args : '' },
    };
    events.push(choice({ tool_calls: [head] }));
    if (style.wholeToolCalls) return;
    for (const piece of pieces(args, size))
      events.push(choice({ tool_calls: [{ ...index, function: { arguments: piece } }] }));
  });
  events.push(choice({}, reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (req.body.stream_options?.include_usage && reply.usage !== false) {
    events.push(envelope([], { usage: reply.usage ?? estimateUsage(req.body, reply) }));
  }
  events.push('[DONE]');
  return events;
}

/**
 * The SSE body of `events` (from `streamEvents`) in pieces of about `size` bytes, whole events each, as
 * a server writing into its socket's buffer sends them: for `FakeReply.sse`.
 */
export function ssePieces(events: readonly string[], size = 65_536): string[] {
  const out: string[] = [];
  let piece = '';
  for (const event of events) {
    piece += `data: ${event}\n\n`;
    if (piece.length >= size) {
      out.push(piece);
      piece = '';
    }
  }
  if (piece !== '') out.push(piece);
  return out;
}

/** The one-object answer for `stream: false`. */
function completionObject(reply: FakeReply, req: RecordedRequest): unknown {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_fake_${req.index}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: argsText(call) },
  }));
  return {
    id: `chatcmpl-fake-${req.index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.body.model ?? 'fake-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      },
    ],
    ...(reply.usage !== false && { usage: reply.usage ?? estimateUsage(req.body, reply) }),
  };
}

function sendError(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(text);
}

async function sendStream(res: ServerResponse, reply: FakeReply, req: RecordedRequest): Promise<void> {
  const events = reply.events ?? streamEvents(reply, req);
  const stopAt = Math.min(
    reply.hangAfterChunks ?? Infinity,
    reply.dropAfterChunks ?? Infinity,
    events.length,
  );
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  res.flushHeaders();
  if (reply.sse) {
    for (const piece of reply.sse) res.write(piece);
    res.end();
    return;
  }
  for (let i = 0; i < stopAt; i += 1) {
    if (res.destroyed) return;
    res.write(`data: ${events[i]}\n\n`);
    if (reply.chunkDelayMs) await new Promise((r) => setTimeout(r, reply.chunkDelayMs));
  }
  if (reply.dropAfterChunks !== undefined && reply.dropAfterChunks < events.length) {
    await reply.dropWhen?.catch(() => {});
    res.socket?.destroy();
    return;
  }
  // A hanging reply stays open until the client goes away or the server closes.
  if (stopAt < events.length) return;
  res.end();
}

/** Starts the fake server. Contract: listens only on 127.0.0.1; `close()` always ends it. */
export async function startFakeOpenAI(
  script: FakeStep[] = [],
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();

  async function replyFor(req: RecordedRequest): Promise<FakeReply> {
    const step = queue.shift() ??
      options.whenExhausted ?? {
        status: 500,
        errorBody: {
          error: {
            message: `fake-openai: the script has no reply left for request #${req.index}`,
            type: 'server_error',
          },
        },
      };
    return typeof step === 'function' ? step(req) : step;
  }

  const handler = async (incoming: IncomingMessage, res: ServerResponse) => {
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    if (incoming.method === 'GET' && /\/models$/.test(path) && options.models !== false) {
      const ids = options.models ?? ['fake-model'];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: ids.map((id) => ({ id, object: 'model', owned_by: 'fake' })),
        }),
      );
      return;
    }
    if (incoming.method !== 'POST' || !/\/chat\/completions$/.test(path)) {
      sendError(res, 404, { error: { message: `fake-openai: no route ${incoming.method} ${path}` } });
      return;
    }
    const raw: Buffer[] = [];
    for await (const part of incoming) raw.push(part as Buffer);
    let body: FakeRequestBody;
    try {
      body = JSON.parse(Buffer.concat(raw).toString('utf8')) as FakeRequestBody;
    } catch {
      sendError(res, 400, { error: { message: 'fake-openai: the request body is not JSON' } });
      return;
    }
    const req: RecordedRequest = {
      index: requests.length,
      method: incoming.method ?? 'POST',
      path,
      headers: incoming.headers,
      body,
    };
    requests.push(req);
    for (const wake of waiters) wake();
    if (options.rejectStreamOptions && body.stream_options !== undefined) {
      const message = 'Unrecognized request argument supplied: stream_options';
      sendError(res, 400, {
        error: { message, type: 'invalid_request_error', param: 'stream_options', code: null },
      });
      return;
    }
    try {
      const reply = await replyFor(req);
      if (reply.status !== undefined && (reply.status < 200 || reply.status > 299)) {
        const fallback = {
          error: { message: `fake-openai: status ${reply.status}`, type: 'server_error', code: null },
        };
        sendError(res, reply.status, reply.errorBody ?? fallback, reply.headers);
      } else if (body.stream === true && !reply.style?.ignoreStream) {
        await sendStream(res, reply, req);
      } else {
        res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(completionObject(reply, req)));
      }
    } catch (err) {
      if (!res.headersSent)
        sendError(res, 500, { error: { message: `fake-openai: the script threw: ${String(err)}` } });
      else res.destroy();
    }
  };
  const server = options.tls ? createHttpsServer(options.tls, handler) : createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    requests,
    push: (...steps) => void queue.push(...steps),
    waitForRequests(count, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`fake-openai: ${requests.length} of ${count} requests arrived within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
