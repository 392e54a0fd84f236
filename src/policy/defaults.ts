import type { LoadedRule } from './rules';

const builtin = (tool: string, decision: LoadedRule['decision'], message: string, name = tool): LoadedRule => ({
  id: `default-${decision}-${name}`,
  source: 'builtin',
  tool,
  decision,
  message,
});

/** Built-in defaults: they apply only when no user or project rule matches the call. */
export const DEFAULT_RULES: readonly LoadedRule[] = [
  builtin('read_file', 'allow', 'reading files inside the project is allowed'),
  builtin('list_dir', 'allow', 'listing folders inside the project is allowed'),
  builtin('glob_files', 'allow', 'finding files inside the project is allowed'),
  builtin('grep_code', 'allow', 'searching inside the project is allowed'),
  builtin('web_fetch', 'allow', 'fetching public web pages is allowed (the SSRF guard still applies)'),
  builtin('web_search', 'allow', 'searching the web is allowed'),
  builtin('spawn_agents', 'allow', "starting sub-agents is allowed; each of their calls passes the gate"),
  builtin('update_plan', 'allow', 'ticking off plan steps is allowed'),
  builtin('write_file', 'ask', 'writing a file asks by default'),
  builtin('execute_command', 'ask', 'running a command asks by default'),
  builtin('create_project', 'ask', 'creating a project asks by default'),
  builtin('revert_turn', 'ask', 'reverting earlier turns asks by default'),
  builtin('propose_plan', 'ask', 'a plan is reviewed by a person'),
  builtin('ask_user', 'ask', 'a question is answered by a person'),
  builtin('mcp__*', 'ask', 'every MCP tool asks by default', 'mcp'),
  builtin('*', 'ask', 'a tool without a rule asks', 'any'),
];

/** Tools that are a conversation with the person: they always ask, in every mode, and are never granted. */
export const INTERACTIVE_TOOLS: ReadonlySet<string> = new Set(['propose_plan', 'ask_user']);
