import { type StdioOptions, spawn } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, relative, sep } from 'node:path';
import type { SandboxInfo } from '../types';
import type { SandboxMask } from './sandbox-paths';
import { type HostView, hostView } from './sandbox-view';
import { type SandboxState, sandboxState } from './sandbox-state';

export type { SandboxMask } from './sandbox-paths';

// Without a protection plan (the probe), these stay read-only: hooks and config run code outside the sandbox later.
const READ_ONLY_IN_PROJECT = ['.git/hooks', '.git/config', '.warden'];

/** The mounts of a protection plan (see `planProtection`): absolute paths inside the project. */
export type ProtectMounts = {
  pinned: readonly string[];
  readOnly: readonly string[];
  writable: readonly string[];
};

/** What a sandbox is built from besides the project: the host view and the state folder's files. */
export type SandboxLayout = { view: HostView; state: SandboxState };

/** The layout for this process's environment (HOME, WARDEN_HOME, PATH) and `readPaths`. Contract: throws when the state folder cannot be made. */
export function defaultLayout(root: string, readPaths: readonly string[] = []): SandboxLayout {
  const state = sandboxState(process.env.HOME);
  const view = hostView({
    root,
    ...(process.env.HOME ? { home: process.env.HOME } : {}),
    ...(process.env.WARDEN_HOME ? { wardenHome: process.env.WARDEN_HOME } : {}),
    ...(process.env.PATH ? { pathEnv: process.env.PATH } : {}),
    readPaths,
    state,
  });
  return { view, state };
}

/**
 * The host view with the project bound read-write (read-only with `projectReadOnly`): what every
 * sandbox starts from, before the project's protections.
 */
export function bwrapBaseArgs(
  project: string,
  layout: SandboxLayout = defaultLayout(project),
  projectReadOnly = false,
): string[] {
  return [...layout.view.args, projectReadOnly ? '--ro-bind' : '--bind', project, project];
}

/** The file descriptor bubblewrap reads the seccomp filter from (the runner opens it there). */
export const SECCOMP_FD = 3;

/**
 * bubblewrap argv (before the command): the host view (sandbox-view.ts: system folders read-only, a
 * private /tmp and home, nothing else of the host), the project writable except its protected paths
 * (`protect`; without one, .git/hooks, .git/config and .warden), `masks` hidden (credential files,
 * sockets, WARDEN_HOME inside the project), network, PID, IPC and UTS namespaces unshared, no Unix
 * sockets (the seccomp filter, when `layout.state.seccomp` is read on fd 3), dies with its parent, and
 * no capabilities even when run as root (with them, `umount` would undo every read-only mount).
 * No `--new-session`: the caller already runs bwrap in its own session (detached, so no terminal to hijack),
 * and a new session inside would escape the process-group kill.
 * `projectReadOnly` (a command judged read-only, src/gate/read-only-run.ts): the whole project read-only,
 * so none of `protect`'s mounts apply (its pinned and writable binds would make parts writable again);
 * the masks still do.
 */
