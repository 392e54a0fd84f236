import { posix } from 'node:path';
import { programName } from './command-programs';
import { isDynamic } from './command-words';

/**
 * The working directory each part of a line runs in, as far as the words show: `''` is the
 * command's own cwd, `'src'` is relative to it, `/x` and `~/x` are absolute, `null` is unknown
 * (`cd "$D"`, `cd -`, `popd`). A `cd` inside a subshell, pipeline stage or substitution moves
 * only that subshell.
 */
export class CwdTracker {
  private readonly byShell = new Map<string, string | null>();

  /** The directory a part in this subshell starts in. */
  at(shell: readonly number[]): string | null {
    for (let n = shell.length; n >= 0; n--) {
      const key = shell.slice(0, n).join('.');
      const found = this.byShell.get(key);
      if (found !== undefined || this.byShell.has(key)) return found ?? null;
    }
    return '';
  }

  /** Follows `cd`, `pushd` and `popd`; any other command leaves the directory as it was. */
  follow(shell: readonly number[], argv: readonly string[]): void {
    const name = programName(argv[0]);
    if (name !== 'cd' && name !== 'pushd' && name !== 'popd') return;
    const key = shell.join('.');
    if (name === 'popd') {
      this.byShell.set(key, null);
      return;
    }
    const target = argv.slice(1).find((a) => !/^-[LPe@]+$/.test(a) && a !== '--') ?? '~';
    this.byShell.set(key, target === '-' || isDynamic(target) ? null : joinDir(this.at(shell), target));
  }
}

/** `path` joined onto `cwd`; absolute and `~` paths stand alone; null when `cwd` is unknown. */
export function joinDir(cwd: string | null, path: string): string | null {
  if (path.startsWith('/')) return posix.normalize(path);
  if (path === '~' || path.startsWith('~/')) return home(path.slice(1));
  if (path.startsWith('~')) return path;
  if (cwd === null) return null;
  if (cwd === '~' || cwd.startsWith('~/')) return home(posix.join(cwd.slice(1), path));
  const joined = posix.normalize(posix.join(cwd, path)).replace(/(.)\/$/, '$1');
  return joined === '.' ? '' : joined;
}

/** `~` followed by a normalised rest; `~/..` keeps its `..` so the rules still see the home's parent. */
function home(rest: string): string {
  const normal = posix.normalize(`/${rest}`).replace(/(.)\/$/, '$1');
  if (rest.split('/').includes('..') && normal === '/') return '~/..';
  return normal === '/' ? '~' : `~${normal}`;
}

/** The directory the hard rules resolve operands against: only absolute or home directories count. */
export const ruleCwd = (cwd: string | null): string | undefined =>
  cwd !== null && (cwd.startsWith('/') || cwd.startsWith('~')) ? cwd : undefined;
