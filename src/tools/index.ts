import { createCreateProjectTool } from './exec/create-project';
import { createEditFileTool } from './fs/edit-file';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from './exec/execute-command';
import { createGlobFilesTool } from './fs/glob-files';
import { createGrepCodeTool } from './fs/grep-code';
import { createListDirTool } from './fs/list-dir';
import { createReadFileTool } from './fs/read-file';
import { defaultLayout, wardenHomeMasks } from './exec/sandbox';
import type { AnyTool } from './types';
import { createWriteFileTool } from './fs/write-file';

/**
 * The core tools with their real effects, in the order the model sees them. `home` is the resolved
 * WARDEN_HOME (it may be the default `~/.warden`, with no variable set): commands never see it.
 * `readPaths`: folders the person's own config lets commands read (`sandbox.readPaths`).
 */
export function createCoreTools(home?: string, readPaths: readonly string[] = []): AnyTool[] {
  const commandEffects = {
    ...defaultExecuteCommandEffects,
    layout: (root: string) => defaultLayout(root, readPaths),
    ...(home === undefined ? {} : { hiddenPaths: () => wardenHomeMasks(home) }),
  };
  return [
    createReadFileTool(),
    createListDirTool(),
    createGlobFilesTool(),
    createGrepCodeTool(),
    createEditFileTool(),
    createWriteFileTool(),
    createExecuteCommandTool(commandEffects),
    createCreateProjectTool(),
  ];
}
