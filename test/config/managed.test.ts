/**
 * The managed config (`WARDEN_SYSTEM_DIR/config.json`): the strongest layer for what it sets (its
 * mode only a default), its locked modes refused where they are asked for, the keys only it may set,
 * and who two-person approval comes from.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoadConfigOptions, type LoadConfigResult, loadConfig } from '../../src/config/load';
import { readManagedSettings } from '../../src/config/managed';
import { DEFAULT_MANAGED_DIR, managedDir, managedDirProblem } from '../../src/os/managed-dir';
import { managedFolders, putFile } from '../helpers/managed-env';

let base: string;
let home: string;
let root: string;
let system: string;
beforeEach(() => {
  ({ base, home, root, system } = managedFolders('warden-managed-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const put = putFile;
const managed = (value: unknown) => put(join(system, 'config.json'), value);
const user = (value: unknown) => put(join(home, 'config.json'), value);
const project = (value: unknown) => put(join(root, '.warden', 'config.json'), value);

const load = (extra: Partial<LoadConfigOptions> = {}): LoadConfigResult =>
  loadConfig({ home, root, env: {}, systemDir: system, ...extra });
function ok(extra: Partial<LoadConfigOptions> = {}) {
  const result = load(extra);
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result;
}
function refused(extra: Partial<LoadConfigOptions> = {}) {
  const result = load(extra);
  if (result.ok) throw new Error('expected an error');
  return result;
}

describe('the managed config as a layer', () => {
  it('beats the flags, the environment, the project and the user for what it sets, and says so', () => {
    managed({ model: 'corp-model', baseUrl: 'https://llm.corp.example/v1', approvalTimeoutSec: 60 });
    user({ model: 'mine', approvalTimeoutSec: 900 });
    project({ approvalTimeoutSec: 30 });
    const { config, sources, warnings } = ok({
      flags: { model: 'flagged' },
      env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      trustProject: true,
    });
    expect(config).toMatchObject({
      model: 'corp-model',
      baseUrl: 'https://llm.corp.example/v1',
      approvalTimeoutSec: 60,
    });
    const path = join(system, 'config.json');
    expect(sources.model).toEqual({ kind: 'managed', path });
    expect(sources.approvalTimeoutSec).toEqual({ kind: 'managed', path });
    expect(warnings).toContain(
      `--model flagged ignored: the managed config ${path} sets model "corp-model".`,
    );
    expect(warnings.some((w) => w.startsWith('OPENAI_BASE_URL=http://localhost:11434/v1 ignored'))).toBe(
      true,
    );
  });

  it('its mode is a default: your file, the environment or a flag choose another that is not locked', () => {
    managed({ mode: 'plan' });
    expect(ok().config.mode).toBe('plan');
    expect(ok().sources.mode).toEqual({ kind: 'managed', path: join(system, 'config.json') });
    user({ mode: 'manual' });
    expect(ok().config.mode).toBe('manual');
    expect(ok({ flags: { mode: 'auto-edit' } }).config.mode).toBe('auto-edit');
  });

  it('an untrusted project may not start looser than the managed default mode; trusted, it may', () => {
    managed({ mode: 'plan' });
    project({ mode: 'manual' });
    const untrusted = ok();
    expect(untrusted.config.mode).toBe('plan');
    expect(untrusted.project?.held.map((h) => h.key)).toEqual(['mode']);
    expect(ok({ trustProject: true }).config.mode).toBe('manual');
  });

  it('protected paths add up, escalation is the lowest, and notify, approvals and suggestions are its own', () => {
    managed({
      protectedPaths: ['secrets/**', '!src/**'],
      escalation: { failures: 2 },
      notify: { method: 'bell' },
      approvals: { whenNobodyAsks: 'park' },
      suggestions: { enabled: false },
    });
    user({
      protectedPaths: ['mine/**'],
      escalation: { failures: 9, rejections: 5 },
      notify: { method: 'osc9', command: ['notify-send'] },
      approvals: { whenNobodyAsks: 'deny' },
    });
    project({ protectedPaths: ['infra/**'], escalation: { rejections: 1 } });
    const { config, warnings } = ok();
    expect(config.protectedPaths).toEqual(['secrets/**', 'mine/**', 'infra/**']);
    expect(warnings.some((w) => w.includes('"!src/**" ignored'))).toBe(true);
    expect(config.escalation).toEqual({ failures: 2, rejections: 1 });
    expect(config.notify).toEqual({ method: 'bell' });
    expect(config.approvals).toEqual({ whenNobodyAsks: 'park' });
    expect(config.suggestions).toEqual({ enabled: false });
  });

  it('without a managed folder nothing changes (a missing folder is no managed layer)', () => {
    rmSync(system, { recursive: true });
    const result = ok();
    expect(result.managed).toMatchObject({ lockModes: [], rulesOnly: false, hooksOnly: false });
    expect(result.managed.configPath).toBeUndefined();
    expect(result.files.managed).toBeUndefined();
  });
});

describe('lockModes', () => {
  const path = () => join(system, 'config.json');

  it('a locked mode from --mode or WARDEN_MODE is a usage error naming the managed file', () => {
    managed({ lockModes: ['auto'] });
    const flag = refused({ flags: { mode: 'auto' } });
    expect(flag.usage).toBe(true);
    expect(flag.error).toBe(
      `--mode auto: mode "auto" is locked by the managed config ${path()} (lockModes); use one of manual, auto-edit, plan`,
    );
    const env = refused({ env: { WARDEN_MODE: 'auto' } });
    expect(env.usage).toBe(true);
    expect(env.error).toContain('WARDEN_MODE=auto: mode "auto" is locked');
  });

  it("from your own config a start error (not usage); from a project's a warning, and the mode is not used", () => {
    managed({ lockModes: ['auto-edit'] });
    user({ mode: 'auto-edit' });
    const mine = refused();
    expect(mine.usage).toBeUndefined();
    expect(mine.error).toContain(`${join(home, 'config.json')}: mode "auto-edit" is locked`);
    user({});
    project({ mode: 'auto-edit' });
    const { config, warnings, project: trust } = ok({ trustProject: true });
    expect(config.mode).toBe('manual');
    expect(trust?.values.trusted.mode).toBe('manual');
    expect(warnings).toContain(
      `${join(root, '.warden', 'config.json')}: mode "auto-edit" ignored: the managed config ${path()} locks it (lockModes).`,
    );
  });

  it('the managed config may not lock its own mode, the default it does not replace, or every mode', () => {
    managed({ mode: 'auto', lockModes: ['auto'] });
    expect(refused().error).toBe(`${path()}: mode: "auto" is one of the modes lockModes locks`);
    managed({ lockModes: ['manual'] });
    expect(refused().error).toContain('it locks "manual", the default mode; set mode');
    managed({ lockModes: ['manual'], mode: 'plan' });
    expect(ok().config.mode).toBe('plan');
    managed({ lockModes: ['manual', 'auto-edit', 'plan', 'auto'], mode: 'plan' });
    expect(refused().error).toContain('it locks every mode');
  });

  it('a lock reaches the session settings', () => {
    managed({ lockModes: ['auto', 'auto'] });
    expect(ok().managed.lockModes).toEqual(['auto']);
  });
});

describe('the keys only the managed config may set', () => {
  it.each(['lockModes', 'allowManagedRulesOnly', 'allowManagedHooksOnly'])(
    '%s in your config is an error naming the file; in a project’s it is ignored with a warning',
    (key) => {
      const value = key === 'lockModes' ? ['auto'] : true;
      user({ [key]: value });
      expect(refused().error).toBe(
        `${join(home, 'config.json')}: ${key}: only the managed config (${join(system, 'config.json')}) may set ${key}`,
      );
      user({});
      // A cloned repository's file must not keep warden from starting in it, nor set this machine's policy.
      project({ [key]: value });
      const result = ok();
      expect(result.warnings).toContain(
        `${join(root, '.warden', 'config.json')}: ${key} ignored: only the managed config may set it`,
      );
      expect(result.managed).toMatchObject({ lockModes: [], rulesOnly: false, hooksOnly: false });
    },
  );

  it('in the managed config they reach the session', () => {
    managed({ allowManagedRulesOnly: true, allowManagedHooksOnly: true });
    expect(ok().managed).toMatchObject({
      rulesOnly: true,
      hooksOnly: true,
      configPath: join(system, 'config.json'),
      policyPath: join(system, 'policy.json'),
    });
  });

  it('a broken managed file is an error, never ignored', () => {
    managed('{ "lockModes": ["auto"], }');
    expect(refused().error).toContain(`${join(system, 'config.json')}: invalid JSON`);
    managed({ lockModes: ['sometimes'] });
    expect(refused().error).toContain('lockModes[0]');
    managed({ twoPerson: {} });
    expect(refused().error).toContain('twoPerson needs at least one of risk, tools or rules');
  });
});

describe('twoPerson', () => {
  it("the managed one counts, and only the managed folder's approvers", () => {
    managed({ twoPerson: { risk: ['high'] } });
    user({ twoPerson: { tools: ['write_file'] } });
    expect(ok().managed.twoPerson).toEqual({
      rule: { risk: ['high'] },
      source: 'managed',
      path: join(system, 'config.json'),
    });
    expect(ok().managed.approverDirs).toEqual([join(system, 'approvers')]);
  });

  it("your own counts without a managed one, and then your home's approvers too", () => {
    user({ twoPerson: { tools: ['execute_command'] } });
    const { managed: m } = ok();
    expect(m.twoPerson).toMatchObject({ source: 'user', rule: { tools: ['execute_command'] } });
    expect(m.approverDirs).toEqual([join(system, 'approvers'), join(home, 'approvers')]);
  });

  it("a project's is ignored with a warning", () => {
    project({ twoPerson: { risk: ['medium', 'high'] } });
    const { managed: m, warnings } = ok({ trustProject: true });
    expect(m.twoPerson).toBeUndefined();
    expect(
      warnings.some((w) => w.includes('twoPerson ignored: a project cannot choose who must approve')),
    ).toBe(true);
  });

  it('a session built without the loader reads the same from the folder the environment names', () => {
    managed({ twoPerson: { rules: ['deploy'] }, lockModes: ['auto'] });
    const settings = readManagedSettings(home, { WARDEN_SYSTEM_DIR: system });
    expect(settings).toMatchObject({ lockModes: ['auto'], twoPerson: { source: 'managed' } });
    managed('not json');
    expect(() => readManagedSettings(home, { WARDEN_SYSTEM_DIR: system })).toThrow(/invalid JSON/);
  });
});

describe('where the managed folder is', () => {
  it('/etc/warden unless WARDEN_SYSTEM_DIR names another', () => {
    expect(managedDir({})).toBe(DEFAULT_MANAGED_DIR);
    expect(managedDir({ WARDEN_SYSTEM_DIR: system })).toBe(system);
    expect(managedDir({ WARDEN_SYSTEM_DIR: '  ' })).toBe(DEFAULT_MANAGED_DIR);
  });

  it('the loader reads WARDEN_SYSTEM_DIR from its environment', () => {
    managed({ lockModes: ['auto'] });
    const result = loadConfig({ home, root, env: { WARDEN_SYSTEM_DIR: system }, flags: { mode: 'auto' } });
    expect(result.ok).toBe(false);
  });

  it("the variable is refused while the machine's folder holds a managed config or policy", () => {
    const fixed = join(base, 'etc-warden');
    expect(managedDirProblem({ WARDEN_SYSTEM_DIR: system }, fixed)).toBeUndefined();
    mkdirSync(fixed);
    put(join(fixed, 'policy.json'), { rules: [] });
    expect(managedDirProblem({ WARDEN_SYSTEM_DIR: system }, fixed)).toBe(
      `WARDEN_SYSTEM_DIR=${system} is set, but ${join(fixed, 'policy.json')} is there: the managed policy of this machine cannot be replaced by a variable. Unset WARDEN_SYSTEM_DIR.`,
    );
    expect(managedDirProblem({ WARDEN_SYSTEM_DIR: fixed }, fixed)).toBeUndefined();
  });
});

describe('the managed config’s hooks', () => {
  const hook = (command: string) => [{ matcher: 'Bash', command }];

  it('run before the person’s own, event by event', () => {
    managed({ hooks: { PreToolUse: hook('corp-check') } });
    user({ hooks: { PreToolUse: hook('my-check'), Stop: hook('my-stop') } });
    const { config } = ok();
    expect(config.hooks.PreToolUse?.map((h) => ('command' in h ? h.command : ''))).toEqual([
      'corp-check',
      'my-check',
    ]);
    expect(config.hooks.Stop).toHaveLength(1);
  });

  it('allowManagedHooksOnly leaves the person’s own out (and tells the session, for a project’s)', () => {
    managed({ hooks: { PreToolUse: hook('corp-check') }, allowManagedHooksOnly: true });
    user({ hooks: { PreToolUse: hook('my-check'), Stop: hook('my-stop') } });
    const result = ok();
    expect(result.config.hooks).toEqual({ PreToolUse: hook('corp-check') });
    expect(result.managed.hooksOnly).toBe(true);
  });
});
