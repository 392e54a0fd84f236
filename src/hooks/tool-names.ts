/**
 * warden's tools under the names Claude Code's hooks know them by, so a hook written for Claude Code
 * (`"matcher": "Bash"`, `.tool_input.file_path`) runs unchanged: each tool declares its alias
 * (`hookAlias` in its own file: execute_command is Bash, write_file Write, edit_file Edit …). MCP tools
 * are `mcp__<server>__<tool>` in both. A hook sees `tool_name` as Claude Code's name where there is
 * one, and warden's own name in `warden_tool`; a matcher is tried against both.
 */
import type { HookAlias } from '../tools/types';

/** A tool's alias by warden's name (undefined: the tool has none, or is unknown). */
export type AliasOf = (tool: string) => HookAlias | undefined;

/** The name a Claude Code hook knows `tool` by: its alias, else warden's own name. */
export function claudeToolName(aliasOf: AliasOf, tool: string): string {
  return aliasOf(tool)?.name ?? tool;
}

/**
 * A call's arguments as a hook reads them: warden's own fields, plus Claude Code's for the same tool
 * where they differ (never replacing one of warden's). Contract: never throws; non-object arguments
 * pass through as they are.
 */
export function claudeToolInput(aliasOf: AliasOf, tool: string, args: unknown, root: string): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const own = args as Record<string, unknown>;
  let extra: Record<string, unknown> = {};
  try {
    extra = aliasOf(tool)?.input?.(own, root) ?? {};
  } catch {
    // The alias is a convenience: warden's own fields still reach the hook.
  }
  const added = Object.entries(extra).filter(([k, v]) => v !== undefined && !Object.hasOwn(own, k));
  return { ...own, ...Object.fromEntries(added) };
}
