/** A server warden starts itself and talks to over stdin/stdout. `disabled` servers are ignored. */
export type McpStdioServerConfig = {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  disabled?: boolean;
};
/** A server already running somewhere, reached over streamable HTTP (or legacy SSE with `type: 'sse'`). */
export type McpHttpServerConfig = {
  type?: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  disabled?: boolean;
};
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export type McpServerState = 'starting' | 'ready' | 'failed';

/** One server as the UI and the session see it. */
export type McpServerStatus = {
  name: string;
  status: McpServerState;
  /** How many tools the server offers warden (after skipping invalid ones). */
  tools: number;
  /** The warden-side names, `mcp__<server>__<tool>`. */
  toolNames: string[];
  error?: string;
  /** The last lines the server wrote to stderr (bounded). */
  stderrTail: string;
  /** Things worth telling a person that did not stop the server, e.g. a skipped tool. */
  warnings: string[];
  /** Process id of a running stdio server. */
  pid?: number;
};

/** Tells whether a config entry is a stdio server (has a command) or an HTTP one. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config && typeof config.command === 'string';
}
