import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { compileGlobs } from '../glob';

/**
 * Paths inside the fence that stay writable but are always flagged high-risk (and read-only to a
 * sandboxed command). Besides git's and warden's own settings and the lock files: what runs or
 * instructs later, outside the sandbox, without the person running the project's code — AGENTS.md
 * (every later session's system prompt), commit hooks husky installs, editor tasks and dev-container
 * commands (run when the folder opens), and the project configs of build tools, other version-control
 * systems and other agents that name a program to run.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.git/',
  '.warden/',
  '.github/workflows/',
  'AGENTS.md',
  '.husky/',
  '.vscode/',
  '.devcontainer/',
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'Gemfile.lock',
  'composer.lock',
  'go.sum',
  '.env*',
  // What the person's own package managers and hook runners read and run later:
  // `.npmrc` can set node-options, a yarnPath runs a file in .yarn/releases, a hook runner's config
  // names the commands it starts at the next commit, direnv runs .envrc on cd.
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.yarn/releases/',
  '.yarn/plugins/',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  '.lintstagedrc*',
  'lint-staged.config.*',
  '.huskyrc*',
  '.simple-git-hooks.*',
  '.envrc',
  'mise.toml',
  '.mise.toml',
  '.gitattributes',
  '.gitmodules',
  // Build tools that run what their project config names: cargo's `build.rustc-wrapper` and
  // `target.*.runner`, rustup's toolchain `path`, a Gradle or Maven wrapper's download URL and script,
  // bun's `preload`, Bundler's paths.
  '.cargo/config',
  '.cargo/config.toml',
  'rust-toolchain',
  'rust-toolchain.toml',
  'gradlew',
  'gradlew.bat',
  'gradle/wrapper/',
  'mvnw',
  'mvnw.cmd',
  '.mvn/',
  'bunfig.toml',
  '.bundle/',
  '.tool-versions',
  // Other version-control systems' hooks, editors' run configurations and other agents' settings
  // (Claude Code, Gemini CLI, Codex and qwen-code run hooks and MCP servers named there).
  '.hg/',
  '.jj/',
  '.idea/',
  '.exrc',
  '.nvim.lua',
  '.nvimrc',
  '.claude/',
  '.gemini/',
  '.codex/',
  '.qwen/',
  '.mcp.json',
];

const MAX_PATH_LENGTH = 4096;

/**
 * Protected-path matching ignores case on every system: macOS and Windows file systems fold case by
 * default, and so can a folder on Linux (ext4 or tmpfs casefold, vfat/exFAT drives, a Windows folder
 * under WSL) — there `.GIT/hooks/pre-commit` *is* the hooks folder, and a change of case would walk
 * past an exact match. On a file system that keeps case the cost is a card for `.Git/x`, which is not
 * git's; the sandbox's read-only mounts follow the real folders whatever the spelling.
 */
const CASE_INSENSITIVE_DEFAULT = true;

export type PathFenceOptions = {
  caseInsensitive?: boolean;
  /**
   * Folders no tool may read or write whatever the root (absolute): warden's own home, which holds every
   * project's sessions and audit log. One that holds the root itself does not count.
   */
  hidden?: readonly string[];
  /**
   * The managed folder (`/etc/warden`): its policy is what no tool call may change, so no tool reads
   * or writes there, wherever it lies (absolute). One that holds the root does not count.
   */
  managed?: readonly string[];
  /**
   * Files no tool call and no command may write, whatever a person, a rule or a grant says: the files a
   * hook runs and the config naming them (a hook runs outside the sandbox). Project-relative; they are
   * protected paths too (read-only in the sandbox).
   */
  sealed?: readonly string[];
};

export type PathVerdict =
  | {
      ok: true;
      /** Absolute path with every existing ancestor's symlinks resolved: use this, not the input. */
      path: string;
      /** Relative to the root, `/`-separated; '' for the root itself. */
      relative: string;
      /** The protected-path pattern that matched, if any. */
      protectedBy?: string;
      /** The sealed path that matched: no write may reach it (see `PathFenceOptions.sealed`). */
      sealedBy?: string;
    }
  | { ok: false; ruleId: 'path-fence' | 'path-invalid'; reason: string };

/**
 * The path fence: every path a tool touches must resolve inside the project root.
 * Contract: `check` never throws; anything it cannot prove inside is refused with a reason.
 */
export class PathFence {
  readonly root: string;
  /** The protected-path patterns in force (defaults plus config); the sandbox mounts what they match read-only. */
  readonly protectedPatterns: readonly string[];
  private readonly protectedMatch: (relative: string) => string | undefined;
  private readonly sealedMatch: (relative: string) => string | undefined;

