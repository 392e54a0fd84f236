import { createCreateProjectTool } from './create-project';
import { createExecuteCommandTool } from './execute-command';
import { createGlobFilesTool } from './glob-files';
import { createGrepCodeTool } from './grep-code';
import { createListDirTool } from './list-dir';
import { createReadFileTool } from './read-file';
import type { AnyTool } from './types';
import { createWriteFileTool } from './write-file';

/** The core tools with their real effects, in the order the model sees them. */
export function createCoreTools(): AnyTool[] {
  return [
    createReadFileTool(),
    createListDirTool(),
    createGlobFilesTool(),
    createGrepCodeTool(),
    createWriteFileTool(),
    createExecuteCommandTool(),
    createCreateProjectTool(),
  ];
}
