/**
 * The project's git remote as the audit names it: read from the repository's config file (no git
 * process at start-up), `origin` first, else the first remote; credentials in the URL are cut out.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Larger config files are not read (a hostile repository's). */
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * The remote URL of the repository at or above `root`, without credentials; undefined when there is
 * none. Contract: never throws.
 */
export function gitRemote(root: string): string | undefined {
  try {
    const config = gitConfigPath(root);
    if (!config || statSync(config).size > MAX_CONFIG_BYTES) return undefined;
    const url = remoteUrl(readFileSync(config, 'utf8'));
    return url === undefined ? undefined : withoutCredentials(url);
  } catch {
    return undefined;
  }
}

/** The config file of the repository holding `root`: `.git/config`, or the common dir's for a worktree. */
function gitConfigPath(root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory()) return join(dotGit, 'config');
    if (st?.isFile()) {
      // A worktree or submodule: `gitdir: <path>`, whose `commondir` names the repository's own.
      const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8').slice(0, 4096))?.[1]?.trim();
      if (!gitdir) return undefined;
      const at = isAbsolute(gitdir) ? gitdir : resolve(dir, gitdir);
      const common = readOrUndefined(join(at, 'commondir'))?.trim();
      return join(common ? resolve(at, common) : at, 'config');
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `remote "origin"`'s url, else the first remote's. */
export function remoteUrl(config: string): string | undefined {
  let section = '';
  const urls: { remote: string; url: string }[] = [];
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*remote\s+"([^"]*)"\s*\]/.exec(line);
    if (header) section = header[1] ?? '';
    else if (line.startsWith('[')) section = '';
    else if (section) {
      const url = /^url\s*=\s*(.+)$/.exec(line)?.[1]?.trim();
      if (url) urls.push({ remote: section, url: url.replace(/^"(.*)"$/, '$1') });
    }
  }
  return (urls.find((u) => u.remote === 'origin') ?? urls[0])?.url;
}

/**
 * A remote URL without what would let someone in: the user and password of an http(s) URL (a token
 * is often the user: `https://ghp_…@github.com/…`) become `[REDACTED]`, and its query is dropped.
 * ssh's `git@host:path` and `ssh://git@host/…` name a login, not a secret, and stay.
 */
export function withoutCredentials(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?([^?#]*)([?#].*)?$/i.exec(url);
  if (!match) return url;
  const [, scheme = '', userinfo, rest = ''] = match;
  if (!/^https?:\/\//i.test(scheme)) return url;
  return `${scheme}${userinfo ? '[REDACTED]@' : ''}${rest}`;
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
