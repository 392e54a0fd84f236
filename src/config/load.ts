import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MODES, type Mode } from '../protocol';
import { type ProjectSnapshot, readProjectSnapshot } from '../policy/project-files';
import { isTrusted } from './trust-store';
import { isHttpUrl } from './http-url';
import { type ConfigFileRead, parseConfigText, readConfigFile } from './read-file';
import { type HeldSetting, screenProjectConfig, usablePatterns } from './screen';
import {
  CONFIG_DEFAULTS,
  ESCALATION_DEFAULTS,
  APPROVALS_DEFAULTS,
  NOTIFY_DEFAULTS,
  type ConfigFile,
  type McpServerConfig,
  type NotifyMethod,
} from './schema';

export type Env = Readonly<Record<string, string | undefined>>;

/** Where a setting came from, for `/config`-style displays and error messages. */
export type ConfigSource =
  | { kind: 'default' }
  | { kind: 'user'; path: string }
  | { kind: 'project'; path: string }
  | { kind: 'env'; name: string }
  | { kind: 'flag'; name: string };

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
      files: { user: string; project?: string };
      /** Absent without a root. */
      project?: ProjectConfigTrust;
    }
  | { ok: false; error: string };

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
 * Resolves the configuration: flags > env (OPENAI_BASE_URL, OPENAI_API_KEY, WARDEN_MODEL,
 * WARDEN_MODE) > project file > user file > defaults. A project file cannot loosen safety: its
 * `mode: "auto"`, `sandbox: "off"` and `baseUrl` (where your API key goes) are ignored with a
 * warning; `mode: "auto-edit"` and `webSearch` count only once the person trusts the project's
 * files (`project.held` lists them until then; see src/trust).
 * Contract: never throws; a broken file or env value is `{ok:false}` naming the file (or
 * variable) and the field. A missing file is fine.
 */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const env = options.env ?? {};
  const userPath = join(options.home, 'config.json');
  const user = readConfigFile(userPath);
  if (user.kind === 'error') return { ok: false, error: user.error };
  // Read once: the text hashed for trust is the text parsed.
  const snapshot = options.root ? readProjectSnapshot(options.root, options.home) : undefined;
  const project = snapshot ? projectConfig(snapshot) : ({ kind: 'missing' } as const);
  if (project.kind === 'error') return { ok: false, error: project.error };

  const envLayer = readEnv(env);
  if (!envLayer.ok) return envLayer;

  const warnings: string[] = [];
  const userFile = user.kind === 'ok' ? { ...user.file } : {};
  if (userFile.protectedPaths)
    userFile.protectedPaths = usablePatterns(userFile.protectedPaths, userPath, warnings);
  const projectPath = snapshot?.config.path ?? '';
  const screened =
    project.kind === 'ok'
      ? screenProjectConfig(project.file, projectPath, warnings, userFile)
      : { untrusted: {}, trusted: {}, held: [] };
  const trusted =
    snapshot !== undefined &&
    (options.trustProject === true || isTrusted(options.home, snapshot.root, snapshot.hash));
  const layers = {
    user: userFile,
    env: envLayer.values,
    flags: options.flags ?? {},
    userPath,
    projectPath,
    homeDir: env.HOME?.trim() || homedir(),
  };
  const merged = merge({ ...layers, project: trusted ? screened.trusted : screened.untrusted });
  const files = {
    user: userPath,
    ...(snapshot && snapshot.config.kind !== 'missing' ? { project: projectPath } : {}),
  };
  if (!snapshot) return { ok: true, ...merged, warnings, files };
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
  user: ConfigFile;
  project: ConfigFile;
  env: Partial<Pick<ResolvedConfig, ScalarKey>>;
  flags: ConfigFlags;
  userPath: string;
  projectPath: string;
  /** The person's home, for `~/` in readPaths. */
  homeDir: string;
};

/** flags > env > project > user > defaults; protectedPaths are a union; MCP servers by name, tagged with their file. */
function merge(l: Layers): { config: ResolvedConfig; sources: ConfigSources } {
  const config: ResolvedConfig = {
    ...(DEFAULTS_SET as Pick<ResolvedConfig, Defaulted>),
    protectedPaths: [],
    mcpServers: {},
    escalation: escalationOf(l.user.escalation, l.project.escalation),
    // A repository does not choose how often warden offers to loosen the gate for it.
    ...(l.user.suggestions ? { suggestions: l.user.suggestions } : {}),
    // Nor what of this machine its commands see.
    sandboxReadPaths: (l.user.sandboxReadPaths ?? []).map((p) => expandHome(p, l.homeDir)),
    // Nor which program runs when a card waits.
    notify: {
      method: l.user.notify?.method ?? NOTIFY_DEFAULTS.method,
      ...(l.user.notify?.command ? { command: l.user.notify.command } : {}),
    },
    // Nor whether an unattended run waits or fails.
    approvals: { whenNobodyAsks: l.user.approvals?.whenNobodyAsks ?? APPROVALS_DEFAULTS.whenNobodyAsks },
    // Nor where the audit log is sent.
    ...(l.user.audit ? { audit: l.user.audit } : {}),
  };
  const sources = Object.fromEntries(SCALAR_KEYS.map((k) => [k, { kind: 'default' }])) as ConfigSources;
  const layers: [Partial<Pick<ResolvedConfig, ScalarKey>>, (key: ScalarKey) => ConfigSource][] = [
    [l.user, () => ({ kind: 'user', path: l.userPath })],
    [l.project, () => ({ kind: 'project', path: l.projectPath })],
    [l.env, (key) => ({ kind: 'env', name: ENV_NAMES[key] ?? key })],
    [l.flags, (key) => ({ kind: 'flag', name: `--${key}` })],
  ];
  for (const [values, source] of layers) {
    for (const key of SCALAR_KEYS) {
      if (values[key] === undefined) continue;
      Object.assign(config, { [key]: values[key] });
      sources[key] = source(key);
    }
  }
  config.protectedPaths = [
    ...new Set([...(l.user.protectedPaths ?? []), ...(l.project.protectedPaths ?? [])]),
  ];
  for (const [name, server] of Object.entries(l.user.mcpServers ?? {}))
    config.mcpServers[name] = { ...server, source: 'user' };
  for (const [name, server] of Object.entries(l.project.mcpServers ?? {}))
    config.mcpServers[name] = { ...server, source: 'project' };
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

function expandHome(path: string, home: string): string {
  return path.startsWith('~/') ? join(home, path.slice(2)) : resolve(path);
}

/** The user's thresholds (else the defaults), lowered by the project's: a repository may make an agent stop sooner, never later. */
function escalationOf(
  user: ConfigFile['escalation'],
  project: ConfigFile['escalation'],
): ResolvedConfig['escalation'] {
  const pick = (key: 'failures' | 'rejections'): number =>
    Math.min(user?.[key] ?? ESCALATION_DEFAULTS[key], project?.[key] ?? Number.POSITIVE_INFINITY);
  return { failures: pick('failures'), rejections: pick('rejections') };
}
