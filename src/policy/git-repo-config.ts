/**
 * Whether a repository's own config can make `git status|diff|log|show` run a program.
 * The run's environment already turns fsmonitor off and takes no optional locks (so status writes no
 * index and no post-index-change hook runs: src/tools/exec/git-run-env.ts), pagers never start
 * without a terminal, and the sandbox hides the person's global config. What is left is what the
 * repository's config names: textconv and external diff drivers, clean/smudge/process filters, an
 * external diff, signature checks (`log.showSignature` runs gpg.program), and includes (another
 * file could name any of those). Read as text, never by running git in the stranger's repository.
 * qwen-code does the same: it reads the repository config and downgrades only the affected command.
 */
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** A config larger than this is not read: it counts as one that runs programs. */
const MAX_CONFIG_BYTES = 256 * 1024;

/** Keys (lower case, `section.sub.key` with the subsection elided to `*`) that name a program to run. */
const RUNS = [
  /^diff\.\*\.(textconv|command)$/,
  /^diff\.external$/,
  /^filter\.\*\.(clean|smudge|process)$/,
  /^log\.showsignature$/,
  /^include\.path$/,
  /^includeif\.\*\.path$/,
  /^core\.worktree$/,
];

/**
 * Why git in `cwd` (absolute, inside `root`) could run a program its config names, or undefined when
 * it cannot. Contract: never throws; a repository it cannot read counts as one that runs programs.
 */
export function gitConfigRuns(cwd: string, root: string): string | undefined {
  const gitDirs = findGitDirs(cwd, root);
  if (gitDirs === undefined) return undefined; // no repository: git reads no config of one
  if (gitDirs === null) return 'its .git could not be read';
  for (const dir of gitDirs) {
    for (const name of ['config', 'config.worktree']) {
      const text = readSmall(join(dir, name));
      if (text === null) return `its ${name} could not be read`;
      const key = runningKey(text ?? '');
      if (key) return `the repository's config sets ${key}, which runs a program`;
    }
  }
  return undefined;
}

/** The first program-naming key of a git config text, as `section.key`. */
function runningKey(text: string): string | undefined {
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)$/.exec(line);
    if (head) {
      // `[diff "x"]` and the old `[diff.x]` are both section diff, subsection x.
      const name = (head[1] as string).toLowerCase();
      const dot = name.indexOf('.');
      section = dot >= 0 ? `${name.slice(0, dot)}.*` : `${name}${/"/.test(line) ? '.*' : ''}`;
      // `[section] key = value` on one line
      if (head[2] && !checkKey(section, head[2])) continue;
      if (head[2]) return `${section}.${keyOf(head[2])}`;
      continue;
    }
    if (line.startsWith('[')) return 'a section warden cannot read';
    if (checkKey(section, line)) return `${section}.${keyOf(line)}`;
  }
  return undefined;
}

const keyOf = (line: string): string => (/^([A-Za-z0-9-]+)/.exec(line)?.[1] ?? '').toLowerCase();

/** True when `section.key` of this line names a program (`core.fsmonitor = false` does not). */
function checkKey(section: string, line: string): boolean {
  const name = `${section}.${keyOf(line)}`;
  if (!RUNS.some((r) => r.test(name))) return false;
  const value = line.includes('=')
    ? line
        .slice(line.indexOf('=') + 1)
        .trim()
        .replace(/^"|"$/g, '')
    : 'true';
  if (name === 'log.showsignature') return !/^(false|no|off|0|)$/i.test(value);
  return true;
}

/**
 * The git directories whose config git reads in `cwd` (a worktree's own and its common one): git looks
 * upwards past the project's root too. Undefined when there is none, null when one cannot be read.
 */
function findGitDirs(cwd: string, _root: string): string[] | null | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, '.git');
    let st: ReturnType<typeof lstatSync> | undefined;
    try {
      st = lstatSync(candidate);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return [candidate];
    if (st?.isFile()) {
      const text = readSmall(candidate);
      const target = text ? /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1] : undefined;
      if (!target) return null;
      // A worktree's or submodule's git dir: its config is the common dir's, plus its own.
      const path = isAbsolute(target) ? target : resolve(dir, target);
      const common = readSmall(join(path, 'commondir'));
      return common ? [path, resolve(path, common.trim())] : [path];
    }
    if (st) return null;
    if (dirname(dir) === dir) return undefined;
  }
}

/** A small file's text; undefined when absent; null when unreadable or too large. */
function readSmall(path: string): string | undefined | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return n > MAX_CONFIG_BYTES ? null : buf.subarray(0, n).toString('utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
