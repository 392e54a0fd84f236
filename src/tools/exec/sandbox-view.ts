/**
 * What a sandboxed command sees of the host: the system's read-only folders a program
 * needs (`/usr`, `/bin`, `/lib*`, `/etc` without the host's secrets, `/opt`), a fresh /dev and /proc,
 * a private /tmp, a private scratch home holding only the toolchains and package caches a build needs
 * (read-only), the folders the person's own config adds (`sandbox.readPaths`), and the project. Every
 * other home, /root, /var, /run, /srv, /mnt, /media and the rest are simply absent: "no such file".
 * So what a command can read, like what it can write, is decided by the mounts, not by its text.
 */
import { type Dirent, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { isCredentialPath } from '../../policy/credential-files';
import { privateEntries } from './host-private';
import { inside } from './sandbox-paths';
import type { SandboxState } from './sandbox-state';

/** System folders shown read-only (a link such as `/bin -> usr/bin` stays a link). */
export const SYSTEM_FOLDERS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
];

/** The host's own secrets in /etc, hidden (an empty file or folder in their place). */
export const ETC_SECRETS: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/security/opasswd',
  '/etc/ssl/private',
  '/etc/krb5.keytab',
  '/etc/ipsec.secrets',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  '/etc/wireguard',
  '/etc/NetworkManager/system-connections',
  '/etc/letsencrypt',
  '/etc/docker/key.json',
  '/etc/rancher',
  '/etc/kubernetes',
  '/etc/warden',
];

/**
 * Under the home, shown read-only where they exist: toolchains a command runs (a node, python or rust
 * installed per user) and package caches a build reads. Not the folders around them: `~/.cargo`'s
 * `credentials.toml`, `~/.m2/settings.xml` and `~/.gradle/gradle.properties` hold tokens.
 */
export const HOME_TOOLCHAINS: readonly string[] = [
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.rustup',
  '.pyenv',
  '.nvm',
  '.volta',
  '.fnm',
  '.local/share/fnm',
  '.bun/bin',
  '.deno/bin',
  'go/bin',
  'go/pkg/mod',
  '.sdkman/candidates',
  '.asdf/installs',
  '.asdf/shims',
  '.local/share/mise/installs',
  '.local/share/mise/shims',
  '.local/bin',
  '.local/lib',
  '.npm/_cacache',
  '.cache/pip',
  '.cache/yarn',
  '.yarn/berry/cache',
  '.local/share/pnpm',
  '.pnpm-store',
  '.cache/node-gyp',
  '.node-gyp',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper/dists',
  '.ivy2/cache',
  '.cache/go-build',
  '.cache/deno',
  '.bun/install/cache',
  '.cache/ms-playwright',
];

export type ViewOptions = {
  root: string;
  home?: string;
  wardenHome?: string;
  /** The command's PATH: folders on it outside the system ones are shown read-only (a toolchain elsewhere). */
  pathEnv?: string;
  /** From the person's own config only (a project's cannot widen what commands see). */
  readPaths?: readonly string[];
  state: SandboxState;
};

let etcPrivateMemo: string[] | undefined;
/** /etc's private entries, walked once per process (the system's files do not change under a session). */
function etcPrivate(): string[] {
  etcPrivateMemo ??= privateEntries('/etc');
  return etcPrivateMemo;
}

/** The mounts, and the folders a command can see (for "outside what commands can see" notes). */
export type HostView = { args: string[]; visible: string[]; home?: string };

const cache = new Map<string, HostView>();

/** The view's bubblewrap arguments, before the project's own mounts. Contract: never throws. */
export function hostView(o: ViewOptions): HostView {
  const key = JSON.stringify([o.root, o.home, o.wardenHome, o.pathEnv, o.readPaths, o.state]);
  const known = cache.get(key);
  if (known) return known;
  const view = buildView(o);
  if (cache.size > 16) cache.clear();
  cache.set(key, view);
  return view;
}

