/**
 * The custom commands' files as read: `$WARDEN_HOME/commands/*.md` (the person's) and the project's
 * `.warden/commands/*.md` (through the path fence: a folder or file that leads out of the project is
 * an error, never followed). Regular files only, 64 KB each, the first 100 by name; the text read is
 * what is hashed for trust and what runs.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PathFence } from './guards/path-guard';
import { readProjectFile, readRegularFile, type SafeRead } from './safe-read';

/** A command's name: what follows `/`. Letters, digits, `-`, `_` and `.`; lower case is how it is typed. */
export const COMMAND_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/** Larger command files are refused: a prompt is not that big. */
export const COMMAND_FILE_CAP = 64 * 1024;
/** At most this many files of one folder are read. */
export const COMMAND_FILES_MAX = 100;

/** One `<name>.md` of a commands folder: its text, or why it was not read. */
export type CommandFileRead =
  | { name: string; file: string; kind: 'ok'; text: string }
  | { name: string; file: string; kind: 'error'; error: string };

/** A commands folder as read: its files, and problems of the folder itself (too many files, unreadable). */
export type CommandFolderRead = { files: CommandFileRead[]; problems: string[] };

const EMPTY: CommandFolderRead = { files: [], problems: [] };

/** The `.md` names of a folder, sorted, the first COMMAND_FILES_MAX; problems for the rest. */
function listFolder(dir: string, shown: string): { names: string[]; problems: string[] } | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.md'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return { names: [], problems: [`${shown} cannot be read (${code ?? (err as Error).message})`] };
  }
  entries.sort();
  const problems: string[] = [];
  if (entries.length > COMMAND_FILES_MAX)
    problems.push(
      `${shown} holds ${entries.length} command files; only the first ${COMMAND_FILES_MAX} by name are read`,
    );
  const names: string[] = [];
  for (const entry of entries.slice(0, COMMAND_FILES_MAX)) {
    const name = entry.slice(0, -3).toLowerCase();
    if (!COMMAND_NAME.test(name)) {
      problems.push(`${join(shown, entry)}: not a command name (letters, digits, - _ . only); not loaded`);
      continue;
    }
    names.push(entry);
  }
  return { names, problems };
}

function fileRead(entry: string, file: string, read: SafeRead): CommandFileRead | undefined {
  const name = entry.slice(0, -3).toLowerCase();
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'refused') return { name, file, kind: 'error', error: `not read: ${read.reason}` };
  if (read.truncated)
    return {
      name,
      file,
      kind: 'error',
      error: `larger than ${COMMAND_FILE_CAP / 1024} KB; a command is not that big`,
    };
  return { name, file, kind: 'ok', text: read.text };
}

/** The person's commands, `$WARDEN_HOME/commands/*.md`. Contract: never throws. */
export function readUserCommands(home: string): CommandFolderRead {
  const dir = join(home, 'commands');
  const listed = listFolder(dir, dir);
  if (!listed) return EMPTY;
  const files = listed.names.flatMap((entry) => {
    const file = join(dir, entry);
    return fileRead(entry, file, readRegularFile(file, COMMAND_FILE_CAP)) ?? [];
  });
  return { files, problems: listed.problems };
}

/** The project's commands, `.warden/commands/*.md`, through the fence. Contract: never throws. */
export function readProjectCommands(fence: PathFence): CommandFolderRead {
  const rel = '.warden/commands';
  const verdict = fence.check(rel);
  if (!verdict.ok) return { files: [], problems: [`${rel}: ${verdict.reason}`] };
  const listed = listFolder(verdict.path, rel);
  if (!listed) return EMPTY;
  const files = listed.names.flatMap((entry) => {
    const relFile = `${rel}/${entry}`;
    return (
      fileRead(entry, join(fence.root, relFile), readProjectFile(fence, relFile, COMMAND_FILE_CAP)) ?? []
    );
  });
  return { files, problems: listed.problems };
}
