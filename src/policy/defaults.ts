import type { CallFacts } from './facts';
import { readsOrScratch } from './reads-or-scratch';
import type { LoadedRule } from './rules';

const builtin = (
  tool: string,
  decision: LoadedRule['decision'],
  message: string,
  name = tool,
): LoadedRule => ({
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
  // What goes out names a host; the person decides per domain (approve-all for a domain is offered).
  builtin('web_fetch', 'ask', 'fetching a web page sends its address out, so it asks once per domain'),
  builtin('web_search', 'ask', 'a web search sends the query to the search provider, so it asks'),
  builtin('spawn_agents', 'allow', 'starting sub-agents is allowed; each of their calls passes the gate'),
  builtin('update_plan', 'allow', 'ticking off plan steps is allowed'),
  builtin('write_file', 'ask', 'writing a file asks by default'),
  builtin('edit_file', 'ask', 'editing a file asks by default'),
  builtin('execute_command', 'ask', 'running a command asks by default'),
  builtin('create_project', 'ask', 'creating a project asks by default'),
  builtin('revert_turn', 'ask', 'reverting earlier turns asks by default'),
  builtin('propose_plan', 'ask', 'a plan is reviewed by a person'),
  builtin('ask_user', 'ask', 'a question is answered by a person'),
  builtin('mcp__*', 'ask', 'every MCP tool asks by default', 'mcp'),
  builtin('*', 'ask', 'a tool without a rule asks', 'any'),
];

/** Reading a credential file asks, whichever read tool does it. */
export const SECRET_READ_RULE: LoadedRule = builtin(
  '*',
  'ask',
  'reading a credential file sends its content to the model, so a person decides',
  'secret-read',
);

/** A read-only command inside the sandbox runs like read_file. */
export const READ_ONLY_COMMAND_RULE: LoadedRule = builtin(
  'execute_command',
  'allow',
  'a read-only command runs freely inside the sandbox',
  'read-only-command',
);

/**
 * Whether a command only reads, as far as anyone can tell: the guard judged every part (`ok`),
 * every part only reads — or writes only into the sandbox's private /tmp — nothing
 * destroys, no credential file is named, no operand points outside the project (read_file's fence),
 * and the sandbox holds the run. Anything else keeps the default ask.
 */
export function isFreeReadOnlyCommand(facts: CallFacts): boolean {
  const c = facts.command;
  return (
    c?.kind === 'ok' &&
    c.parts.length > 0 &&
    c.destructive.length === 0 &&
    readsOrScratch(c.parts, facts.writes) &&
    facts.secret === undefined &&
    facts.readsOutside === undefined &&
    facts.sandboxed
  );
}

/**
 * The built-in rule for a call no user or project rule matched: the conditional defaults first,
 * then the first default for the tool (they are ordered specific-first; the last is a catch-all).
 */
export function builtinRuleFor(facts: CallFacts, forTool: readonly LoadedRule[]): LoadedRule {
  if (facts.secret !== undefined) return SECRET_READ_RULE;
  if (facts.tool === 'execute_command' && isFreeReadOnlyCommand(facts)) return READ_ONLY_COMMAND_RULE;
  return forTool[0] as LoadedRule;
}
