import { createCreateProjectTool } from './exec/create-project';
import { createEditFileTool } from './fs/edit-file';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from './exec/execute-command';
import { createGlobFilesTool } from './fs/glob-files';
import { createGrepCodeTool } from './fs/grep-code';
import { createListDirTool } from './fs/list-dir';
import { createReadFileTool } from './fs/read-file';
import { findSecretMasks } from './exec/sandbox';
import { findSocketMasks } from './exec/sandbox-sockets';
import type { AnyTool } from './types';
import { createWriteFileTool } from './fs/write-file';

/**
 * The core tools with their real effects, in the order the model sees them. `home` is the resolved
 * WARDEN_HOME (it may be the default `~/.warden`, with no variable set): commands never see it.
 */
export function createCoreTools(home?: string): AnyTool[] {
  const commandEffects =
    home === undefined
      ? defaultExecuteCommandEffects
      : {
          ...defaultExecuteCommandEffects,
          secretMasks: () => [
            ...findSecretMasks(process.env.HOME, home),
            ...findSocketMasks(process.env.HOME, process.env.XDG_RUNTIME_DIR),
          ],
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
