import type { AnyTool, ToolOutput } from '../tools/types';
import { hashServerConfig } from './config-hash';
import { type McpConnection, openConnection } from './connection';
import { mcpToolPrefix } from './names';
import { capped, formatToolResult } from './result';
import { createStderrTail, type StderrTail } from './stderr-tail';
import { buildMcpTools } from './tools';
import type { McpServerConfig, McpServerState, McpServerStatus } from './types';

export type McpManagerOptions = {
  servers: Record<string, McpServerConfig>;
  /** Per server, for spawn + handshake + tool list (default 30 s). */
  startTimeoutMs?: number;
  /** Per tool call (default 120 s; progress notifications reset it). */
  callTimeoutMs?: number;
  /** Told every change of a server's status, including new warnings. Must not throw. */
  onStatus?: (status: McpServerStatus) => void;
  /**
   * Servers that `start()` must not launch, with the reason shown; `restart(name)` (a person's
   * explicit action) starts them. A project's own servers are held: a cloned repository must not
   * run a command of its choosing before anyone agreed.
   */
  hold?: (name: string) => string | undefined;
};

/** The MCP bridge: starts configured servers and exposes their tools as `mcp__<server>__<tool>`. */
export type McpManager = {
  /** Contract: starts every server in parallel and never rejects; failures become `failed` statuses. */
  start(): Promise<void>;
  /** The tools of every ready server. */
  tools(): AnyTool[];
  status(): McpServerStatus[];
  /** Contract: stops and starts one server; never rejects except for a name not in the config. */
  restart(name: string): Promise<void>;
  /** Contract: every server process has exited when this resolves; never rejects. */
  close(): Promise<void>;
  /** sha256 of the server's configuration, so a grant can notice the server changed. */
  configHash(name: string): string | undefined;
};

type Entry = {
  name: string;
  config: McpServerConfig;
  state: McpServerState;
  error?: string;
  warnings: string[];
  tools: AnyTool[];
  stderr: StderrTail;
  connection?: McpConnection;
  /** Aborts the start in progress, if any. */
  attempt?: AbortController;
  /** The start in progress, if any, so close() can wait for its process to be gone. */
  pending?: Promise<void>;
  generation: number;
  inFlight: Map<number, string>;
  /** Set when another server's tools would carry the same `mcp__<server>__` prefix. */
  conflict?: string;
};

