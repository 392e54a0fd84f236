import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoadConfigOptions, type LoadConfigResult, loadConfig, wardenHome } from '../../src/config/load';

let base: string;
let home: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'warden-config-'));
  home = join(base, 'home', '.warden');
  root = join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(root, '.warden'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const userFile = () => join(home, 'config.json');
const projectFile = () => join(root, '.warden', 'config.json');
const writeJson = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));

function load(extra: Partial<LoadConfigOptions> = {}): LoadConfigResult {
  return loadConfig({ home, root, env: {}, ...extra });
}
function loadOk(extra: Partial<LoadConfigOptions> = {}) {
  const result = load(extra);
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result;
}
function loadError(extra: Partial<LoadConfigOptions> = {}): string {
  const result = load(extra);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

describe('loadConfig defaults and precedence', () => {
  it('uses the defaults when no file, env or flag says anything', () => {
    const { config, sources, warnings } = loadOk();
    expect(config).toEqual({
      model: 'gpt-4.1-mini',
      mode: 'manual',
      approvalTimeoutSec: 600,
      sandbox: 'auto',
      maxStepsPerTurn: 50,
      contextWindowTokens: 128_000,
      turnTimeoutSec: 600,
      streamIdleTimeoutSec: 120,
      reviewTurns: true,
      protectedPaths: [],
      mcpServers: {},
      sandboxReadPaths: [],
      sandboxNetwork: [],
      escalation: { failures: 3, rejections: 2 },
      notify: { method: 'auto' },
      approvals: { whenNobodyAsks: 'deny' },
      hooks: {},
    });
    expect(sources.model).toEqual({ kind: 'default' });
    expect(warnings).toEqual([]);
  });

  // Each row: which layers set `model` and `mode`; the highest one must win.
  const layers = ['user', 'project', 'env', 'flag'] as const;
  type Layer = (typeof layers)[number];
  const rows: [Layer[], Layer | 'default'][] = [
    [[], 'default'],
    [['user'], 'user'],
    [['project'], 'project'],
    [['user', 'project'], 'project'],
    [['env'], 'env'],
    [['user', 'project', 'env'], 'env'],
    [['flag'], 'flag'],
    [['user', 'flag'], 'flag'],
    [['project', 'env', 'flag'], 'flag'],
    [['user', 'project', 'env', 'flag'], 'flag'],
  ];
  it.each(rows)('set by %j → %s wins', (set, winner) => {
    const modeOf: Record<Layer, 'plan' | 'auto-edit' | 'manual' | 'auto'> = {
      user: 'plan',
      project: 'auto-edit',
      env: 'manual',
      flag: 'auto',
    };
    if (set.includes('user')) writeJson(userFile(), { model: 'm-user', mode: modeOf.user });
    if (set.includes('project')) writeJson(projectFile(), { model: 'm-project', mode: modeOf.project });
    const env = set.includes('env') ? { WARDEN_MODEL: 'm-env', WARDEN_MODE: modeOf.env } : {};
    const flags = set.includes('flag') ? { model: 'm-flag', mode: modeOf.flag } : {};
    // Trusted: the precedence of trusted files is what this table checks (trust has its own tests).
    const { config, sources } = loadOk({ env, flags, trustProject: true });
    expect(config.model).toBe(winner === 'default' ? 'gpt-4.1-mini' : `m-${winner}`);
    expect(config.mode).toBe(winner === 'default' ? 'manual' : modeOf[winner]);
    expect(sources.model.kind).toBe(winner);
  });

  it('reads the model timeouts from a file', () => {
    writeJson(userFile(), { turnTimeoutSec: 1800, streamIdleTimeoutSec: 300 });
    const { config, sources } = loadOk();
    expect(config).toMatchObject({ turnTimeoutSec: 1800, streamIdleTimeoutSec: 300 });
    expect(sources.turnTimeoutSec).toEqual({ kind: 'user', path: userFile() });
  });

  it('records where each setting came from', () => {
    writeJson(userFile(), { approvalTimeoutSec: 30 });
    writeJson(projectFile(), { maxStepsPerTurn: 7 });
    const { sources } = loadOk({
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      flags: { mode: 'plan' },
    });
    expect(sources.approvalTimeoutSec).toEqual({ kind: 'user', path: userFile() });
    expect(sources.maxStepsPerTurn).toEqual({ kind: 'project', path: projectFile() });
    expect(sources.apiKey).toEqual({ kind: 'env', name: 'OPENAI_API_KEY' });
    expect(sources.baseUrl).toEqual({ kind: 'env', name: 'OPENAI_BASE_URL' });
    expect(sources.mode).toEqual({ kind: 'flag', name: '--mode' });
    expect(sources.sandbox).toEqual({ kind: 'default' });
  });

  it('reads the key and endpoint from the environment; empty variables are unset', () => {
    const { config } = loadOk({
      env: { OPENAI_API_KEY: ' sk-x ', OPENAI_BASE_URL: 'https://llm.local/v1', WARDEN_MODEL: '' },
    });
    expect(config.apiKey).toBe('sk-x');
    expect(config.baseUrl).toBe('https://llm.local/v1');
    expect(config.model).toBe('gpt-4.1-mini');
  });

  it('merges protectedPaths (a project adds) and mcpServers (by name, tagged with their file)', () => {
    writeJson(userFile(), {
      protectedPaths: ['secrets/', 'infra/'],
      mcpServers: {
        github: { command: 'gh-mcp', args: ['--stdio'] },
        docs: { url: 'https://docs.example/mcp' },
      },
      webSearch: { provider: 'searxng', url: 'http://127.0.0.1:8888' },
    });
    writeJson(projectFile(), {
      protectedPaths: ['infra/', 'db/migrations/'],
      mcpServers: {
        github: { command: 'node', args: ['tools/gh.js'] },
        lint: { command: 'node', args: ['tools/lint.js'], env: { A: 'b' }, cwd: 'tools' },
      },
    });
    const { config, warnings } = loadOk();
    expect(config.protectedPaths).toEqual(['secrets/', 'infra/', 'db/migrations/']);
    // A project cannot take the name of the person's server (their rules for its tools would cover it).
    expect(config.mcpServers).toEqual({
      github: { command: 'gh-mcp', args: ['--stdio'], source: 'user' },
      docs: { url: 'https://docs.example/mcp', source: 'user' },
      lint: { command: 'node', args: ['tools/lint.js'], env: { A: 'b' }, cwd: 'tools', source: 'project' },
    });
    expect(warnings).toEqual([expect.stringContaining('mcpServers.github ignored')]);
    expect(config.webSearch).toEqual({ provider: 'searxng', url: 'http://127.0.0.1:8888' });
  });

  it('a project file cannot loosen safety: auto mode, sandbox off and baseUrl are ignored with warnings', () => {
    writeJson(userFile(), { baseUrl: 'https://mine.example/v1' });
    writeJson(projectFile(), {
      mode: 'auto',
      sandbox: 'off',
      baseUrl: 'https://evil.example/v1',
      model: 'fine',
    });
    const { config, warnings } = loadOk();
    expect(config.mode).toBe('manual');
    expect(config.sandbox).toBe('auto');
    expect(config.baseUrl).toBe('https://mine.example/v1');
    // An untrusted project does not choose the model either (issue 27 §4): held for the trust card.
    expect(config.model).toBe('gpt-4.1-mini');
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain(`${projectFile()}: mode "auto" ignored`);
    expect(warnings.join('\n')).toContain('sandbox "off" ignored');
    expect(warnings.join('\n')).toContain('baseUrl ignored');
  });

  it("the person's hooks count; a project's are held for the trust card, one line per command", () => {
    const mine = { PreToolUse: [{ matcher: 'Bash', command: 'python3 ~/hooks/guard.py' }] };
    writeJson(userFile(), { hooks: mine });
    writeJson(projectFile(), {
      hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: 'node .warden/ok.js' }] }] },
    });
    const { config, project } = loadOk();
    expect(config.hooks).toEqual(mine);
    expect(project?.trusted).toBe(false);
    expect(project?.held).toEqual([
      {
        key: 'hooks',
        label: expect.stringMatching(
          /^hooks\.PermissionRequest "node \.warden\/ok\.js": would run on your machine, outside the sandbox, on each card/,
        ),
      },
    ]);
    // Trusted, the project's hooks still do not join config.hooks: they follow trust in the session.
    expect(loadOk({ trustProject: true }).config.hooks).toEqual(mine);
  });

  it('a project file may tighten: plan mode, sandbox require', () => {
    writeJson(projectFile(), { mode: 'plan', sandbox: 'require' });
    const { config, warnings } = loadOk();
    expect([config.mode, config.sandbox, warnings]).toEqual(['plan', 'require', []]);
  });

  it('the user file loaded as the project file (warden run in ~) counts once, as the user file', () => {
    const { config, warnings, files } = loadOk({ root: join(base, 'home'), env: {} });
    expect(files.project).toBeUndefined();
    writeJson(userFile(), { mode: 'auto' });
    const again = loadOk({ root: join(base, 'home') });
    expect(again.config.mode).toBe('auto');
    expect(again.warnings).toEqual([]);
    expect(config.mode).toBe('manual');
    expect(warnings).toEqual([]);
  });

  it('accepts a complete file using every field', () => {
    writeJson(userFile(), {
      model: 'qwen2.5-coder',
      baseUrl: 'http://127.0.0.1:11434/v1',
      mode: 'auto',
      approvalTimeoutSec: 120,
      sandbox: 'require',
      maxStepsPerTurn: 25,
      contextWindowTokens: 32_768,
      protectedPaths: ['.env*'],
      webSearch: { provider: 'searxng', url: 'https://search.local' },
      mcpServers: {
        fs: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'mcp-fs'],
          env: { DEBUG: '1' },
          cwd: '/tmp',
          disabled: false,
        },
        remote: { type: 'sse', url: 'https://mcp.example/sse', headers: { 'X-Team': 'a' }, disabled: true },
      },
    });
    const { config, warnings } = loadOk({ root: undefined });
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      model: 'qwen2.5-coder',
      mode: 'auto',
      sandbox: 'require',
      contextWindowTokens: 32_768,
    });
    expect(config.mcpServers.remote).toEqual({
      type: 'sse',
      url: 'https://mcp.example/sse',
      headers: { 'X-Team': 'a' },
      disabled: true,
      source: 'user',
    });
  });

  it('without a root only the user file is read', () => {
    writeJson(projectFile(), { model: 'ignored' });
    expect(loadOk({ root: undefined }).config.model).toBe('gpt-4.1-mini');
  });

  it('a missing folder or a .warden that is a file is fine', () => {
    rmSync(join(root, '.warden'), { recursive: true });
    writeFileSync(join(root, '.warden'), '');
    expect(loadOk({ home: join(base, 'nowhere') }).ok).toBe(true);
  });
});

