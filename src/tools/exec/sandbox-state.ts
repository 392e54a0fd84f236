/**
 * The host-side files the sandbox mounts from: an empty read-only file and folder (what a masked
 * credential or a hidden folder shows), the seccomp filter, and the scratch home's `.gitconfig` (the
 * person's name and e-mail only, so an approved `git commit` works without their whole config —
 * which can hold tokens). They live in a folder private to this user under the temp folder (the
 * sandbox sees its own /tmp, never this one), made once per process and checked before use.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultLedgerDir } from './sandbox-mount-points';
import { socketFilter } from './sandbox-seccomp';

export type SandboxState = {
  /** An empty regular file, read-only: bound over a masked file. */
  emptyFile: string;
  /** An empty folder, read-only: bound over a hidden folder. */
  emptyDir: string;
  /** The seccomp filter's file, when this architecture has one. */
  seccomp?: string;
  /** The scratch home's git identity, when the person has one. */
  gitconfig?: string;
};

const cache = new Map<string, SandboxState>();

/**
 * The state folder's files, made when missing. `home`: whose `~/.gitconfig` the identity comes from.
 * Contract: throws when the folder is not this user's or a file in it is not what it should be (the
 * run is then refused with the reason).
 */
export function sandboxState(home: string | undefined, dir: string = defaultLedgerDir()): SandboxState {
  const key = `${dir}\0${home ?? ''}`;
  const known = cache.get(key);
  if (known && stillEmpty(known)) return known;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const s = lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : s.uid;
  if (!s.isDirectory() || s.uid !== uid) throw new Error(`${dir} is not a folder of this user`);
  chmodSync(dir, 0o700);
  const emptyFile = join(dir, 'empty');
  const emptyDir = join(dir, 'empty.d');
  // Writable by its owner on the host, so a write through the read-only mount fails as EROFS, not EACCES.
  ensure(emptyFile, () => writeFileSync(emptyFile, '', { mode: 0o644, flag: 'wx' }));
  ensure(emptyDir, () => mkdirSync(emptyDir, { mode: 0o755 }));
  chmodSync(emptyFile, 0o644);
  chmodSync(emptyDir, 0o755);
  const state: SandboxState = { emptyFile, emptyDir };
  if (!stillEmpty(state)) throw new Error(`${emptyFile} or ${emptyDir} is not empty`);
  const filter = socketFilter();
  if (filter) state.seccomp = writeOnce(dir, 'seccomp', filter);
  const identity = home ? gitIdentity(join(home, '.gitconfig')) : '';
  if (identity) state.gitconfig = writeOnce(dir, 'gitconfig', Buffer.from(identity));
  cache.set(key, state);
  return state;
}

/** Makes `path` unless it is there; another warden making it at the same moment is fine. */
function ensure(path: string, make: () => void): void {
  try {
    lstatSync(path);
    return;
  } catch {
    // Missing: made below.
  }
  try {
    make();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

function stillEmpty(state: SandboxState): boolean {
  try {
    const f = lstatSync(state.emptyFile);
    const d = lstatSync(state.emptyDir);
    return f.isFile() && f.size === 0 && d.isDirectory() && d.nlink === 2;
  } catch {
    return false;
  }
}

/** A content-addressed file (`name-<hash>`), written atomically once; its name changes with its content. */
function writeOnce(dir: string, name: string, bytes: Buffer): string {
  const path = join(dir, `${name}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`);
  try {
    if (readFileSync(path).equals(bytes)) return path;
  } catch {
    // Not written yet.
  }
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o444 });
  renameSync(tmp, path);
  return path;
}

const KEPT_KEYS: Readonly<Record<string, readonly string[]>> = {
  user: ['name', 'email'],
  init: ['defaultbranch'],
  safe: ['directory'],
};

/**
 * The `[user]` name and e-mail, `init.defaultBranch` and `safe.directory` lines of a git config file,
 * as a config of their own; nothing else (credential helpers, URL rewrites with tokens, includes).
 * Contract: never throws; empty when the file is missing or holds none of them.
 */
export function gitIdentity(file: string): string {
  let text: string;
  try {
    // Only a regular file: reading a FIFO there would wait for a writer.
    if (!lstatSync(file).isFile()) return '';
    text = readFileSync(file, 'utf8').slice(0, 256 * 1024);
  } catch {
    return '';
  }
  const kept: Record<string, string[]> = {};
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\]/.exec(line);
    if (header) {
      section = /"/.test(line) ? '' : (header[1] ?? '').toLowerCase();
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const key = (entry[1] ?? '').toLowerCase();
    if (!KEPT_KEYS[section]?.includes(key)) continue;
    const value = (entry[2] ?? '').replace(/\s+[#;].*$/, '').replace(/^"(.*)"$/, '$1');
    // One line, no escapes or quotes that could open another key.
    if (!/^[^\\"\n\r]{1,200}$/.test(value)) continue;
    (kept[section] ??= []).push(`\t${key} = ${value}`);
  }
  return Object.entries(kept)
    .map(([s, lines]) => `[${s}]\n${lines.join('\n')}\n`)
    .join('');
}
