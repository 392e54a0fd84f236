import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { isStdioConfig, type McpServerConfig } from './types';

/** A live session with one MCP server. */
export type McpConnection = {
  client: Client;
  pid?: number;
  /** True once the transport has closed, for any reason. */
  readonly closed: boolean;
  /** Called once when the connection closes; `intentional` when warden closed it. */
  onClose(listener: (intentional: boolean) => void): void;
  /** Contract: resolves once the server process (if any) has exited; never rejects. */
  close(): Promise<void>;
};

export type OpenOptions = {
  timeoutMs: number;
  /** Aborting gives up the start and kills the server. */
  signal: AbortSignal;
  onStderr(chunk: Buffer | string): void;
};

type AnyTransport = StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport;

const listPage = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_LIST_PAGES = 100;

/**
 * Starts (or reaches) a server, runs the MCP handshake and lists its tools, all within `timeoutMs`.
 * Tools come back unvalidated so one malformed tool cannot hide the others.
 * Contract: on any failure the server process is gone before the promise rejects.
 */
export async function openConnection(
  config: McpServerConfig,
  options: OpenOptions,
): Promise<{ connection: McpConnection; tools: unknown[] }> {
  const transport = createTransport(config);
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', options.onStderr);
  const client = new Client({ name: 'warden', version: '0.1.0' }, { capabilities: {} });
  let closed = false;
  let intentional = false;
  const listeners: ((intentional: boolean) => void)[] = [];
  client.onclose = () => {
    closed = true;
    for (const listener of listeners.splice(0)) listener(intentional);
  };
  // Errors surface through the requests that fail; the default would only log them.
  client.onerror = () => {};
  const work = (async () => {
    await client.connect(transport, { timeout: options.timeoutMs });
    return listTools(client, options.timeoutMs);
  })();
  work.catch(() => {});
  let tools: unknown[];
  try {
    tools = await withDeadline(work, options.timeoutMs, options.signal);
  } catch (err) {
    intentional = true;
    await terminate(transport);
    throw err;
  }
  const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  const connection: McpConnection = {
    client,
    pid,
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener(intentional);
      else listeners.push(listener);
    },
    async close() {
      intentional = true;
      await client.close().catch(() => {});
      if (transport instanceof StdioClientTransport && pid !== undefined) await waitForExit(pid);
    },
  };
  return { connection, tools };
}

function createTransport(config: McpServerConfig): AnyTransport {
  if (isStdioConfig(config)) {
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      cwd: config.cwd,
      stderr: 'pipe',
    });
  }
  const requestInit = { headers: config.headers ?? {} };
  if (config.type === 'sse') return new SSEClientTransport(new URL(config.url), { requestInit });
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit });
}

async function listTools(client: Client, timeout: number): Promise<unknown[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const all: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      listPage,
      { timeout },
    );
    all.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return all;
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The server did not start within ${timeoutMs / 1000} s.`)),
      timeoutMs,
    );
    const onAbort = () => reject(new Error('The start was abandoned.'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  });
}

/** Stops a server that failed to start: SIGTERM at once (it is not answering), then the SDK's close. */
async function terminate(transport: AnyTransport): Promise<void> {
  const pid = transport instanceof StdioClientTransport ? transport.pid : null;
  if (pid !== null) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  await transport.close().catch(() => {});
  if (pid !== null) await waitForExit(pid);
}

/** The SDK's close gives up after SIGKILL without waiting; wait (bounded) until the pid is gone. */
async function waitForExit(pid: number, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
