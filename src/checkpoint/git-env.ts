/**
 * The environment and configuration every shadow-git call runs with. The work tree is a stranger's
 * project: nothing in it, in the person's git configuration or in the ambient environment may make
 * this git run a program. So: a fresh environment (PATH only, plus ours; simple-git strips every other
 * GIT_* variable), no system or global config, HOME pointing at an empty folder, the repository's own
 * config written by warden (no hooks, no fsmonitor, no gc), and attributes that switch off every
 * filter and line-ending conversion (a project's .gitattributes could name a filter driver, or ask
 * for CRLF conversion that would make a restored file differ from the saved one).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The variables warden sets for its own git; simple-git refuses any other GIT_* key. */
export const GIT_ENV_KEYS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_GLOBAL',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_DATE',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'GIT_NO_REPLACE_OBJECTS',
] as const;

/** The repository config warden writes (and writes again on every open). */
const CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
\thooksPath = /dev/null
\tuntrackedCache = true
\tsplitIndex = false
\tquotePath = false
\tprecomposeUnicode = false
\tattributesFile = /dev/null
\texcludesFile = /dev/null
[gc]
\tauto = 0
[maintenance]
\tauto = false
[commit]
\tgpgSign = false
[index]
\tversion = 4
[advice]
\taddEmbeddedRepo = false
\taddIgnoredFile = false
[feature]
\tmanyFiles = false
`;

/** Highest-precedence attributes: no filter, no text/eol conversion, no encoding change — bytes in, bytes out. */
const ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding -diff -merge -export-subst\n';

/**
 * The only ignore rules of the shadow repository (a project's own .gitignore is never read there):
 * git's folder, warden's temp files, and installed dependencies, which a reinstall brings back and
 * which would make every checkpoint slow.
 */
export const WARDEN_EXCLUDES = ['/.git', '*.warden-tmp', '*.warden-revert-*', 'node_modules/'] as const;

/** Writes the shadow repository's config, attributes and excludes. `exclude`: extra root-relative paths (WARDEN_HOME inside the project). */
export function writeRepoSettings(gitDir: string, exclude: readonly string[]): void {
  mkdirSync(join(gitDir, 'info'), { recursive: true, mode: 0o700 });
  writeFileSync(join(gitDir, 'config'), CONFIG, { mode: 0o600 });
  writeFileSync(join(gitDir, 'info', 'attributes'), ATTRIBUTES, { mode: 0o600 });
  const lines = [...WARDEN_EXCLUDES, ...exclude.map((p) => `/${p}`)];
  writeFileSync(join(gitDir, 'info', 'exclude'), `${lines.join('\n')}\n`, { mode: 0o600 });
}

/** The environment of every shadow-git call: nothing inherited but PATH. */
export function gitEnv(gitDir: string, root: string, emptyHome: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: emptyHome,
    XDG_CONFIG_HOME: emptyHome,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_DIR: gitDir,
    GIT_WORK_TREE: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'warden',
    GIT_AUTHOR_EMAIL: 'warden@localhost',
    GIT_COMMITTER_NAME: 'warden',
    GIT_COMMITTER_EMAIL: 'warden@localhost',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
  };
}

/** The git binary on PATH, or undefined. A file lookup, not a spawn: start-up stays fast. */
export function findGit(path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'git');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
