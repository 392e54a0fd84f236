/**
 * Every tool warden builds, in the order the model sees them: a new tool is its own file (schema,
 * preview, summary and flags: see types.ts) plus one line here. The gate is the only way to run one.
 * Its default decision is policy: a tool the built-in rules (policy/defaults.ts) do not name asks.
 */
import { createCreateProjectTool } from './exec/create-project';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from './exec/execute-command';
import { defaultLayout, wardenHomeMasks } from './exec/sandbox';
import { createEditFileTool } from './fs/edit-file';
import { createGlobFilesTool } from './fs/glob-files';
import { createGrepCodeTool } from './fs/grep-code';
import { createListDirTool } from './fs/list-dir';
import { createReadFileTool } from './fs/read-file';
import { createWriteFileTool } from './fs/write-file';
import { createAskUserTool } from './interact/ask-user';
import { createEscalateTool } from './interact/escalate';
import { createProposePlanTool } from './interact/propose-plan';
import { createRevertTurnTool, type TurnReverter } from './interact/revert-turn';
import { createSpawnAgentsTool } from './interact/spawn-agents';
import { createUpdatePlanTool } from './interact/update-plan';
import type { AnyTool } from './types';
import type { WebFetchEffects } from './web/web-fetch';
import { createWebFetchTool } from './web/web-fetch';
import { createSearchTool, type WebSearchConfig } from './web/web-search';

/** What the tools of one session are built from. */
export type ToolSetup = {
  /** The resolved WARDEN_HOME (it may be the default `~/.warden`, with no variable set): commands never see it. */
  home?: string;
  /** Folders the person's own config lets commands read (`sandbox.readPaths`). */
  readPaths?: readonly string[];
  /** The search provider; without one there is no web_search. */
  webSearch?: WebSearchConfig;
  fetch?: WebFetchEffects;
  /** The checkpoint store revert_turn restores from; without one there is no revert_turn. */
  checkpoints?: TurnReverter;
};

/** Which part of warden a tool belongs to: the project's files and commands, the web, or the agents and the person. */
export type ToolGroup = 'core' | 'web' | 'agent';

type Entry = { group: ToolGroup; make(setup: ToolSetup): AnyTool | undefined };

const TOOLS: readonly Entry[] = [
  { group: 'core', make: () => createReadFileTool() },
  { group: 'core', make: () => createListDirTool() },
  { group: 'core', make: () => createGlobFilesTool() },
  { group: 'core', make: () => createGrepCodeTool() },
  { group: 'core', make: () => createEditFileTool() },
  { group: 'core', make: () => createWriteFileTool() },
  { group: 'core', make: (s) => createExecuteCommandTool(commandEffects(s)) },
  { group: 'core', make: () => createCreateProjectTool() },
  { group: 'web', make: (s) => createWebFetchTool(s.fetch) },
  { group: 'web', make: (s) => (s.webSearch ? createSearchTool(s.webSearch) : undefined) },
  { group: 'agent', make: () => createSpawnAgentsTool() },
  { group: 'agent', make: () => createProposePlanTool() },
  { group: 'agent', make: () => createUpdatePlanTool() },
  { group: 'agent', make: () => createAskUserTool() },
  { group: 'agent', make: () => createEscalateTool() },
  { group: 'agent', make: (s) => (s.checkpoints ? createRevertTurnTool(s.checkpoints) : undefined) },
];

/**
 * The core tools with their real effects (the project's files and commands), in the order the model
 * sees them. `home` is the resolved WARDEN_HOME: commands never see it. `readPaths`: folders the
 * person's own config lets commands read (`sandbox.readPaths`).
 */
export function createCoreTools(home?: string, readPaths: readonly string[] = []): AnyTool[] {
  return createTools({ ...(home === undefined ? {} : { home }), readPaths }, ['core']);
}

/** The tools of `groups` (every group when absent) for `setup`, in the order the model sees them. */
export function createTools(setup: ToolSetup, groups?: readonly ToolGroup[]): AnyTool[] {
  return TOOLS.filter((e) => !groups || groups.includes(e.group)).flatMap((e) => e.make(setup) ?? []);
}

/** execute_command's effects: the sandbox's view with the person's read paths, WARDEN_HOME masked. */
function commandEffects(s: ToolSetup) {
  const { home, readPaths = [] } = s;
  return {
    ...defaultExecuteCommandEffects,
    layout: (root: string) => defaultLayout(root, readPaths),
    ...(home === undefined ? {} : { hiddenPaths: () => wardenHomeMasks(home) }),
  };
}
