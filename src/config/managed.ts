/**
 * The managed layer's config: `/etc/warden/config.json` (src/os/managed-dir.ts). Same schema as the
 * other config files, plus the keys only it may set (`lockModes`, `allowManagedRulesOnly`,
 * `allowManagedHooksOnly`). Its values are the strongest layer (load.ts); a broken file is a start
 * error, never ignored — ignoring it would silently loosen what it sets.
 */
import { join } from 'node:path';
import { managedDir, managedFiles } from '../os/managed-dir';
import { MODES, type Mode } from '../protocol';
import { readConfigFile } from './read-file';
import { CONFIG_DEFAULTS, type ConfigFile, MANAGED_ONLY_KEYS, type TwoPersonRule } from './schema';

type Env = Readonly<Record<string, string | undefined>>;

/** What the managed layer (and the person's own twoPerson) tells a session beyond plain settings. */
export type ManagedSettings = {
  /** The managed folder (`/etc/warden`, or `WARDEN_SYSTEM_DIR`). */
  dir: string;
  /** The managed config.json, when there is one. */
  configPath?: string;
  /** Where the managed policy.json is (or would be). */
  policyPath: string;
  /** Modes nobody may start in or switch to. */
  lockModes: Mode[];
  /** Only the managed rules (and the built-in ones) count. */
  rulesOnly: boolean;
  /** Only the managed config's hooks run (read by the hooks, see README). */
  hooksOnly: boolean;
  /** Cards that need two people, and whose file said so. */
  twoPerson?: { rule: TwoPersonRule; source: 'managed' | 'user'; path: string };
  /**
   * Folders of registered approvers' public keys (`NAME.pub`): the managed one, and
   * `$WARDEN_HOME/approvers` only when twoPerson is the person's own — never beside a managed
   * twoPerson, where it would let the person register a second key of their own.
   */
  approverDirs: string[];
};

export type ManagedConfigRead =
  | { kind: 'missing' }
  | { kind: 'ok'; file: ConfigFile; path: string }
  | { kind: 'error'; error: string };

/**
 * Reads and checks the managed config. Besides the schema: a managed `mode` must not be one it
 * locks, nor may it lock every mode, nor lock the default mode without naming another.
 * Contract: never throws; missing is fine, anything wrong is an error naming the file.
 */
export function readManagedConfig(dir: string): ManagedConfigRead {
  const path = managedFiles(dir).config;
  const read = readConfigFile(path);
  if (read.kind !== 'ok') return read;
  const file = read.file;
  const locked = file.lockModes ?? [];
  const start = file.mode ?? CONFIG_DEFAULTS.mode;
  if (MODES.every((m) => locked.includes(m)))
    return { kind: 'error', error: `${path}: lockModes: it locks every mode; leave at least one` };
  if (locked.includes(start))
    return {
      kind: 'error',
      error: file.mode
        ? `${path}: mode: "${file.mode}" is one of the modes lockModes locks`
        : `${path}: lockModes: it locks "${start}", the default mode; set mode to one it does not lock`,
    };
  return { kind: 'ok', file, path };
}

/**
 * The error for a user's or project's config that sets a key only the managed config may set, or
 * undefined. Contract: pure.
 */
export function managedOnlyError(file: ConfigFile, path: string, managedConfig: string): string | undefined {
  const key = MANAGED_ONLY_KEYS.find((k) => file[k] !== undefined);
  if (!key) return undefined;
  return `${path}: ${key}: only the managed config (${managedConfig}) may set ${key}`;
}

/**
 * A project's file without the managed-only keys, each named in a warning: a cloned repository's
 * `lockModes` or `allowManagedRulesOnly` is no policy of this machine's, and must not stop warden
 * from starting in it either. Contract: pure but for `warnings`.
 */
export function withoutManagedOnly(file: ConfigFile, path: string, warnings: string[]): ConfigFile {
  const out = { ...file };
  for (const key of MANAGED_ONLY_KEYS) {
    if (out[key] === undefined) continue;
    delete out[key];
    warnings.push(`${path}: ${key} ignored: only the managed config may set it`);
  }
  return out;
}

/** The session's view of the managed layer, from the managed file and the person's own. Contract: pure. */
export function managedSettings(
  dir: string,
  managed: Extract<ManagedConfigRead, { kind: 'ok' }> | undefined,
  user: { file: ConfigFile; path: string; home: string },
): ManagedSettings {
  const files = managedFiles(dir);
  const m = managed?.file;
  const twoPerson = m?.twoPerson
    ? { rule: m.twoPerson, source: 'managed' as const, path: files.config }
    : user.file.twoPerson
      ? { rule: user.file.twoPerson, source: 'user' as const, path: user.path }
      : undefined;
  return {
    dir,
    ...(managed ? { configPath: managed.path } : {}),
    policyPath: files.policy,
    lockModes: [...new Set(m?.lockModes ?? [])],
    rulesOnly: m?.allowManagedRulesOnly === true,
    hooksOnly: m?.allowManagedHooksOnly === true,
    ...(twoPerson ? { twoPerson } : {}),
    approverDirs:
      twoPerson?.source === 'user' ? [files.approvers, join(user.home, 'approvers')] : [files.approvers],
  };
}

/**
 * The managed settings for a session built without `loadConfig` (tests, embedders): read now from
 * the folder `env` names and the person's own config.json. Contract: throws an Error naming the
 * broken file (a session does not start on a managed layer it cannot read).
 */
export function readManagedSettings(home: string, env: Env = process.env): ManagedSettings {
  const dir = managedDir(env);
  const managed = readManagedConfig(dir);
  if (managed.kind === 'error') throw new Error(managed.error);
  const userPath = join(home, 'config.json');
  const user = readConfigFile(userPath);
  if (user.kind === 'error') throw new Error(user.error);
  const file = user.kind === 'ok' ? user.file : {};
  return managedSettings(dir, managed.kind === 'ok' ? managed : undefined, { file, path: userPath, home });
}

/** "the managed config /etc/warden/config.json": how messages name it. */
export function managedName(settings: Pick<ManagedSettings, 'configPath' | 'dir'>): string {
  return `the managed config ${settings.configPath ?? managedFiles(settings.dir).config}`;
}