export function bwrapArgs(
  root: string,
  cwd: string,
  masks: readonly SandboxMask[] = [],
  protect?: ProtectMounts,
  layout: SandboxLayout = defaultLayout(root),
  projectReadOnly = false,
): string[] {
  const args = bwrapBaseArgs(root, layout, projectReadOnly);
  if (projectReadOnly) {
    // Everything under the root is read-only already.
  } else if (protect) {
    // Parents before what is inside them; a pinned folder is never inside a read-only one.
    const mounts = [
      ...protect.pinned.map((path) => ({ path, flag: '--bind' })),
      ...protect.readOnly.map((path) => ({ path, flag: '--ro-bind' })),
    ];
    mounts.sort((a, b) => depth(a.path) - depth(b.path));
    for (const m of mounts) args.push(m.flag, m.path, m.path);
    for (const path of protect.writable) args.push('--bind', path, path);
  } else {
    for (const rel of READ_ONLY_IN_PROJECT) args.push('--ro-bind-try', join(root, rel), join(root, rel));
  }
  for (const m of masks) {
    // A mask over the project itself (say, a demo project under WARDEN_HOME) would hide the work.
    if (isInside(root, m.path)) continue;
    args.push('--ro-bind', m.kind === 'dir' ? layout.state.emptyDir : layout.state.emptyFile, m.path);
  }
  if (process.getuid?.() === 0) args.push('--cap-drop', 'ALL');
  if (layout.state.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  args.push(
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--chdir',
    cwd,
  );
  return args;
}

function depth(path: string): number {
  return path.split(sep).length;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * WARDEN_HOME, hidden when it lies where commands can see it (the project, a folder of the view):
 * sessions and the audit log of every project are in it.
 */
export function wardenHomeMasks(wardenHome: string | undefined): SandboxMask[] {
  if (!wardenHome) return [];
  try {
    const s = statSync(wardenHome);
    return s.isDirectory() ? [{ kind: 'dir', path: realpathSync(wardenHome) }] : [];
  } catch {
    return [];
  }
}

/** Finds an executable on PATH. */
export function findOnPath(name: string, pathEnv: string | undefined = process.env.PATH): string | undefined {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

export type SandboxProbe = (
  bwrap: string,
  args: string[],
  /** A private folder outside the probe's sandbox root, for what the probe needs to keep (its stderr). */
  scratch: string,
  /** The seccomp filter's file, to open on fd 3 when `args` ask for it. */
  seccomp?: string,
) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** How long the probe may take before the sandbox counts as unavailable. */
const PROBE_TIMEOUT_MS = 5000;

// node:child_process rather than execa: the probe runs before the first screen, and execa's first
// call costs ~25 ms of start-up (profiled). Its stderr goes to a file, not a pipe: the
// first pipe of a process sets up a stream (~2-6 ms of main thread, measured), the file costs an open.
const defaultProbe: SandboxProbe = (bwrap, args, scratch, seccomp) =>
  new Promise((resolve) => {
    const errorFile = join(scratch, 'stderr');
    const fd = openSync(errorFile, 'wx', 0o600);
    const filter = seccomp ? openSync(seccomp, 'r') : undefined;
    let child: ReturnType<typeof spawn>;
    try {
      const stdio: StdioOptions =
        filter === undefined ? ['ignore', 'ignore', fd] : ['ignore', 'ignore', fd, filter];
      child = spawn(bwrap, args, { stdio, timeout: PROBE_TIMEOUT_MS });
    } finally {
      closeSync(fd);
      if (filter !== undefined) closeSync(filter);
    }
    child.once('error', (err) => resolve({ ok: false, reason: err.message }));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve({ ok: true });
      const detail = firstLine(errorFile);
      const ended = signal ? `timed out or killed (${signal})` : `exit code ${code}`;
      resolve({ ok: false, reason: detail || ended });
    });
  });

/** The first line of what the probe wrote to stderr (at most 4 KiB read); empty when there is none. */
function firstLine(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(0, 4096).trim().split('\n')[0] ?? '';
  } catch {
    return '';
  }
}

/**
 * Decides once per session whether commands can run under bubblewrap: bwrap must be on PATH and a probe
 * with the exact flags `bwrapArgs` uses must succeed here (user namespaces can be disabled).
 * Contract: never throws; anything short of a working sandbox is `{kind:'none', reason}`.
 */
export async function detectSandbox(
  options: { pathEnv?: string; probe?: SandboxProbe; platform?: NodeJS.Platform } = {},
): Promise<SandboxInfo> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux')
    return { kind: 'none', reason: `bubblewrap sandboxing needs Linux (this is ${platform})` };
  const bwrap = findOnPath('bwrap', options.pathEnv ?? process.env.PATH);
  if (!bwrap) return { kind: 'none', reason: 'bubblewrap (bwrap) is not installed' };
  let scratch: string | undefined;
  try {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'warden-sandbox-probe-')));
    // The sandbox's root is a folder of its own, so the probe's stderr file stays outside it.
    const root = join(scratch, 'root');
    mkdirSync(root);
    const layout = defaultLayout(root);
    const verdict = await (options.probe ?? defaultProbe)(
      bwrap,
      [...bwrapArgs(root, root, [], undefined, layout), 'true'],
      scratch,
      layout.state.seccomp,
    );
    if (!verdict.ok)
      return { kind: 'none', reason: `bwrap at ${bwrap} cannot create a sandbox here: ${verdict.reason}` };
    return { kind: 'bwrap', path: bwrap };
  } catch (err) {
    return {
      kind: 'none',
      reason: `bwrap probe failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    // Off the main thread and not waited for: right after bwrap exits, removing its root can wait on the
    // kernel (its mount namespace going away), and each of rm's steps waits for a turn of a busy event
    // loop: awaited, it held up a given prompt's request by ~20-70 ms behind the start-up's warm-ups
    // (profiled, issue 34). The verdict does not depend on it.
    if (scratch) void rm(scratch, { recursive: true, force: true }).catch(() => {});
  }
}
