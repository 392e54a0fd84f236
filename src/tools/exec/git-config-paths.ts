/**
 * The files inside the project that the repository's own git config makes git run or read later:
 * `core.hooksPath=.githooks`, an `include.path` to a tracked `.gitconfig`, a
 * `core.fsmonitor` script, a diff driver's textconv… A command that appends to one of them runs code
 * at the person's next `git status` or `git commit`, outside any sandbox. The sandbox keeps each of
 * them read-only like `.git` (or watches it when missing).
 *
 * The config is read by git itself (`git config --local --list --show-origin --includes`), so
 * includes and `includeIf` resolve as git resolves them, in the hostile-repo-safe way the checkpoints
 * use: no system or global config, an empty HOME, no terminal. `git config` runs no hook, fsmonitor or
 * filter. The answer is kept while every file it came from is unchanged.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { inside } from './sandbox-paths';

/** Keys (lowercased last part) whose value is a path or a command git starts. */
const PATH_KEYS = new Set([
  'hookspath',
  'fsmonitor',
  'sshcommand',
  'editor',
  'pager',
  'askpass',
  'attributesfile',
  'excludesfile',
  'gitproxy',
  'path',
  'external',
  'command',
  'textconv',
  'clean',
  'smudge',
  'process',
  'driver',
  'helper',
  'program',
  'template',
  'templatedir',
  'cmd',
  'uploadpack',
  'receivepack',
  'packobjectshook',
  'ignorerevsfile',
]);

type Cached = { signature: string; origins: string[]; paths: string[] };
const cache = new Map<string, Cached>();

/**
 * The absolute paths inside `root` that the repository's git config names (existing or not), and the
 * config files inside `root` it was read from beyond `.git`. Contract: never throws; no git, no
 * repository or an unreadable config is an empty list.
 */
export function gitConfigPaths(root: string, git = 'git'): string[] {
  const known = cache.get(root);
  if (known && known.signature === signature(known.origins)) return known.paths;
  const dotGit = join(root, '.git');
  let read = exists(dotGit) ? readConfig(root, git) : undefined;
  // No repository, or none git can read: remembered against `.git` itself, so it is not asked again per command.
  read ??= { entries: [], origins: [dotGit, join(dotGit, 'config')] };
  const paths = new Set<string>();
  for (const { origin, key, value } of read.entries) {
    for (const path of namedPaths(root, origin, key, value))
      if (inside(root, path) && path !== root) paths.add(path);
  }
  for (const origin of read.origins)
    if (inside(root, origin) && !inside(join(root, '.git'), origin)) paths.add(origin);
  const entry: Cached = { signature: signature(read.origins), origins: read.origins, paths: [...paths] };
  cache.set(root, entry);
  return entry.paths;
}

type Entry = { origin: string; key: string; value: string };

function readConfig(root: string, git: string): { entries: Entry[]; origins: string[] } | undefined {
  let out: string;
  try {
    out = execFileSync(
      git,
      [
        '-c',
        'safe.directory=*',
        '-C',
        root,
        'config',
        '--local',
        '--includes',
        '--list',
        '--show-origin',
        '-z',
      ],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 3000,
        maxBuffer: 4 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: '/nonexistent',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_TERMINAL_PROMPT: '0',
          LC_ALL: 'C',
        },
      },
    );
  } catch {
    return undefined;
  }
  // -z: "file:<origin>\0<key>\n<value>\0" per entry.
  const parts = out.split('\0');
  const entries: Entry[] = [];
  const origins = new Set<string>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const origin = (parts[i] ?? '').replace(/^file:/, '');
    const body = parts[i + 1] ?? '';
    const nl = body.indexOf('\n');
    const key = (nl < 0 ? body : body.slice(0, nl)).toLowerCase();
    const value = nl < 0 ? '' : body.slice(nl + 1);
    const file = isAbsolute(origin) ? origin : resolve(root, origin);
    origins.add(file);
    entries.push({ origin: file, key, value });
  }
  return { entries, origins: [...origins] };
}

/** The paths a key's value names: the value itself for a path key, the program for a command. */
function namedPaths(root: string, origin: string, key: string, value: string): string[] {
  const last = key.slice(key.lastIndexOf('.') + 1);
  const section = key.slice(0, key.indexOf('.'));
  const isAlias = section === 'alias' && value.startsWith('!');
  if (!PATH_KEYS.has(last) && !isAlias && section !== 'pager') return [];
  const trimmed = value.trim().replace(/^!/, '').trim();
  if (trimmed === '' || /^(true|false|yes|no|on|off|0|1)$/i.test(trimmed)) return [];
  const isInclude = section === 'include' || section === 'includeif';
  const whole = isInclude || last === 'hookspath' || last.endsWith('file') || last === 'templatedir';
  const word = whole
    ? trimmed
    : (/^(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(trimmed)?.slice(1).find(Boolean) ?? '');
  if (word === '' || word.startsWith('~') || (!word.includes('/') && !word.startsWith('.'))) return [];
  // Includes are relative to the file that includes them; everything else runs from the work tree's top.
  const base = isInclude ? dirname(origin) : root;
  return [resolve(base, word)];
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function signature(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(f);
        return `${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}