/** Builds the manager; nothing starts until `start()`. */
export function createMcpManager(options: McpManagerOptions): McpManager {
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  let closed = false;
  let callIds = 0;
  const entries = new Map<string, Entry>(
    Object.entries(options.servers)
      .filter(([, config]) => config.disabled !== true)
      .map(([name, config]): [string, Entry] => [
        name,
        {
          name,
          config,
          state: 'starting',
          warnings: [],
          tools: [],
          stderr: createStderrTail(),
          generation: 0,
          inFlight: new Map(),
        },
      ]),
  );
  const byPrefix = new Map<string, string>();
  for (const e of entries.values()) {
    const prefix = mcpToolPrefix(e.name);
    const first = byPrefix.get(prefix);
    if (first === undefined) byPrefix.set(prefix, e.name);
    else
      e.conflict = `Not started: its tools would be named ${prefix}*, like those of server "${first}"; rename one of them.`;
  }

  const statusOf = (e: Entry): McpServerStatus => ({
    name: e.name,
    status: e.state,
    tools: e.tools.length,
    toolNames: e.tools.map((t) => t.name),
    ...(e.error !== undefined ? { error: e.error } : {}),
    stderrTail: e.stderr.text(),
    warnings: [...e.warnings],
    ...(e.state === 'ready' && e.connection?.pid !== undefined ? { pid: e.connection.pid } : {}),
  });
  const emit = (e: Entry) => {
    try {
      options.onStatus?.(statusOf(e));
    } catch {
      // A listener's failure must not take a server down.
    }
  };
  const fail = (e: Entry, error: string) => {
    e.state = 'failed';
    e.error = error;
    e.tools = [];
    emit(e);
  };

  async function startOne(e: Entry): Promise<void> {
    const generation = ++e.generation;
    e.attempt?.abort();
    await e.pending;
    await stopConnection(e);
    if (closed || generation !== e.generation) return;
    if (e.conflict) return fail(e, e.conflict);
    const attempt = new AbortController();
    e.attempt = attempt;
    Object.assign(e, { state: 'starting', error: undefined, warnings: [], tools: [] });
    e.stderr.clear();
    emit(e);
    const run = (async () => {
      try {
        const opened = await openConnection(e.config, {
          timeoutMs: startTimeoutMs,
          signal: attempt.signal,
          onStderr: (c) => e.stderr.push(c),
        });
        if (closed || generation !== e.generation) return void (await opened.connection.close());
        const { connection } = opened;
        // Executors look the connection up per call, so tools listed before a restart keep working after it.
        const built = buildMcpTools(e.name, opened.tools, (tool, args, signal) =>
          callTool(e, tool, args, signal),
        );
        Object.assign(e, { connection, tools: built.tools, warnings: built.warnings, state: 'ready' });
        emit(e);
        connection.onClose((intentional) => {
          if (intentional || e.connection !== connection) return;
          const during = [...new Set(e.inFlight.values())];
          fail(
            e,
            `The server exited unexpectedly${during.length > 0 ? ` during a call to ${during.join(', ')}` : ''}.${lastLine(e)}`,
          );
        });
      } catch (err) {
        if (generation === e.generation && !closed)
          fail(e, `${err instanceof Error ? err.message : String(err)}${lastLine(e)}`);
      }
    })();
    e.pending = run;
    await run;
    if (e.pending === run) e.pending = undefined;
    if (e.attempt === attempt) e.attempt = undefined;
  }

  async function callTool(
    e: Entry,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolOutput> {
    const connection = e.connection;
    if (!connection || e.state !== 'ready' || connection.closed) {
      return {
        ok: false,
        error: `MCP server "${e.name}" is not running${e.error ? ` (${e.error})` : ''}; a person can restart it.`,
      };
    }
    const id = ++callIds;
    e.inFlight.set(id, tool);
    try {
      const result = await connection.client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: callTimeoutMs,
        resetTimeoutOnProgress: true,
      });
      return formatToolResult(result);
    } catch (err) {
      if (signal.aborted)
        return { ok: false, error: `The call to ${tool} on MCP server "${e.name}" was cancelled.` };
      // The SDK marks the connection closed before it fails the calls in flight. Not the error's code:
      // -32000 is also JSON-RPC's first "server error" code, which a live server may answer with.
      if (connection.closed) {
        if (e.connection !== connection)
          return {
            ok: false,
            error: `MCP server "${e.name}" was restarted or stopped while running ${tool}; the call did not complete.`,
          };
        if (stateOf(e) !== 'failed') fail(e, `The server exited during a call to ${tool}.${lastLine(e)}`);
        return {
          ok: false,
          error: `MCP server "${e.name}" stopped while running ${tool}; the call did not complete and the server is now marked failed.${lastLine(e)}`,
        };
      }
      // The server wrote the message: capped like a result's text (a 1 MB error reached the model whole).
      return {
        ok: false,
        error: capped(
          `MCP tool ${tool} on server "${e.name}" failed: ${err instanceof Error ? err.message : String(err)}`,
        ),
      };
    } finally {
      e.inFlight.delete(id);
    }
  }

  async function stopConnection(e: Entry): Promise<void> {
    const connection = e.connection;
    e.connection = undefined;
    e.tools = [];
    await connection?.close();
  }

  return {
    async start() {
      await Promise.all(
        [...entries.values()].map((e) => {
          const held = options.hold?.(e.name);
          return held ? fail(e, held) : startOne(e).catch(() => {});
        }),
      );
    },
    tools: () => [...entries.values()].filter((e) => e.state === 'ready').flatMap((e) => e.tools),
    status: () => [...entries.values()].map(statusOf),
    async restart(name) {
      const e = entries.get(name);
      if (!e) throw new Error(`No MCP server is configured as "${name}".`);
      await startOne(e).catch(() => {});
    },
    async close() {
      closed = true;
      await Promise.all(
        [...entries.values()].map(async (e) => {
          e.generation++;
          e.attempt?.abort();
          await e.pending?.catch(() => {});
          await stopConnection(e).catch(() => {});
          if (e.state !== 'failed') fail(e, 'Stopped: warden closed its MCP servers.');
        }),
      );
    },
    configHash(name) {
      const e = entries.get(name);
      return e ? hashServerConfig(e.config) : undefined;
    },
  };
}

/** Reads the state afresh: after an await, the onClose listener may have changed it. */
function stateOf(e: Entry): McpServerState {
  return e.state;
}

/** The last stderr line, as a hint after an error message. */
function lastLine(e: Entry): string {
  const line = e.stderr.text().trimEnd().split('\n').at(-1)?.trim();
  return line ? ` Last stderr: ${line}` : '';
}
