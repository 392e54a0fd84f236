import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MODES, type Mode } from '../protocol';
import { type ProjectSnapshot, readProjectSnapshot } from '../policy/project-files';
import { managedDir, managedDirProblem, managedFiles } from '../os/managed-dir';
import { isTrusted } from './trust-store';
import {
  type ManagedSettings,
  managedOnlyError,
  managedSettings,
  readManagedConfig,
  withoutManagedOnly,
} from './managed';
import { lockedModeError, overriddenByManaged, unlockedProject } from './managed-locks';
import { isHttpUrl } from './http-url';
import { escalationOf, expandHome, hooksOf } from './layer-rules';
import { type ConfigFileRead, parseConfigText, readConfigFile } from './read-file';
import { type HeldSetting, screenProjectConfig, usablePatterns } from './screen';
import {
  CONFIG_DEFAULTS,
  APPROVALS_DEFAULTS,
  NOTIFY_DEFAULTS,
  type ConfigFile,
  type McpServerConfig,
  type NotifyMethod,
} from './schema';
import type { HooksConfig } from './hooks-schema';

export type Env = Readonly<Record<string, string | undefined>>;

/** Where a setting came from, for `/config`-style displays and error messages. */
export type ConfigSource =
  | { kind: 'default' }
  | { kind: 'user'; path: string }
  | { kind: 'project'; path: string }
  | { kind: 'env'; name: string }
  | { kind: 'flag'; name: string }
  /** The managed config (`/etc/warden/config.json`): nothing below it may change what it sets. */
  | { kind: 'managed'; path: string };

/** A server and the file that declared it: a project's servers are the repository's choice. */
export type ResolvedMcpServer = McpServerConfig & { source: 'user' | 'project' };

type Defaults = typeof CONFIG_DEFAULTS;
/** The "strongest layer wins" fields that have a default: always set once resolved. */
type Defaulted = { [K in keyof Defaults]: Defaults[K] extends undefined ? never : K }[keyof Defaults];

/**
 * The configuration as resolved, derived from the schema: each field of `CONFIG_DEFAULTS` as its
 * file type (required when it has a default), plus the fields with a rule of their own.
 */
export type ResolvedConfig = { [K in Defaulted]: NonNullable<ConfigFile[K]> } & {
  [K in Exclude<keyof Defaults, Defaulted>]?: NonNullable<ConfigFile[K]>;
} & {
  /** From OPENAI_API_KEY only; never from a file. Absent → the demo model. */
  apiKey?: string;
  /** User and project patterns together (a project adds, never removes); the fence adds its defaults. */
  protectedPaths: string[];
  mcpServers: Record<string, ResolvedMcpServer>;
  /** When an agent stops and asks the person; the lower of the user's and the project's value counts. */
  escalation: { failures: number; rejections: number };
  /** Rule and preference offers, from the user's config only. */
  suggestions?: ConfigFile['suggestions'];
  /** Notifications, from the user's config only. */
  notify: { method: NotifyMethod; command?: string[] };
  /** Cards nobody can answer (headless), from the user's config only. */
  approvals: { whenNobodyAsks: 'deny' | 'park' };
  /** The audit log's export (audit.export), from the user's config only. */
  audit?: NonNullable<ConfigFile['audit']>;
  /** Folders commands may read besides the project (absolute), from the user's config only. */
  sandboxReadPaths: string[];
  /** Hosts a command that names them reaches without a card, from the user's config only. */
  sandboxNetwork: string[];
  /** The person's own hooks (a project's follow its trust: ProjectTrust.hooks). */
  hooks: HooksConfig;
};

/** The fields whose strongest layer wins: the defaults' keys and the API key (environment only). */
type ScalarKey = keyof Defaults | 'apiKey';
export type ConfigSources = Record<ScalarKey, ConfigSource>;

/** The settings a command-line flag (`--model`, `--mode`) can set. */
export const FLAG_KEYS = ['model', 'mode'] as const;

/** Command-line settings that override everything else. */
export type ConfigFlags = Partial<Pick<ResolvedConfig, (typeof FLAG_KEYS)[number]>>;

export type LoadConfigOptions = {
  /** `$WARDEN_HOME`; its `config.json` is the user file. */
  home: string;
  /** Project root; its `.warden/config.json` is the project file. */
  root?: string;
  env?: Env;
  flags?: ConfigFlags;
  /** `--trust-project`: count the project's files as trusted for this run (nothing is recorded). */
  trustProject?: boolean;
  /**
   * The managed folder; absent: `WARDEN_SYSTEM_DIR` of `env` (else of this process — it names the
   * machine's folder, not a setting), else `/etc/warden`.
   */
  systemDir?: string;
};

