/**
 * Which paths the bubblewrap sandbox keeps read-only inside the writable project: every `.git`
 * (folder or file) in the tree, `.warden`, whatever the protected-path patterns match, each
 * `node_modules/.bin` (a shim there shadows a program the person's own `npm run` calls), and the
 * paths the repository's git config names (git-config-paths.ts); which credential files and sockets
 * are masked (an empty read-only file in their place). A protected name that does not exist yet is
 * watched, not stood in for (a stand-in is a phantom file every `ls` shows): one that appears during
 * a run is set aside after it (sandbox-quarantine.ts). A person's approved card may lift exactly the
 * paths it listed for one run, and unmask exactly the credential files it named.
 */
import {
  closeSync,
  type Dirent,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isCredentialEntry, isSecretFolder } from '../../policy/credential-files';
import { fileCredentialKind, mayHoldCredentialContent } from '../../policy/credential-content';
import { picomatchLib } from '../../policy/picomatch-lib';
import { compileGlobs } from '../../policy/glob';
import { DEFAULT_PROTECTED_PATHS } from '../../policy/guards/path-guard';
import type { Placeholder } from './sandbox-mount-points';
import { inside, type SandboxMask } from './sandbox-paths';

export { inside } from './sandbox-paths';

/** Entries the scan visits at most; a bigger tree keeps what it found (BFS: shallow paths first). */
export const PROTECT_SCAN_LIMIT = 200_000;
// npm install must write node_modules; its thousands of package.json files are not the project's.
const SKIPPED_DIRS = new Set(['node_modules']);
// Always protected, whatever the configured patterns say: git's and warden's own settings.
const ALWAYS = ['.git/', '.warden/'];
// Inside a lifted `.git`, these stay read-only unless lifted by name: they run code outside the sandbox later.
const STICKY_IN_GIT = ['hooks', 'config'];

/**
 * How the sandbox protects one run. Mount in this order: `pinned` and `readOnly` by depth (a parent
 * before what is inside it), then `writable` (lifted paths inside a read-only folder).
 * `refused`: the run must not start (a protection the sandbox cannot give), with the reason.
 */
export type ProtectPlan = {
  /** Folders on the way to a protected path, bound onto themselves writable: a mount point cannot be renamed. */
  pinned: string[];
  readOnly: string[];
  writable: string[];
  /** Missing files a person approved writing inside a read-only folder: made before the run to bind, removed after. */
  placeholders: Placeholder[];
  /** Credential files and sockets hidden for this run. */
  masked: SandboxMask[];
  /** Protected names missing before the run: one that appears is set aside after it. */
  watched: string[];
  scanned: number;
  truncated: boolean;
  refused?: string;
};

/**
 * A quick test on an entry's name before the full glob: the scan stops at a matching folder, so an
 * entry can only match a pattern whose last segment matches its name (20k full globs cost a second).
 */
function nameFilter(patterns: readonly string[]): (name: string) => boolean {
  const literal = new Set<string>();
  const globs: string[] = [];
  for (const pattern of patterns) {
    const last = pattern.replace(/\/+$/, '').split('/').pop() ?? '';
    if (/[*?[\]{}()!+@]/.test(last)) globs.push(last);
    else literal.add(last);
  }
  const glob = globs.length > 0 ? picomatchLib()(globs, { dot: true }) : () => false;
  return (name) => literal.has(name) || glob(name);
}

