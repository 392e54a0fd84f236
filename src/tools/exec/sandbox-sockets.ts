/**
 * Host sockets a sandboxed command must not reach. bubblewrap binds `/` read-only, but a read-only
 * mount does not stop `connect()` on a Unix socket: with `/run/docker.sock`, the session bus in
 * `/run/user/<uid>` (`systemd-run --user …`) or systemd's own socket (as root), a command in the
 * sandbox asks a service outside it to run anything, with no network and no write needed. The
 * network namespace already cuts abstract sockets; these paths hide the usual socket folders.
 * Known limit: a socket elsewhere on disk (a tool's own folder under the home) stays reachable.
 */
import { lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxMask } from './sandbox';

/** Folders that hold services' sockets: each becomes an empty tmpfs in the sandbox. */
const SOCKET_DIRS = [
  '/run/user',
  '/run/dbus',
  '/run/systemd',
  '/run/docker',
  '/run/containerd',
  '/run/podman',
  '/run/libvirt',
  '/run/snapd',
  '/var/run/dbus',
  '/var/run/docker',
  '/var/snap/lxd/common/lxd',
];
/** Socket files outside those folders: each becomes /dev/null in the sandbox. */
const SOCKET_FILES = [
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/podman.sock',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/var/lib/lxd/unix.socket',
];
/** Under the home: Docker Desktop's and rootless engines' sockets. */
const HOME_SOCKET_DIRS = ['.docker/run', '.colima', '.lima', '.rd'];

/**
 * The socket folders and files that exist here (real paths, each once), to hide in the sandbox.
 * `runtimeDir` is XDG_RUNTIME_DIR, hidden too when it lies elsewhere. Contract: never throws.
 */
export function findSocketMasks(
  home: string | undefined,
  runtimeDir: string | undefined,
  paths: { dirs: readonly string[]; files: readonly string[] } = { dirs: SOCKET_DIRS, files: SOCKET_FILES },
): SandboxMask[] {
  const dirs = [
    ...paths.dirs,
    ...(home ? HOME_SOCKET_DIRS.map((rel) => join(home, rel)) : []),
    ...(runtimeDir ? [runtimeDir] : []),
  ];
  const masks: SandboxMask[] = [];
  const add = (mask: SandboxMask) => {
    if (!masks.some((m) => m.path === mask.path)) masks.push(mask);
  };
  for (const path of dirs) {
    const real = realIf(path, (s) => s.isDirectory());
    if (real) add({ kind: 'dir', path: real });
  }
  for (const path of paths.files) {
    const real = realIf(path, (s) => s.isSocket() || s.isFile());
    // Inside a folder already hidden, a second mount would fail: its mount point is gone.
    if (real && !masks.some((m) => m.kind === 'dir' && real.startsWith(`${m.path}/`)))
      add({ kind: 'file', path: real });
  }
  return masks;
}

function realIf(path: string, test: (s: Stats) => boolean): string | undefined {
  try {
    lstatSync(path);
    const real = realpathSync(path);
    return test(statSync(real)) ? real : undefined;
  } catch {
    return undefined;
  }
}