/** The project's files as read, whether the person trusts them, and what trust would change. */
export type ProjectConfigTrust = {
  snapshot: ProjectSnapshot;
  trusted: boolean;
  /** Loosening settings of the project config: held back unless `trusted`. */
  held: HeldSetting[];
  /** The settings trust decides, with and without it (env and flags still win over the project). */
  values: { trusted: TrustedValues; untrusted: TrustedValues };
};

/** The settings a project's trust can change while a session runs. */
export type TrustedValues = Pick<ResolvedConfig, 'mode' | 'webSearch'>;

export type LoadConfigResult =
  | {
      ok: true;
      config: ResolvedConfig;
      sources: ConfigSources;
      /** Project settings that were ignored because they would loosen safety; show them. */
      warnings: string[];
      files: { user: string; project?: string; managed?: string };
      /** Absent without a root. */
      project?: ProjectConfigTrust;
      /** What the managed layer (and the person's own twoPerson) tells the session. */
      managed: ManagedSettings;
    }
  /** `usage`: the command line (or the environment) asked for what the managed config forbids. */
  | { ok: false; error: string; usage?: true };

/** `$WARDEN_HOME` (a leading `~/` expanded), else `~/.warden`. */
export function wardenHome(env: Env = process.env): string {
  const home = env.HOME?.trim() || homedir();
  const explicit = env.WARDEN_HOME?.trim();
  if (!explicit) return join(home, '.warden');
  return resolve(
    explicit === '~' ? home : explicit.startsWith('~/') ? join(home, explicit.slice(2)) : explicit,
  );
}

/**
 * Resolves the configuration: managed file > flags > env (OPENAI_BASE_URL, OPENAI_API_KEY, WARDEN_MODEL,
 * WARDEN_MODE) > project file > user file > defaults. The managed file (`/etc/warden/config.json`)
 * wins for every field it sets but `mode`, which it only defaults (its `lockModes` say which modes
 * nobody may use: asked for by a flag or the environment, a usage error; by the user's file, an
 * error; by the project's, ignored with a warning). A project file cannot loosen safety: its
 * `mode: "auto"`, `sandbox: "off"` and `baseUrl` (where your API key goes) are ignored with a
 * warning; `mode: "auto-edit"` and `webSearch` count only once the person trusts the project's
 * files (`project.held` lists them until then; see src/trust).
 * Contract: never throws; a broken file or env value is `{ok:false}` naming the file (or
 * variable) and the field. A missing file is fine.
 */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const env = options.env ?? {};
  const machine = env.WARDEN_SYSTEM_DIR?.trim() ? env : process.env;
  const misplaced = options.systemDir === undefined ? managedDirProblem(machine) : undefined;
  if (misplaced) return { ok: false, error: misplaced };
  const systemDir = options.systemDir ?? managedDir(machine);
  const managedRead = readManagedConfig(systemDir);
  if (managedRead.kind === 'error') return { ok: false, error: managedRead.error };
  const managedPath = managedFiles(systemDir).config;
  const userPath = join(options.home, 'config.json');
  const user = readConfigFile(userPath);
  if (user.kind === 'error') return { ok: false, error: user.error };
  const userOnly = user.kind === 'ok' ? managedOnlyError(user.file, userPath, managedPath) : undefined;
  if (userOnly) return { ok: false, error: userOnly };
  // Read once: the text hashed for trust is the text parsed.
  const snapshot = options.root ? readProjectSnapshot(options.root, options.home) : undefined;
  const project = snapshot ? projectConfig(snapshot) : ({ kind: 'missing' } as const);
  if (project.kind === 'error') return { ok: false, error: project.error };

  const envLayer = readEnv(env);
  if (!envLayer.ok) return envLayer;

  const warnings: string[] = [];
  const managedFile = managedRead.kind === 'ok' ? { ...managedRead.file } : {};
  if (managedFile.protectedPaths)
    managedFile.protectedPaths = usablePatterns(managedFile.protectedPaths, managedPath, warnings);
  const userFile = user.kind === 'ok' ? { ...user.file } : {};
  if (userFile.protectedPaths)
    userFile.protectedPaths = usablePatterns(userFile.protectedPaths, userPath, warnings);
  const projectPath = snapshot?.config.path ?? '';
  const locks = { modes: managedFile.lockModes ?? [], path: managedPath };
  const lockError = lockedModeError(locks, options.flags ?? {}, envLayer.values, userFile, userPath);
  if (lockError) return { ok: false, ...lockError };
  const projectFile =
    project.kind === 'ok'
      ? unlockedProject(withoutManagedOnly(project.file, projectPath, warnings), projectPath, locks, warnings)
      : {};
  const screened =
    project.kind === 'ok'
      ? screenProjectConfig(projectFile, projectPath, warnings, mineForScreening(userFile, managedFile))
      : { untrusted: {}, trusted: {}, held: [] };
  const trusted =
    snapshot !== undefined &&
    (options.trustProject === true || isTrusted(options.home, snapshot.root, snapshot.hash));
  const layers = {
    managed: managedFile,
    managedPath,
    user: userFile,
    env: envLayer.values,
    flags: options.flags ?? {},
    userPath,
    projectPath,
    homeDir: env.HOME?.trim() || homedir(),
  };
  const merged = merge({ ...layers, project: trusted ? screened.trusted : screened.untrusted });
  warnings.push(...overriddenByManaged(managedFile, managedPath, options.flags ?? {}, envLayer.values));
  const files = {
    user: userPath,
    ...(snapshot && snapshot.config.kind !== 'missing' ? { project: projectPath } : {}),
    ...(managedRead.kind === 'ok' ? { managed: managedPath } : {}),
  };
  const managed = managedSettings(systemDir, managedRead.kind === 'ok' ? managedRead : undefined, {
    file: userFile,
    path: userPath,
    home: options.home,
  });
  if (!snapshot) return { ok: true, ...merged, warnings, files, managed };
  const pick = (c: ResolvedConfig): TrustedValues => ({
    mode: c.mode,
    ...(c.webSearch ? { webSearch: c.webSearch } : {}),
  });
  const values = {
    trusted: pick(trusted ? merged.config : merge({ ...layers, project: screened.trusted }).config),
    untrusted: pick(trusted ? merge({ ...layers, project: screened.untrusted }).config : merged.config),
  };
  return {
    ok: true,
    ...merged,
    warnings,
    files,
    project: { snapshot, trusted, held: screened.held, values },
    managed,
  };
}

