import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CommandFolderRead, readProjectCommands } from './read-commands';
import { PathFence } from './guards/path-guard';
import { readProjectFile } from './safe-read';

/** One of a project's `.warden` files as read once: its text is what is parsed, hashed and shown. */
export type ProjectFileRead =
  | { kind: 'missing'; path: string }
  | { kind: 'ok'; path: string; text: string }
  | { kind: 'error'; path: string; error: string };

/**
 * The project's `.warden/policy.json`, `.warden/config.json` and `.warden/commands/*.md`, read once,
 * with one content hash over them: trust is bound to this hash, so a change to any needs trust again.
 */
export type ProjectSnapshot = {
  root: string;
  policy: ProjectFileRead;
  config: ProjectFileRead;
  /** Custom slash commands: prompts the project would have the person send (they count once trusted). */
  commands: CommandFolderRead;
  hash: string;
};

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
  return { root: real, policy, config, commands, hash: snapshotHash(policy, config, commands) };
}

/**
 * sha256 over the files' states and texts; a missing file and an empty one differ. Command files
 * count only when there are some (a project without them hashes as before they existed).
 */
export function snapshotHash(
  policy: ProjectFileRead,
  config: ProjectFileRead,
  commands: CommandFolderRead = { files: [], problems: [] },
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
