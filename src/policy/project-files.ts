import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CommandFolderRead, readProjectCommands } from './read-commands';
import { PathFence } from './guards/path-guard';
import { hookCommandsOf, hookFilesIn } from './hook-files';
import { readProjectFile } from './safe-read';

/** One of a project's `.warden` files as read once: its text is what is parsed, hashed and shown. */
export type ProjectFileRead =
  | { kind: 'missing'; path: string }
  | { kind: 'ok'; path: string; text: string }
  | { kind: 'error'; path: string; error: string };

/**
 * The project's `.warden/policy.json`, `.warden/config.json`, `.warden/commands/*.md` and the files
 * its hooks run, read once, with one content hash over them: trust is bound to this hash, so a change
 * to any needs trust again.
 */
export type ProjectSnapshot = {
  root: string;
  policy: ProjectFileRead;
  config: ProjectFileRead;
  /** Custom slash commands: prompts the project would have the person send (they count once trusted). */
  commands: CommandFolderRead;
  /** The project files the config's hooks run (hook-files.ts): trust binds what runs, not only its name. */
  hookFiles: HookFileRead[];
  hash: string;
};

/** One file a project hook runs, as read (a missing or unreadable one is hashed as such). */
export type HookFileRead = { file: string; kind: 'ok' | 'missing' | 'error'; text: string };

/** Hook scripts are small; a larger one is hashed by what was read and said to be larger. */
const HOOK_FILE_CAP = 1024 * 1024;

/** Settings files are small; anything larger is refused rather than parsed in part. */
export const PROJECT_FILE_CAP = 1024 * 1024;

/**
 * Reads the project's two files through the path fence, as regular files only (a symlink out of
 * the project, a fifo or `/dev/zero` is an error, never a hang). When the project's `.warden` is
 * `$WARDEN_HOME` itself (warden run in `~`), the files are the user's own and the project has none.
 * Contract: never throws.
 */
export function readProjectSnapshot(root: string, home: string): ProjectSnapshot {
  const real = safeRealpath(root);
  const files = {
    policy: join(real, '.warden', 'policy.json'),
    config: join(real, '.warden', 'config.json'),
  };
  const own = samePath(join(real, '.warden'), home);
  let fence: PathFence | undefined;
  const read = (name: 'policy' | 'config'): ProjectFileRead => {
    const path = files[name];
    if (own) return { kind: 'missing', path };
    try {
      fence ??= new PathFence(real, []);
    } catch (err) {
      return { kind: 'error', path, error: `${path}: cannot be read (${(err as Error).message})` };
    }
    const got = readProjectFile(fence, `.warden/${name}.json`, PROJECT_FILE_CAP);
    if (got.kind === 'missing') return { kind: 'missing', path };
    if (got.kind === 'refused') return { kind: 'error', path, error: `${path}: not read: ${got.reason}` };
    if (got.truncated)
      return {
        kind: 'error',
        path,
        error: `${path}: larger than ${PROJECT_FILE_CAP / 1024} KB; a settings file is not that big`,
      };
    return { kind: 'ok', path, text: got.text };
  };
  const policy = read('policy');
  const config = read('config');
  let commands: CommandFolderRead = { files: [], problems: [] };
  if (!own) {
    try {
      fence ??= new PathFence(real, []);
      commands = readProjectCommands(fence);
    } catch (err) {
      commands = { files: [], problems: [`.warden/commands cannot be read (${(err as Error).message})`] };
    }
  }
  const hookFiles = own ? [] : readHookFiles(config, real, () => (fence ??= new PathFence(real, [])));
  return {
    root: real,
    policy,
    config,
    commands,
    hookFiles,
    hash: snapshotHash(policy, config, commands, hookFiles),
  };
}

/** The files the config's hooks run, read through the fence as regular files. Contract: never throws. */
function readHookFiles(config: ProjectFileRead, root: string, fence: () => PathFence): HookFileRead[] {
  if (config.kind !== 'ok') return [];
  let hooks: unknown;
  try {
    hooks = (JSON.parse(config.text.replace(/^\uFEFF/, '')) as { hooks?: unknown } | null)?.hooks;
  } catch {
    return [];
  }
  const files = hookFilesIn(hookCommandsOf(hooks), root);
  return files.map((file): HookFileRead => {
    try {
      const got = readProjectFile(fence(), file, HOOK_FILE_CAP);
      if (got.kind === 'missing') return { file, kind: 'missing', text: '' };
      if (got.kind === 'refused') return { file, kind: 'error', text: got.reason };
      return { file, kind: 'ok', text: got.truncated ? `${got.text}\0truncated` : got.text };
    } catch (err) {
      return { file, kind: 'error', text: (err as Error).message };
    }
  });
}

/**
 * sha256 over the files' states and texts; a missing file and an empty one differ. Command files
 * count only when there are some (a project without them hashes as before they existed).
 */
export function snapshotHash(
  policy: ProjectFileRead,
  config: ProjectFileRead,
  commands: CommandFolderRead = { files: [], problems: [] },
  hookFiles: readonly HookFileRead[] = [],
): string {
  const hash = createHash('sha256').update('warden-project-trust-v1\n');
  for (const [name, file] of [
    ['policy', policy],
    ['config', config],
  ] as const) {
    const body = file.kind === 'ok' ? file.text : file.kind === 'error' ? file.error : '';
    hash
      .update(`${name}\0${file.kind}\0${Buffer.byteLength(body)}\0`)
      .update(body)
      .update('\0');
  }
  if (commands.files.length > 0 || commands.problems.length > 0) {
    hash.update(`commands\0${commands.files.length}\0`);
    for (const f of commands.files) {
      const body = f.kind === 'ok' ? f.text : f.error;
      hash
        .update(`${f.name}\0${f.kind}\0${Buffer.byteLength(body)}\0`)
        .update(body)
        .update('\0');
    }
    for (const p of commands.problems) hash.update(`problem\0${p}\0`);
  }
  // Only when the config's hooks name files: a project without them hashes as before.
  if (hookFiles.length > 0) {
    hash.update(`hookfiles\0${hookFiles.length}\0`);
    for (const f of hookFiles)
      hash
        .update(`${f.file}\0${f.kind}\0${Buffer.byteLength(f.text)}\0`)
        .update(f.text)
        .update('\0');
  }
  return hash.digest('hex');
}

/** Whether two paths name the same file or folder (symlinks followed where they exist). */
export function samePath(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}
