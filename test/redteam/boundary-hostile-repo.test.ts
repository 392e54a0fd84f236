/**
 * Red team, issue 26 from the cloned repository's side: a project's `.warden/config.json` cannot
 * widen what commands see of this machine (`sandbox.readPaths`), trusted or not, while the person's
 * own config can; a bad readPaths value is a clear error naming the field.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(user: unknown, project: unknown) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-hostile-readpaths-')));
  dirs.push(base);
  const home = join(base, 'home');
  const root = join(base, 'project');
  mkdirSync(home);
  mkdirSync(join(root, '.warden'), { recursive: true });
  if (user !== undefined) writeFileSync(join(home, 'config.json'), JSON.stringify(user));
  if (project !== undefined) writeFileSync(join(root, '.warden', 'config.json'), JSON.stringify(project));
  return { home, root, base };
}

describe('sandbox.readPaths comes from the person only', () => {
  it.each([false, true])('a project asking for /, ~ and /etc is refused (trusted: %s)', (trustProject) => {
    const { home, root } = setup(undefined, { sandbox: { mode: 'auto', readPaths: ['/', '~/', '/etc'] } });
    const r = loadConfig({ home, root, env: { HOME: home }, trustProject });
    if (!r.ok) throw new Error(r.error);
    expect(r.config.sandboxReadPaths).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(
      /sandbox\.readPaths ignored: a project cannot widen what commands see/,
    );
  });

  it('the person’s own config adds folders, ~ expanded', () => {
    const { home, root } = setup({ sandbox: { readPaths: ['/data/sets', '~/models'] } }, undefined);
    const r = loadConfig({ home, root, env: { HOME: home } });
    if (!r.ok) throw new Error(r.error);
    expect(r.config.sandboxReadPaths).toEqual(['/data/sets', join(home, 'models')]);
    expect(r.config.sandbox).toBe('auto');
  });

  it.each([
    [{ sandbox: { readPaths: ['relative/dir'] } }, /sandbox\.readPaths\[0\]: expected an absolute path/],
    [{ sandbox: { readPath: ['/x'] } }, /sandbox/],
    [{ sandbox: 'of' }, /sandbox/],
  ])('a bad value is a clear error: %j', (user, message) => {
    const { home, root } = setup(user, undefined);
    const r = loadConfig({ home, root, env: { HOME: home } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});

describe('sandbox.network comes from the person only (issue 33 §4)', () => {
  it.each([false, true])('a project listing hosts is refused (trusted: %s)', (trustProject) => {
    const { home, root } = setup(undefined, { sandbox: { network: ['127.0.0.1:22', '*.example.com'] } });
    const r = loadConfig({ home, root, env: { HOME: home }, trustProject });
    if (!r.ok) throw new Error(r.error);
    expect(r.config.sandboxNetwork).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(
      /sandbox\.network ignored: a project cannot let commands reach hosts/,
    );
  });

  it('the person’s own config lists them', () => {
    const { home, root } = setup({ sandbox: { network: ['registry.npmjs.org', '*.github.com'] } }, undefined);
    const r = loadConfig({ home, root, env: { HOME: home } });
    if (!r.ok) throw new Error(r.error);
    expect(r.config.sandboxNetwork).toEqual(['registry.npmjs.org', '*.github.com']);
  });

  it.each([
    [{ sandbox: { network: ['https://registry.npmjs.org/'] } }, /sandbox\.network\[0\]: .*not a URL/],
    [
      { sandbox: { network: ['localhost:8080'] } },
      /sandbox\.network\[0\]: .*localhost always means this machine/,
    ],
    [{ sandbox: { network: ['*.com'] } }, /sandbox\.network\[0\]: .*top-level domain/],
    [{ sandbox: { network: 'registry.npmjs.org' } }, /sandbox\.network/],
  ])('a bad value is a clear error: %j', (user, message) => {
    const { home, root } = setup(user, undefined);
    const r = loadConfig({ home, root, env: { HOME: home } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});

describe('notify comes from the person only', () => {
  it.each([false, true])(
    'a project naming its own notify.command is refused (trusted: %s)',
    (trustProject) => {
      const { home, root } = setup(undefined, { notify: { method: 'osc9', command: ['./pwn.sh'] } });
      const r = loadConfig({ home, root, env: { HOME: home }, trustProject });
      if (!r.ok) throw new Error(r.error);
      expect(r.config.notify).toEqual({ method: 'auto' });
      expect(r.warnings.join('\n')).toMatch(/notify ignored: a project cannot choose how you are notified/);
    },
  );

  it.each([
    [{ notify: { method: 'loud' } }, /notify\.method/],
    [{ notify: { command: [] } }, /notify\.command/],
    [{ notify: { commands: ['x'] } }, /notify/],
  ])('a bad value is a clear error: %j', (user, message) => {
    const { home, root } = setup(user, undefined);
    const r = loadConfig({ home, root, env: { HOME: home } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});