/** The built-in protected names watched when missing (relative to the root). */
export function fixedNames(patterns: readonly string[] = DEFAULT_PROTECTED_PATHS): Placeholder[] {
  const out: Placeholder[] = [];
  for (const pattern of new Set([...ALWAYS, ...patterns])) {
    const body = pattern.replace(/^\//, '');
    // `.env*` is a glob; its plain name is what tools load.
    if (body === '.env*') out.push({ path: '.env', kind: 'file' });
    else if (/[*?[\]{}()!+@]/.test(body)) continue;
    else if (body.endsWith('/')) out.push({ path: body.replace(/\/+$/, ''), kind: 'dir' });
    else out.push({ path: body, kind: 'file', ...(body.endsWith('.json') ? { content: '{}' } : {}) });
  }
  return out;
}

/**
 * Scans `root` (breadth first, not following symbolic links, skipping node_modules) and plans the
 * mounts. `lift`: absolute real paths a person approved writing in this run.
 * Contract: never throws; an unreadable folder is skipped (its parent stays writable as before).
 */
export function planProtection(
  root: string,
  patterns: readonly string[],
  lift: readonly string[] = [],
  limit = PROTECT_SCAN_LIMIT,
  more: PlanExtras = {},
): ProtectPlan {
  const unmask = new Set(more.unmask ?? []);
  const record = more.record;
  const match = compileGlobs([...ALWAYS, ...patterns]);
  const mayMatch = nameFilter([...ALWAYS, ...patterns]);
  const lifted = lift.filter((p) => isAbsolute(p) && inside(root, p) && p !== root).map((p) => resolve(p));
  const found = new Set<string>();
  const plan: ProtectPlan = {
    pinned: [],
    readOnly: [],
    writable: [],
    placeholders: [],
    masked: [],
    watched: [],
    scanned: 0,
    truncated: false,
  };
  const protect = (path: string) => found.add(path);

  const queue: string[] = [root];
  // Folders under a secret folder (`.ssh` …), where every file is a credential.
  const secretDirs = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i] as string;
    const dirName = dir === root ? undefined : basename(dir);
    const underSecret = secretDirs.has(dir);
    let entries: Dirent[];
    record?.(dir, 'entry');
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++plan.scanned > limit) {
        plan.truncated = true;
        break;
      }
      const path = join(dir, entry.name);
      if (!entry.isDirectory()) {
        const hidden = maskOf(path, entry, dirName, underSecret, unmask, record);
        if (hidden) plan.masked.push(hidden);
      } else if (underSecret || isSecretFolder(entry.name)) secretDirs.add(path);
      const candidate = mayMatch(entry.name);
      if (!candidate && !entry.isDirectory()) continue;
      if (!candidate || match(relative(root, path).split(sep).join('/')) === undefined) {
        if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) queue.push(path);
        else if (entry.isDirectory() && exists(join(path, '.bin'), true, record)) protect(join(path, '.bin'));
        continue;
      }
      const rel = relative(root, path).split(sep).join('/');
      if (entry.isSymbolicLink()) {
        if (entry.name === '.git') {
          plan.refused = `${rel} is a symbolic link: the sandbox cannot keep a command from replacing it, so it cannot protect this repository's settings.`;
          return plan;
        }
        // The link's target is protected when it is inside the project; the link itself can be replaced.
        const target = realInside(root, path, record);
        if (target) protect(target);
        continue;
      }
      protect(path);
      if (entry.name === '.git' && entry.isFile())
        for (const gitDir of linkedGitDirs(root, path, record)) protect(gitDir);
    }
    if (plan.truncated) break;
  }

  // The fixed names and the paths git's config names: protected where they exist, watched where not.
  const missing: Placeholder[] = [];
  const named = [...fixedNames().map((n) => join(root, n.path)), ...(more.named ?? [])];
  for (const path of new Set(named)) {
    if (!inside(root, path) || path === root || lifted.some((l) => inside(l, path))) continue;
    if (exists(path, false, record)) {
      const real = realInside(root, path, record);
      if (real) protect(real);
    } else plan.watched.push(path);
  }

  // Parents first: what lies inside a read-only path is covered by it (a bind inside would make it writable again).
  for (const path of [...found].sort(byDepth)) {
    if (plan.readOnly.some((r) => inside(r, path))) continue;
    if (!lifted.some((l) => inside(l, path))) {
      plan.readOnly.push(path);
      continue;
    }
    if (!isGitDir(path, record)) continue;
    for (const name of STICKY_IN_GIT) {
      const sticky = join(path, name);
      if (exists(sticky, true, record) && !lifted.includes(sticky)) plan.readOnly.push(sticky);
    }
  }
  for (const l of lifted)
    if (plan.readOnly.some((r) => r !== l && inside(r, l))) liftInside(plan, l, missing);
  plan.placeholders = missing;
  const pins = new Set<string>();
  for (const path of plan.readOnly) {
    for (let up = dirname(path); up !== root && inside(root, up); up = dirname(up))
      if (!plan.readOnly.some((r) => inside(r, up))) pins.add(up);
  }
  plan.pinned = [...pins].sort(byDepth);
  return plan;
}