  constructor(
    root: string,
    protectedPaths: readonly string[] = DEFAULT_PROTECTED_PATHS,
    options: PathFenceOptions = {},
  ) {
    this.root = realpathSync.native(resolve(root));
    const sealed = options.sealed ?? [];
    this.protectedPatterns = [...protectedPaths, ...sealed];
    const caseInsensitive = options.caseInsensitive ?? CASE_INSENSITIVE_DEFAULT;
    this.protectedMatch = memoised(protectedMatcher(this.protectedPatterns, caseInsensitive));
    this.sealedMatch =
      sealed.length > 0 ? memoised(protectedMatcher(sealed, caseInsensitive)) : () => undefined;
    const realFolders = (list: readonly string[] | undefined) =>
      (list ?? [])
        .map((h) => realPathOfNearestAncestor(resolve(h)))
        .flatMap((r) => ('path' in r ? [r.path] : []))
        .filter((h) => !within(h, this.root));
    this.hidden = realFolders(options.hidden);
    this.managed = realFolders(options.managed);
  }

  private readonly hidden: readonly string[];
  private readonly managed: readonly string[];

  check(input: string): PathVerdict {
    const invalid = describeInvalid(input);
    if (invalid) return { ok: false, ruleId: 'path-invalid', reason: invalid };
    const real = realPathOfNearestAncestor(resolve(this.root, input));
    if ('error' in real) return { ok: false, ruleId: 'path-fence', reason: `${input}: ${real.error}` };
    const rel = relative(this.root, real.path);
    const segments = rel === '' ? [] : rel.split(sep);
    if (isAbsolute(rel) || segments[0] === '..') {
      return {
        ok: false,
        ruleId: 'path-fence',
        reason: `${input} resolves to ${real.path}, outside the project ${this.root}.`,
      };
    }
    const managedBy = this.managed.find((h) => within(h, real.path));
    if (managedBy !== undefined)
      return {
        ok: false,
        ruleId: 'path-fence',
        reason: `${input} is inside the managed policy folder (${managedBy}): nothing an agent runs may change or read the policy set for this machine.`,
      };
    const hiddenBy = this.hidden.find((h) => within(h, real.path));
    if (hiddenBy !== undefined)
      return {
        ok: false,
        ruleId: 'path-fence',
        reason: `${input} is inside warden's own home (${hiddenBy}), which holds the sessions and audit log of every project: no tool reads or writes there.`,
      };
    const relPosix = segments.join('/');
    const protectedBy = relPosix === '' ? undefined : this.protectedMatch(relPosix);
    const sealedBy = protectedBy === undefined ? undefined : this.sealedMatch(relPosix);
    return {
      ok: true,
      path: real.path,
      relative: relPosix,
      ...(protectedBy ? { protectedBy } : {}),
      ...(sealedBy ? { sealedBy } : {}),
    };
  }
}

/**
 * A protected-path match remembered per relative path: the patterns are fixed for a fence's life (new
 * settings build a new fence), so the answer for a path never changes, and a burst of calls on the
 * same few files ran the globs once per call (profiled). Bounded.
 */
function memoised(match: (relative: string) => string | undefined): (relative: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (relative) => {
    if (known.has(relative)) return known.get(relative);
    const found = match(relative);
    if (known.size >= 4096) known.clear();
    known.set(relative, found);
    return found;
  };
}

/** Matches protected patterns, folding case when the file system does; reports the pattern as given. */
/** True when `path` is `folder` or inside it, by path segments. */
function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function protectedMatcher(
  patterns: readonly string[],
  caseInsensitive: boolean,
): (relative: string) => string | undefined {
  if (!caseInsensitive) return compileGlobs(patterns);
  const original = new Map(patterns.map((p) => [p.toLowerCase(), p]));
  const match = compileGlobs([...original.keys()]);
  return (relative) => {
    const found = match(relative.toLowerCase());
    return found === undefined ? undefined : original.get(found);
  };
}

function describeInvalid(input: string): string | undefined {
  if (typeof input !== 'string' || input.trim() === '') return 'The path is empty.';
  if (input.includes('\0')) return 'The path contains a NUL byte.';
  if (input.startsWith('~'))
    return `"${input}" starts with ~, which is not expanded: give a path inside the project.`;
  if (input.length > MAX_PATH_LENGTH)
    return `The path is ${input.length} characters long (limit ${MAX_PATH_LENGTH}).`;
  return undefined;
}

/** Real path of the nearest existing ancestor (symlinks followed) with the missing rest appended. */
function realPathOfNearestAncestor(absolute: string): { path: string } | { error: string } {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      // The native call also returns each existing name in its on-disk case (macOS, Windows).
      const real = realpathSync.native(current);
      // A real path is already normalised: `join` is needed only to append the missing rest.
      return { path: missing.length === 0 ? real : join(real, ...missing.reverse()) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return { error: 'a symbolic link loop.' };
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        return { error: `cannot be resolved (${code ?? 'unknown error'}).` };
      if (isDanglingLink(current))
        return { error: `${current} is a symbolic link whose target does not exist; it cannot be checked.` };
      const parent = dirname(current);
      if (parent === current) return { error: 'no part of the path exists.' };
      missing.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
