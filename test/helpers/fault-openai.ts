/**
 * A misbehaving OpenAI-compatible server on 127.0.0.1 for fault tests, at the byte level the fake
 * server (fake-openai.ts) does not reach: a server that never answers, streams empty chunks
 * forever, trickles one byte at a time, sends keep-alive comments, or ends without
 * finish_reason and [DONE]. Each chat-completions request takes the next step.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Writes one response; resolves when done (the server ends it unless the step left it open). */
export type FaultStep = (res: ServerResponse) => Promise<'end' | 'open'>;

export type FaultServer = {
  url: string;
  /** Chat-completions requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
};

/** One SSE event of a streamed chunk with the given delta (and finish reason). */
export const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
export const DONE = 'data: [DONE]\n\n';
/** A whole, well-formed answer that says `text`. */
export const answer = (text: string): string =>
  chunk({ role: 'assistant', content: '' }) + chunk({ content: text }) + chunk({}, 'stop') + DONE;
/** A tool call in one chunk. */
export const toolCall = (id: string, name: string, args: string): string =>
  chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }] });

const ticks = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const closed = new WeakSet<ServerResponse>();
/** True once the client went away (or the server closed the connection). */
const gone = (res: ServerResponse): boolean => closed.has(res) || res.destroyed;
const startStream = (res: ServerResponse) => {
  res.once('close', () => closed.add(res));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
};

/** The server's behaviours (what it does is the fault; none of them is a test waiting). */
export const fault = {
  /** Accepts the request and never answers, not even headers. */
  hang: (): FaultStep => async () => 'open',
  /** Sends `body` and ends the response, whatever it holds. */
  send:
    (body: string): FaultStep =>
    async (res) => {
      startStream(res);
      res.write(body);
      return 'end';
    },
  /** A role chunk, then an empty chunk every `everyMs` until the client goes away. */
  emptyForever:
    (everyMs: number): FaultStep =>
    async (res) => {
      startStream(res);
      res.write(chunk({ role: 'assistant', content: '' }));
      while (!gone(res)) {
        res.write(chunk({}));
        await ticks(everyMs);
      }
      return 'open';
    },
  /** `head` at once, then `slow` one byte every `everyMs`, then `tail`. */
  trickle:
    (head: string, slow: string, everyMs: number, tail: string): FaultStep =>
    async (res) => {
      startStream(res);
      res.write(head);
      for (const byte of Buffer.from(slow)) {
        await ticks(everyMs);
        if (gone(res)) return 'open';
        res.write(Buffer.from([byte]));
      }
      res.write(tail);
      return 'end';
    },
  /** `count` SSE comment lines (keep-alives), one every `everyMs`, then `tail`; forever when count is Infinity. */
  keepAlive:
    (count: number, everyMs: number, tail: string): FaultStep =>
    async (res) => {
      startStream(res);
      for (let i = 0; i < count; i++) {
        if (gone(res)) return 'open';
        res.write(': keep-alive\n\n');
        await ticks(everyMs);
      }
      res.write(tail);
      return 'end';
    },
  /** A status with a JSON error body and headers (e.g. retry-after). */
  status:
    (status: number, headers: Record<string, string> = {}): FaultStep =>
    async (res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.write(JSON.stringify({ error: { message: `fault: status ${status}`, type: 'server_error' } }));
      return 'end';
    },
};

/** Starts the server. Contract: listens only on 127.0.0.1; `close()` cuts every open response. */
export async function startFaultServer(steps: FaultStep[]): Promise<FaultServer> {
  const queue = [...steps];
  let requests = 0;
  const server = createServer(async (req, res) => {
    for await (const _ of req) {
      // Drain the body; the faults do not depend on it.
    }
    requests += 1;
    const step = queue.shift() ?? fault.status(500);
    if ((await step(res)) === 'end' && !res.destroyed) res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
