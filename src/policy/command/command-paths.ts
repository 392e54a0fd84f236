import { posix } from 'node:path';
import { isDynamic } from './command-words';

/** Top-level directories whose loss breaks the machine or other users' data. */
const SYSTEM_DIRS: ReadonlySet<string> = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'nix',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'snap',
  'srv',
  'sys',
  'tmp',
  'usr',
  'var',
  'Applications',
  'Library',
  'System',
  'Users',
  'Volumes',
  'private',
  'cores',
]);
/** Parents of home directories: `/home/ann` is a whole home. */
const HOME_PARENTS: ReadonlySet<string> = new Set(['home', 'Users']);
/** Devices that are safe to write to: not disks. */
const SAFE_DEVICES =
  /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+|shm(\/.*)?)$/;

const hasGlob = (segment: string): boolean => /[*?[]/.test(segment) || isDynamic(segment);

/**
 * True when deleting (or chmod-ing) this path recursively would wreck the system or a home:
 * `/`, `/*`, `/etc`, `/usr/lib`, `/home/ann`, `~`, `~/`, `~/*`, `~ann`. Lexical only: the guard
 * judges the words of a command, and `rm -rf ./build` or `build/` must pass.
 */
export function isCriticalPath(value: string): boolean {
  if (value.startsWith('~')) return isHomeRoot(value);
  if (!value.startsWith('/')) return false;
  const segments = posix
    .normalize(value)
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  const [first, second] = segments;
  if (first === undefined) return true;
  if (segments.length === 1) return SYSTEM_DIRS.has(first) || hasGlob(first);
  if (segments.length === 2 && second !== undefined) {
    if (HOME_PARENTS.has(first) || first === 'usr') return true;
    return SYSTEM_DIRS.has(first) && first !== 'tmp' && hasGlob(second);
  }
  return false;
}

/** `~`, `~/`, `~/*`, `~/.*`, `~ann`, `~/..`: a home directory itself or everything in it. */
function isHomeRoot(value: string): boolean {
  const slash = value.indexOf('/');
  const rest = slash < 0 ? '' : value.slice(slash);
  const segments = posix
    .normalize(`/${rest}`)
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  // `~/..` normalises to `/`, which is the home's parent: at least as bad.
  if (rest.split('/').includes('..') && segments.length <= 1) return true;
  return segments.length === 0 || (segments.length === 1 && hasGlob(segments[0] as string));
}

/** True for device files that are disks, memory or anything but the harmless few (`/dev/null`, `/dev/tty`…). */
export function isDevicePath(value: string): boolean {
  const path = posix.normalize(value);
  return path.startsWith('/dev/') && !SAFE_DEVICES.test(path);
}

/**
 * Resolves a relative operand against a working directory the line itself set (`cd / && rm -rf *`).
 * Without a known directory, or for an absolute or `~` operand, the operand is returned as is.
 */
export function resolveAgainst(cwd: string | undefined, operand: string): string {
  if (cwd === undefined || operand.startsWith('/') || operand.startsWith('~')) return operand;
  if (cwd.startsWith('/')) return posix.join(cwd, operand);
  if (cwd !== '~' && !cwd.startsWith('~/')) return operand;
  const inHome = posix.join('/', cwd.slice(1), operand);
  return inHome === '/' ? '~' : `~${inHome}`;
}