/** What else a plan takes: credential files a person approved reading, paths git's config names. */
export type PlanExtras = { unmask?: readonly string[]; named?: readonly string[]; record?: PlanRecorder };

/**
 * Hears every path the plan's answer depends on: `entry` — its metadata (a folder's listing, a file's
 * existence or type), `content` — its bytes, `real` — where it resolves. What a cache must re-check
 * (sandbox-protect-cache.ts).
 */
export type PlanRecorder = (path: string, what: 'entry' | 'content' | 'real') => void;

/**
 * The mask for a non-folder entry: a socket (no host service through it, even where seccomp is not
 * there to stop `socket()`), or a credential file by name or content — unless a person's approved
 * card named it for this run. A link is judged where it leads: its target, inside the project, is
 * an entry of its own.
 */
function maskOf(
  path: string,
  entry: Dirent,
  dirName: string | undefined,
  underSecret: boolean,
  unmask: ReadonlySet<string>,
  record?: PlanRecorder,
): SandboxMask | undefined {
  if (entry.isSymbolicLink() || unmask.has(path)) return undefined;
  if (entry.isSocket()) return { kind: 'file', path };
  if (!entry.isFile()) return undefined;
  if (isCredentialEntry(entry.name, dirName, underSecret)) return { kind: 'file', path };
  if (!mayHoldCredentialContent(entry.name)) return undefined;
  record?.(path, 'content');
  const secret = fileCredentialKind(path) !== undefined;
  return secret ? { kind: 'file', path } : undefined;
}

/** A lifted path inside a read-only folder: bound writable on top; a missing file gets a placeholder to bind. */
function liftInside(plan: ProtectPlan, path: string, missing: Placeholder[]): void {
  if (plan.writable.includes(path)) return;
  if (exists(path)) {
    plan.writable.push(path);
    return;
  }
  const parent = dirname(path);
  if (!exists(parent, true) && !missing.some((m) => m.path === parent && m.kind === 'dir')) return;
  missing.push({ path, kind: 'file' });
  plan.writable.push(path);
}

/** The git folders a `.git` file points to (`gitdir:` and that folder's `commondir`) that lie inside the project. */
function linkedGitDirs(root: string, gitFile: string, record?: PlanRecorder): string[] {
  const out: string[] = [];
  const gitDir = pointer(gitFile, /^gitdir:\s*(.+)$/m, record);
  const realGitDir = gitDir && realInside(root, resolve(dirname(gitFile), gitDir), record);
  if (!realGitDir) return out;
  out.push(realGitDir);
  const common = pointer(join(realGitDir, 'commondir'), /^(.+)$/m, record);
  const realCommon = common && realInside(root, resolve(realGitDir, common), record);
  if (realCommon) out.push(realCommon);
  return out;
}

function pointer(file: string, pattern: RegExp, record?: PlanRecorder): string | undefined {
  record?.(file, 'content');
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return pattern.exec(buf.subarray(0, n).toString('utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function realInside(root: string, path: string, record?: PlanRecorder): string | undefined {
  record?.(path, 'real');
  try {
    const real = realpathSync.native(path);
    return inside(root, real) && real !== root ? real : undefined;
  } catch {
    return undefined;
  }
}

function isGitDir(path: string, record?: PlanRecorder): boolean {
  record?.(path, 'entry');
  try {
    return path.endsWith(`${sep}.git`) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `noFollow`: the path itself exists and is not a symbolic link. */
function exists(path: string, noFollow = false, record?: PlanRecorder): boolean {
  record?.(path, 'entry');
  try {
    const s = lstatSync(path);
    return noFollow ? !s.isSymbolicLink() : true;
  } catch {
    return false;
  }
}

function byDepth(a: string, b: string): number {
  return a.split(sep).length - b.split(sep).length || (a < b ? -1 : a > b ? 1 : 0);
}
