import { spawn } from 'node:child_process';
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

/** A path hidden inside the sandbox: a folder becomes an empty tmpfs, a file becomes /dev/null (reads empty). */
export type SandboxMask = { kind: 'dir' | 'file'; path: string };

// Without a protection plan (the probe), these stay read-only: hooks and config run code outside the sandbox later.
const READ_ONLY_IN_PROJECT = ['.git/hooks', '.git/config', '.warden'];
// Credentials under $HOME that a command has no business reading (their contents would reach the model).
const SECRET_HOME_PATHS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.config/gcloud',
  '.config/gh',
  '.git-credentials',
];

/** The mounts of a protection plan (see `planProtection`): absolute paths inside the project. */
export type ProtectMounts = {
  pinned: readonly string[];
  readOnly: readonly string[];
  writable: readonly string[];
};

/** The layout every sandbox starts from: `/` read-only, fresh /dev and /proc, a private /tmp, `writable` bound read-write. */
export function bwrapBaseArgs(writable: string): string[] {
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    writable,
    writable,
  ];
}

/**
 * bubblewrap argv (before the command): root read-only, fresh /dev, /proc and private /tmp, the project
 * writable except its protected paths (`protect`; without one, .git/hooks, .git/config and .warden),
 * network and PID namespaces unshared, dies with its parent, and no capabilities even when run as root
 * (with them, `umount` would undo every read-only mount).
 * No `--new-session`: the caller already runs bwrap in its own session (detached, so no terminal to hijack),
 * and a new session inside would escape the process-group kill.
 */
export function bwrapArgs(
  root: string,
  cwd: string,
  masks: readonly SandboxMask[] = [],
  protect?: ProtectMounts,
): string[] {
  const args = bwrapBaseArgs(root);
  if (protect) {
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
  for (const mask of masks) {
    // A mask over the project itself (say, a demo project under WARDEN_HOME) would hide the work.
    if (isInside(root, mask.path)) continue;
    if (mask.kind === 'dir') args.push('--tmpfs', mask.path);
    else args.push('--dev-bind', '/dev/null', mask.path);
  }
  if (process.getuid?.() === 0) args.push('--cap-drop', 'ALL');
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

/** The credential folders and files that exist under `home` (and WARDEN_HOME), to hide in the sandbox. */
export function findSecretMasks(home: string | undefined, wardenHome?: string): SandboxMask[] {
  const candidates = [
    ...(home ? SECRET_HOME_PATHS.map((rel) => join(home, rel)) : []),
    ...(wardenHome ? [wardenHome] : []),
  ];
  const masks: SandboxMask[] = [];
  for (const path of candidates) {
    try {
      const s = statSync(path);
      if (s.isDirectory()) masks.push({ kind: 'dir', path: realpathSync(path) });
      else if (s.isFile()) masks.push({ kind: 'file', path: realpathSync(path) });
    } catch {
      // Absent: nothing to hide.
    }
  }
  return masks;
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
) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** How long the probe may take before the sandbox counts as unavailable. */
const PROBE_TIMEOUT_MS = 5000;

// node:child_process rather than execa: the probe runs before the first screen, and execa's first
// call costs ~25 ms of start-up (profiled, issue 16). Its stderr goes to a file, not a pipe: the
// first pipe of a process sets up a stream (~2-6 ms of main thread, measured), the file costs an open.
const defaultProbe: SandboxProbe = (bwrap, args, scratch) =>
  new Promise((resolve) => {
    const errorFile = join(scratch, 'stderr');
    const fd = openSync(errorFile, 'wx', 0o600);
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', fd], timeout: PROBE_TIMEOUT_MS });
    } finally {
      closeSync(fd);
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
    const verdict = await (options.probe ?? defaultProbe)(bwrap, [...bwrapArgs(root, root), 'true'], scratch);
    if (!verdict.ok)
      return { kind: 'none', reason: `bwrap at ${bwrap} cannot create a sandbox here: ${verdict.reason}` };
    return { kind: 'bwrap', path: bwrap };
  } catch (err) {
    return {
      kind: 'none',
      reason: `bwrap probe failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    // Off the main thread: right after bwrap exits, removing its root can wait on the kernel for a few
    // milliseconds (its mount namespace going away), which held up the first screen (profiled, issue 16).
    if (scratch) await rm(scratch, { recursive: true, force: true }).catch(() => {});
  }
}