/** The project's config as the snapshot read it; a file that is warden's own (run in ~) is no project file. */
function projectConfig(snapshot: ProjectSnapshot): ConfigFileRead {
  const file = snapshot.config;
  if (file.kind === 'missing') return { kind: 'missing' };
  if (file.kind === 'error') return { kind: 'error', error: file.error };
  return parseConfigText(file.path, file.text);
}

type Layers = {
  /** The managed config: the strongest layer for what it sets (its `mode` only a default). */
  managed: ConfigFile;
  managedPath: string;
  user: ConfigFile;
  project: ConfigFile;
  env: Partial<Pick<ResolvedConfig, ScalarKey>>;
  flags: ConfigFlags;
  userPath: string;
  projectPath: string;
  /** The person's home, for `~/` in readPaths. */
  homeDir: string;
};

/**
 * managed > flags > env > project > user > defaults (the managed `mode` a default only);
 * protectedPaths are a union; escalation the lowest; the person's own settings (notify, approvals,
 * suggestions) the managed file's when it sets them; MCP servers by name, tagged with their file.
 */
function merge(l: Layers): { config: ResolvedConfig; sources: ConfigSources } {
  const m = l.managed;
  const notify = m.notify ?? l.user.notify;
  const suggestions = m.suggestions ?? l.user.suggestions;
  const config: ResolvedConfig = {
    ...(DEFAULTS_SET as Pick<ResolvedConfig, Defaulted>),
    protectedPaths: [],
    mcpServers: {},
    escalation: escalationOf(m.escalation, l.user.escalation, l.project.escalation),
    // A repository does not choose how often warden offers to loosen the gate for it.
    ...(suggestions ? { suggestions } : {}),
    // Nor what of this machine its commands see.
    sandboxReadPaths: [...(m.sandboxReadPaths ?? []), ...(l.user.sandboxReadPaths ?? [])].map((p) =>
      expandHome(p, l.homeDir),
    ),
    // Nor which hosts its commands reach unasked.
    sandboxNetwork: [...(m.sandboxNetwork ?? []), ...(l.user.sandboxNetwork ?? [])],
    // Nor which program runs when a card waits.
    notify: {
      method: notify?.method ?? NOTIFY_DEFAULTS.method,
      ...(notify?.command ? { command: notify.command } : {}),
    },
    // Nor whether an unattended run waits or fails.
    approvals: {
      whenNobodyAsks:
        m.approvals?.whenNobodyAsks ?? l.user.approvals?.whenNobodyAsks ?? APPROVALS_DEFAULTS.whenNobodyAsks,
    },
    // The managed config's hooks always run; the person's own only where it allows them. The project's
    // are not merged here: they count while its files are trusted (src/trust).
    hooks: hooksOf(m.hooks, m.allowManagedHooksOnly === true ? undefined : l.user.hooks),
    // Nor where the audit log is sent (the managed config's, when it says).
    ...((m.audit ?? l.user.audit) ? { audit: m.audit ?? l.user.audit } : {}),
  };
  const sources = Object.fromEntries(SCALAR_KEYS.map((k) => [k, { kind: 'default' }])) as ConfigSources;
  const managed = () => ({ kind: 'managed', path: l.managedPath }) as const;
  const { mode: managedMode, ...managedTop } = m;
  const layers: [Partial<Pick<ResolvedConfig, ScalarKey>>, (key: ScalarKey) => ConfigSource][] = [
    [managedMode ? { mode: managedMode } : {}, managed],
    [l.user, () => ({ kind: 'user', path: l.userPath })],
    [l.project, () => ({ kind: 'project', path: l.projectPath })],
    [l.env, (key) => ({ kind: 'env', name: ENV_NAMES[key] ?? key })],
    [l.flags, (key) => ({ kind: 'flag', name: `--${key}` })],
    [managedTop, managed],
  ];
  for (const [values, source] of layers) {
    for (const key of SCALAR_KEYS) {
      if (values[key] === undefined) continue;
      Object.assign(config, { [key]: values[key] });
      sources[key] = source(key);
    }
  }
  config.protectedPaths = [
    ...new Set([
      ...(m.protectedPaths ?? []),
      ...(l.user.protectedPaths ?? []),
      ...(l.project.protectedPaths ?? []),
    ]),
  ];
  for (const [name, server] of Object.entries(l.user.mcpServers ?? {}))
    config.mcpServers[name] = { ...server, source: 'user' };
  for (const [name, server] of Object.entries(l.project.mcpServers ?? {}))
    config.mcpServers[name] = { ...server, source: 'project' };
  // The managed servers start as the person's own, and no other file takes their names.
  for (const [name, server] of Object.entries(m.mcpServers ?? {}))
    config.mcpServers[name] = { ...server, source: 'user' };
  return { config, sources };
}