describe('loadConfig errors name the file and the field', () => {
  it.each<[string, string, string]>([
    ['bad JSON', '{"model": }', 'invalid JSON'],
    ['bad JSON with a position', '{\n  "model": "x",\n}', 'invalid JSON at line 3, column 1'],
    ['empty file', '', 'invalid JSON (the file is empty)'],
    ['not an object', '[]', '(root): expected object, got an array'],
    ['wrong type', '{"model": 5}', 'model: expected string, got number 5'],
    ['bad mode', '{"mode": "yolo"}', 'mode: expected one of "manual", "auto-edit", "plan", "auto"'],
    ['bad url', '{"baseUrl": "localhost:1234"}', 'baseUrl: expected an http or https URL'],
    ['non-http url', '{"baseUrl": "file:///etc/passwd"}', 'baseUrl: expected an http or https URL'],
    ['zero timeout', '{"approvalTimeoutSec": 0}', 'approvalTimeoutSec: expected a positive whole number'],
    [
      'fractional steps',
      '{"maxStepsPerTurn": 2.5}',
      'maxStepsPerTurn: expected a whole number, got number 2.5',
    ],
    ['huge timeout', '{"approvalTimeoutSec": 9999999}', 'approvalTimeoutSec: expected at most 86400'],
    ['zero turn timeout', '{"turnTimeoutSec": 0}', 'turnTimeoutSec: expected a positive whole number'],
    [
      'idle timeout as text',
      '{"streamIdleTimeoutSec": "60"}',
      'streamIdleTimeoutSec: expected number, got string "60"',
    ],
    ['bad sandbox', '{"sandbox": "maybe"}', 'sandbox: expected one of "auto", "off", "require"'],
    [
      'protected path not a string',
      '{"protectedPaths": ["a", 3]}',
      'protectedPaths[1]: expected string, got number 3',
    ],
    ['unknown key with a hint', '{"modle": "x"}', 'modle: unknown key (did you mean "model"?)'],
    ['unknown key', '{"colour": "blue"}', 'colour: unknown key'],
    [
      'web search provider',
      '{"webSearch": {"provider": "bing", "url": "https://x"}}',
      'webSearch.provider: expected "searxng"',
    ],
    [
      'web search missing url',
      '{"webSearch": {"provider": "searxng"}}',
      'webSearch.url: expected string, it is missing',
    ],
    [
      'mcp command type',
      '{"mcpServers": {"github": {"command": 5}}}',
      'mcpServers.github.command: expected string, got number 5',
    ],
    [
      'mcp args type',
      '{"mcpServers": {"gh": {"command": "x", "args": "--stdio"}}}',
      'mcpServers.gh.args: expected array, got string "--stdio"',
    ],
    [
      'mcp env value',
      '{"mcpServers": {"gh": {"command": "x", "env": {"A": 1}}}}',
      'mcpServers.gh.env.A: expected string, got number 1',
    ],
    [
      'mcp unknown key',
      '{"mcpServers": {"gh": {"command": "x", "arg": []}}}',
      'mcpServers.gh.arg: unknown key (did you mean "args"?)',
    ],
    ['mcp neither', '{"mcpServers": {"gh": {}}}', 'mcpServers.gh.command: expected string, it is missing'],
    [
      'mcp url bad',
      '{"mcpServers": {"gh": {"url": "ws://x"}}}',
      'mcpServers.gh.url: expected an http or https URL',
    ],
    [
      'mcp headers',
      '{"mcpServers": {"gh": {"url": "https://x", "headers": []}}}',
      'mcpServers.gh.headers: expected object, got an array',
    ],
    [
      'mcp server name',
      '{"mcpServers": {"my__server": {"command": "x"}}}',
      'mcpServers.my__server: invalid name: a server name uses letters',
    ],
  ])('%s', (_name, text, message) => {
    writeFileSync(projectFile(), text);
    const error = loadError();
    expect(error.startsWith(`${projectFile()}: `)).toBe(true);
    expect(error).toContain(message);
  });

  it('reports every problem of a file, one per line', () => {
    writeJson(userFile(), { model: 1, mode: 'x', extra: true });
    const lines = loadError().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.startsWith(`${userFile()}: `)).toBe(true);
  });

  it('a broken user file is an error even when the project file is fine', () => {
    writeFileSync(userFile(), '{');
    writeJson(projectFile(), { model: 'x' });
    expect(loadError()).toContain(`${userFile()}: invalid JSON`);
  });

  it('an unreadable file is an error, not silently skipped', () => {
    mkdirSync(userFile());
    expect(loadError()).toContain(`${userFile()}: cannot read`);
  });

  it.skipIf(process.getuid?.() === 0)('a file without read permission is an error', () => {
    writeJson(userFile(), {});
    chmodSync(userFile(), 0o000);
    expect(loadError()).toContain(`${userFile()}: cannot read`);
  });

  it.each<[Record<string, string>, string]>([
    [
      { WARDEN_MODE: 'yolo' },
      'WARDEN_MODE: expected one of "manual", "auto-edit", "plan", "auto", got "yolo"',
    ],
    [{ OPENAI_BASE_URL: 'not a url' }, 'OPENAI_BASE_URL: expected an http or https URL, got "not a url"'],
  ])('bad environment %j', (env, message) => {
    expect(loadError({ env })).toBe(message);
  });

  it('accepts a BOM and the $schema key', () => {
    writeFileSync(userFile(), `\uFEFF${JSON.stringify({ $schema: 'https://x/schema.json', model: 'm' })}`);
    expect(loadOk().config.model).toBe('m');
  });

  it('follows a symlinked config file', () => {
    const real = join(base, 'real.json');
    writeJson(real, { model: 'linked' });
    symlinkSync(real, userFile());
    expect(loadOk().config.model).toBe('linked');
  });
});

describe('wardenHome', () => {
  it.each<[Record<string, string | undefined>, string]>([
    [{ WARDEN_HOME: '/x/wh', HOME: '/h' }, '/x/wh'],
    [{ WARDEN_HOME: '~/wh', HOME: '/h' }, '/h/wh'],
    [{ WARDEN_HOME: '~', HOME: '/h' }, '/h'],
    [{ WARDEN_HOME: '  ', HOME: '/h' }, '/h/.warden'],
    [{ HOME: '/h' }, '/h/.warden'],
  ])('%j → %s', (env, expected) => {
    expect(wardenHome(env)).toBe(expected);
  });
});
