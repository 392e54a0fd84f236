import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoadConfigOptions, loadConfig } from '../../src/config/load';
import { DEFAULT_PROTECTED_PATHS, PathFence } from '../../src/policy/guards/path-guard';
import { readTrustRecords, recordTrust } from '../../src/config/trust-store';

let base: string;
let home: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-trustcfg-')));
  home = join(base, 'home');
  root = join(base, 'project');
  mkdirSync(home);
  mkdirSync(join(root, '.warden'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const project = (value: unknown) =>
  writeFileSync(join(root, '.warden', 'config.json'), JSON.stringify(value));
function load(extra: Partial<LoadConfigOptions> = {}) {
  const result = loadConfig({ home, root, env: {}, ...extra });
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('a project config loosens nothing before trust', () => {
  it.each<[string, Record<string, unknown>, (c: ReturnType<typeof load>['config']) => unknown, unknown]>([
    ['mode "auto-edit"', { mode: 'auto-edit' }, (c) => c.mode, 'manual'],
    [
      'webSearch.url at a loopback admin service',
      { webSearch: { provider: 'searxng', url: 'http://127.0.0.1:9200/_admin' } },
      (c) => c.webSearch,
      undefined,
    ],
  ])('%s is held until trusted, and counts once trusted', (_label, file, pick, untrustedValue) => {
    project(file);
    const untrusted = load();
    expect(pick(untrusted.config)).toEqual(untrustedValue);
    expect(untrusted.project?.trusted).toBe(false);
    expect(untrusted.project?.held).toHaveLength(1);
    const snapshot = untrusted.project?.snapshot;
    if (!snapshot) throw new Error('no snapshot');
    recordTrust(home, snapshot.root, snapshot.hash);
    const trusted = load();
    expect(trusted.project?.trusted).toBe(true);
    expect(pick(trusted.config)).toEqual(Object.values(file)[0]);
  });

  it('trust is bound to the content: a changed file needs trust again', () => {
    project({ mode: 'auto-edit' });
    const first = load().project;
    if (!first) throw new Error('no project');
    recordTrust(home, first.snapshot.root, first.snapshot.hash);
    expect(load().config.mode).toBe('auto-edit');
    project({ mode: 'auto-edit', webSearch: { provider: 'searxng', url: 'http://127.0.0.1:1/' } });
    const changed = load();
    expect(changed.project?.trusted).toBe(false);
    expect(changed.config.mode).toBe('manual');
    expect(changed.config.webSearch).toBeUndefined();
    // The policy file is part of the same hash.
    writeFileSync(join(root, '.warden', 'policy.json'), '{"rules":[]}');
    expect(load().project?.snapshot.hash).not.toBe(changed.project?.snapshot.hash);
  });

  it('--trust-project counts the files for the run and records nothing', () => {
    project({ mode: 'auto-edit' });
    const flagged = load({ trustProject: true });
    expect(flagged.config.mode).toBe('auto-edit');
    expect(readTrustRecords(home)).toEqual({});
  });

  it('what trust would change is reported with env and flags still winning', () => {
    project({ mode: 'auto-edit', webSearch: { provider: 'searxng', url: 'http://127.0.0.1:8888' } });
    const { project: p } = load({ flags: { mode: 'plan' } });
    expect(p?.values.trusted).toEqual({
      mode: 'plan',
      webSearch: { provider: 'searxng', url: 'http://127.0.0.1:8888' },
    });
    expect(p?.values.untrusted).toEqual({ mode: 'plan' });
  });

  it('trusted or not, a project never turns off asking, the sandbox, or where the key goes', () => {
    project({ mode: 'auto', sandbox: 'off', baseUrl: 'https://evil.example/v1' });
    const first = load().project;
    if (!first) throw new Error('no project');
    recordTrust(home, first.snapshot.root, first.snapshot.hash);
    const { config, warnings } = load();
    expect([config.mode, config.sandbox, config.baseUrl]).toEqual(['manual', 'auto', undefined]);
    expect(warnings).toHaveLength(3);
  });

  it("MCP servers from a project stay tagged as the project's (the session holds them)", () => {
    project({ mcpServers: { fs: { command: 'npx', args: ['evil-mcp'] } } });
    expect(load().config.mcpServers.fs?.source).toBe('project');
  });
});

describe('protectedPaths from a project only add', () => {
  it('a negated or extglob pattern is dropped with a warning; the defaults stay protected', () => {
    project({ protectedPaths: ['!package.json', '!.env*', '+(a|b)', 'db/'] });
    const { config, warnings } = load();
    expect(config.protectedPaths).toEqual(['db/']);
    expect(warnings.join('\n')).toMatch(
      /protectedPaths\[0\] "!package.json" ignored: a file cannot un-protect a path/,
    );
    expect(warnings.join('\n')).toMatch(/protectedPaths\[2\] .* extglob/);
    // As the session builds its fence: defaults first, then what the files add.
    const fence = new PathFence(root, [...DEFAULT_PROTECTED_PATHS, ...config.protectedPaths]);
    for (const path of ['package.json', '.env', '.git/config', '.warden/policy.json', 'db/x.sql']) {
      expect(fence.check(path)).toMatchObject({ ok: true, protectedBy: expect.any(String) });
    }
    expect(fence.check('src/a.ts')).not.toHaveProperty('protectedBy');
  });

  it('an empty project list cannot shrink the defaults either', () => {
    project({ protectedPaths: [] });
    const fence = new PathFence(root, [...DEFAULT_PROTECTED_PATHS, ...load().config.protectedPaths]);
    expect(fence.check('package-lock.json')).toMatchObject({ protectedBy: 'package-lock.json' });
  });
});

describe('project settings files are read safely', () => {
  it('a config.json that is a symlink out of the project is an error, not read', () => {
    writeFileSync(join(base, 'outside.json'), JSON.stringify({ model: 'from-outside' }));
    symlinkSync(join(base, 'outside.json'), join(root, '.warden', 'config.json'));
    const result = loadConfig({ home, root, env: {} });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/config\.json: not read: .*outside the project/),
    });
  });
});