const SCALAR_KEYS = [...Object.keys(CONFIG_DEFAULTS), 'apiKey'] as readonly ScalarKey[];

/** The defaults that are set (a field without one stays absent, not `undefined`). */
const DEFAULTS_SET = Object.fromEntries(Object.entries(CONFIG_DEFAULTS).filter(([, v]) => v !== undefined));

/** The environment variable of each setting one can set. */
export const ENV_NAMES: Partial<Record<ScalarKey, string>> = {
  baseUrl: 'OPENAI_BASE_URL',
  apiKey: 'OPENAI_API_KEY',
  model: 'WARDEN_MODEL',
  mode: 'WARDEN_MODE',
};

type EnvLayer = { ok: true; values: Partial<Pick<ResolvedConfig, ScalarKey>> } | { ok: false; error: string };

/** Empty variables count as unset; set ones are validated like file fields. */
function readEnv(env: Env): EnvLayer {
  const get = (name: string): string | undefined => env[name]?.trim() || undefined;
  const values: Partial<Pick<ResolvedConfig, ScalarKey>> = {
    apiKey: get('OPENAI_API_KEY'),
    model: get('WARDEN_MODEL'),
  };
  const baseUrl = get('OPENAI_BASE_URL');
  if (baseUrl !== undefined) {
    if (!isHttpUrl(baseUrl)) {
      return {
        ok: false,
        error: `OPENAI_BASE_URL: expected an http or https URL, got ${JSON.stringify(baseUrl)}`,
      };
    }
    values.baseUrl = baseUrl;
  }
  const mode = get('WARDEN_MODE');
  if (mode !== undefined) {
    if (!(MODES as readonly string[]).includes(mode)) {
      return {
        ok: false,
        error: `WARDEN_MODE: expected one of ${MODES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(mode)}`,
      };
    }
    values.mode = mode as Mode;
  }
  return { ok: true, values };
}

/**
 * What a project's settings are weighed against: the person's own file, its mode defaulting to the
 * managed one (an untrusted project may not start looser than the managed default either).
 */
function mineForScreening(user: ConfigFile, managed: ConfigFile): ConfigFile {
  const mode = user.mode ?? managed.mode;
  return mode ? { ...user, mode } : user;
}
