import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Mode } from '../protocol';
import { readConfigFile } from './read-file';
import {
  CONFIG_DEFAULTS,
  type ConfigFile,
  ConfigFileSchema,
  type McpServerConfig,
  ModeSchema,
  type SandboxSetting,
  type WebSearchConfig,
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

export type ResolvedConfig = {
  model: string;
  baseUrl?: string;
  /** From OPENAI_API_KEY only; never from a file. Absent → the demo model. */
  apiKey?: string;
  mode: Mode;
  approvalTimeoutSec: number;
  sandbox: SandboxSetting;
  maxStepsPerTurn: number;
  contextWindowTokens: number;
  /** User and project patterns together (a project adds, never removes); the fence adds its defaults. */
  protectedPaths: string[];
  webSearch?: WebSearchConfig;
  mcpServers: Record<string, ResolvedMcpServer>;
};

type ScalarKey = Exclude<keyof ResolvedConfig, 'protectedPaths' | 'mcpServers'>;
export type ConfigSources = Record<ScalarKey, ConfigSource>;

/** Command-line settings that override everything else. */
export type ConfigFlags = { model?: string; mode?: Mode };

export type LoadConfigOptions = {
  /** `$WARDEN_HOME`; its `config.json` is the user file. */
  home: string;
  /** Project root; its `.warden/config.json` is the project file. */
  root?: string;
  env?: Env;
  flags?: ConfigFlags;
};

export type LoadConfigResult =
  | {
      ok: true;
      config: ResolvedConfig;
      sources: ConfigSources;
      /** Project settings that were ignored because they would loosen safety; show them. */
      warnings: string[];
      files: { user: string; project?: string };
    }
  | { ok: false; error: string };

/** `$WARDEN_HOME` (a leading `~/` expanded), else `~/.warden`. */
export function wardenHome(env: Env = process.env): string {
  const home = env.HOME?.trim() || homedir();
  const explicit = env.WARDEN_HOME?.trim();
  if (!explicit) return join(home, '.warden');
  return resolve(explicit === '~' ? home : explicit.startsWith('~/') ? join(home, explicit.slice(2)) : explicit);
}

/**
 * Resolves the configuration: flags > env (OPENAI_BASE_URL, OPENAI_API_KEY, WARDEN_MODEL,
 * WARDEN_MODE) > project file > user file > defaults. A project file cannot loosen safety: its
 * `mode: "auto"`, `sandbox: "off"` and `baseUrl` (where your API key goes) are ignored with a warning.
 * Contract: never throws; a broken file or env value is `{ok:false}` naming the file (or
 * variable) and the field. A missing file is fine.
 */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const env = options.env ?? {};
  const userPath = join(options.home, 'config.json');
  const projectPath = options.root ? join(options.root, '.warden', 'config.json') : undefined;
  const user = readConfigFile(userPath);
  if (user.kind === 'error') return { ok: false, error: user.error };
  const sameFile = projectPath !== undefined && samePath(projectPath, userPath);
  const project = projectPath && !sameFile ? readConfigFile(projectPath) : ({ kind: 'missing' } as const);
  if (project.kind === 'error') return { ok: false, error: project.error };

  const envLayer = readEnv(env);
  if (!envLayer.ok) return envLayer;

  const warnings: string[] = [];
  const userFile = user.kind === 'ok' ? user.file : {};
  const projectFile = project.kind === 'ok' && projectPath ? screenProject(project.file, projectPath, warnings) : {};

  const config: ResolvedConfig = { ...CONFIG_DEFAULTS, protectedPaths: [], mcpServers: {} };
  const sources = Object.fromEntries(SCALAR_KEYS.map((k) => [k, { kind: 'default' }])) as ConfigSources;
  const layers: [Partial<Pick<ResolvedConfig, ScalarKey>>, (key: ScalarKey) => ConfigSource][] = [
    [userFile, () => ({ kind: 'user', path: userPath })],
    [projectFile, () => ({ kind: 'project', path: projectPath ?? '' })],
    [envLayer.values, (key) => ({ kind: 'env', name: ENV_NAMES[key] ?? key })],
    [options.flags ?? {}, (key) => ({ kind: 'flag', name: `--${key}` })],
  ];
  for (const [values, source] of layers) {
    for (const key of SCALAR_KEYS) {
      if (values[key] === undefined) continue;
      Object.assign(config, { [key]: values[key] });
      sources[key] = source(key);
    }
  }
  config.protectedPaths = [...new Set([...(userFile.protectedPaths ?? []), ...(projectFile.protectedPaths ?? [])])];
  for (const [name, server] of Object.entries(userFile.mcpServers ?? {})) config.mcpServers[name] = { ...server, source: 'user' };
  for (const [name, server] of Object.entries(projectFile.mcpServers ?? {})) config.mcpServers[name] = { ...server, source: 'project' };

  return { ok: true, config, sources, warnings, files: { user: userPath, ...(sameFile ? {} : { project: projectPath }) } };
}

const SCALAR_KEYS: readonly ScalarKey[] = [
  'model',
  'baseUrl',
  'apiKey',
  'mode',
  'approvalTimeoutSec',
  'sandbox',
  'maxStepsPerTurn',
  'contextWindowTokens',
  'webSearch',
];

const ENV_NAMES: Partial<Record<ScalarKey, string>> = {
  baseUrl: 'OPENAI_BASE_URL',
  apiKey: 'OPENAI_API_KEY',
  model: 'WARDEN_MODEL',
  mode: 'WARDEN_MODE',
};

type EnvLayer = { ok: true; values: Partial<Pick<ResolvedConfig, ScalarKey>> } | { ok: false; error: string };

/** Empty variables count as unset; set ones are validated like file fields. */
function readEnv(env: Env): EnvLayer {
  const get = (name: string): string | undefined => env[name]?.trim() || undefined;
  const values: Partial<Pick<ResolvedConfig, ScalarKey>> = { apiKey: get('OPENAI_API_KEY'), model: get('WARDEN_MODEL') };
  const baseUrl = get('OPENAI_BASE_URL');
  if (baseUrl !== undefined) {
    if (!ConfigFileSchema.shape.baseUrl.safeParse(baseUrl).success) {
      return { ok: false, error: `OPENAI_BASE_URL: expected an http or https URL, got ${JSON.stringify(baseUrl)}` };
    }
    values.baseUrl = baseUrl;
  }
  const mode = get('WARDEN_MODE');
  if (mode !== undefined) {
    const parsed = ModeSchema.safeParse(mode);
    if (!parsed.success) {
      return { ok: false, error: `WARDEN_MODE: expected one of ${ModeSchema.options.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(mode)}` };
    }
    values.mode = parsed.data;
  }
  return { ok: true, values };
}

/** Drops what a repository must not decide for the person running warden in it. */
function screenProject(file: ConfigFile, path: string, warnings: string[]): ConfigFile {
  const out = { ...file };
  const refuse = (what: string, why: string): void => {
    warnings.push(`${path}: ${what} ignored: ${why}; set it in your own config.json, the environment or a flag.`);
  };
  if (out.mode === 'auto') {
    delete out.mode;
    refuse('mode "auto"', 'a project cannot turn off asking');
  }
  if (out.sandbox === 'off') {
    delete out.sandbox;
    refuse('sandbox "off"', 'a project cannot turn off the sandbox');
  }
  if (out.baseUrl !== undefined) {
    delete out.baseUrl;
    refuse('baseUrl', 'a project cannot choose where your API key is sent');
  }
  return out;
}

function samePath(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