function buildView(o: ViewOptions): HostView {
  const args: string[] = [];
  const visible: string[] = ['/dev', '/proc', '/tmp'];
  const shown: string[] = [];
  for (const folder of SYSTEM_FOLDERS) {
    const kind = entryKind(folder);
    if (kind === 'link') args.push('--symlink', readlinkSync(folder), folder);
    else if (kind === 'dir') {
      args.push('--ro-bind', folder, folder);
      shown.push(folder);
    }
  }
  for (const secret of new Set([...ETC_SECRETS, ...etcPrivate()])) mask(args, secret, o.state);
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  const home = o.home && isAbsolute(o.home) && resolve(o.home) !== '/' ? resolve(o.home) : undefined;
  if (home && !inside(home, o.root)) {
    args.push('--tmpfs', home);
    visible.push(home);
  } else if (home) visible.push(home);
  const extra: string[] = [];
  if (home) for (const rel of HOME_TOOLCHAINS) extra.push(join(home, rel));
  for (const dir of (o.pathEnv ?? '').split(delimiter))
    if (isAbsolute(dir)) extra.push(toolchainOf(resolve(dir), home));
  for (const p of o.readPaths ?? []) extra.push(p);
  // Outer folders first, so one inside an already shown folder is not bound twice.
  extra.sort((a, b) => a.length - b.length);
  for (const path of extra) {
    const real = realDir(path);
    if (!real || shown.some((s) => inside(s, real)) || inside(o.root, real)) continue;
    // The host's /tmp is not the sandbox's (a home there is the exception); the home's own root would
    // show every file in it.
    if ((inside('/tmp', real) && !(home && inside(home, real))) || real === home || real === '/') continue;
    args.push('--ro-bind', real, real);
    shown.push(real);
    maskCredentialsAt(args, real, o.state);
  }
  // WARDEN_HOME holds every project's sessions and audit: hidden wherever a shown folder holds it.
  const wardenHome = o.wardenHome ? realDir(o.wardenHome) : undefined;
  if (wardenHome && shown.some((s) => inside(s, wardenHome)) && !inside(wardenHome, o.root))
    args.push('--ro-bind', o.state.emptyDir, wardenHome);
  if (home && o.state.gitconfig && !inside(home, o.root))
    args.push('--ro-bind', o.state.gitconfig, join(home, '.gitconfig'));
  visible.push(...shown);
  return { args, visible, ...(home ? { home } : {}) };
}

/**
 * The folder to show for a PATH entry: a toolchain's `bin` or `shims` needs the folder around it (its
 * libraries, pyenv's versions), unless that is the home itself or the root.
 */
function toolchainOf(dir: string, home: string | undefined): string {
  const name = basename(dir);
  if (name !== 'bin' && name !== 'shims' && name !== 'sbin') return dir;
  const parent = dirname(dir);
  return parent === '/' || parent === home || SYSTEM_FOLDERS.includes(parent) ? dir : parent;
}

/** Hides `path` when it exists: an empty read-only folder or file in its place. */
export function mask(args: string[], path: string, state: SandboxState): void {
  const kind = entryKind(path);
  if (kind === 'dir') args.push('--ro-bind', state.emptyDir, path);
  else if (kind === 'file' || kind === 'other') args.push('--ro-bind', state.emptyFile, path);
}

/** Credential files at the top of a shown folder (a toolchain folder or a readPath), hidden. */
function maskCredentialsAt(args: string[], folder: string, state: SandboxState): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (isCredentialPath(e.name)) mask(args, join(folder, e.name), state);
}

function entryKind(path: string): 'dir' | 'file' | 'link' | 'other' | undefined {
  try {
    const s = lstatSync(path);
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

function realDir(path: string): string | undefined {
  try {
    const real = realpathSync.native(path);
    return lstatSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The absolute paths a command's text names that the view does not show (`cat /var/tmp/x`,
 * `ls ~/.ssh`), for the result's note. Contract: never throws.
 */
export function unseenPaths(command: string, view: HostView, root: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/(?:^|[\s=:'"(<>])((?:~|\/)[^\s'";|&<>()`$]*)/g)) {
    let word = m[1] as string;
    if (word.startsWith('~')) {
      if (!view.home || !(word === '~' || word.startsWith('~/'))) continue;
      word = join(view.home, word.slice(1));
    }
    // `//host/x` is a URL's tail (https://host/x), not a path.
    if (word === '/' || word.length < 2 || word.startsWith('//')) continue;
    const path = resolve(word);
    if (inside(root, path) || view.visible.some((v) => inside(v, path))) continue;
    if (!out.includes(path)) out.push(path);
  }
  return out;
}
