/**
 * Red team, what runs vs what was judged: the guard judges a command as a plain bash reads it, but
 * execute_command passed warden's own environment on, so an exported function (`BASH_FUNC_ls%%`), an
 * exported CDPATH or BASH_ENV changed what `ls` or `cd src` did. Proved with real bash and the
 * environment execute_command builds.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandEnv } from '../../src/tools/exec/execute-command';
import { tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

const run = (command: string, env: Record<string, string>): string =>
  execFileSync('bash', ['-c', command], { cwd: project.root, env, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();

describe('a command runs in the shell the guard judged', () => {
  const hostile = {
    ...process.env,
    'BASH_FUNC_ls%%': '() { echo function-ran; }',
    CDPATH: join(project.base, 'elsewhere'),
    BASH_ENV: join(project.base, 'start.sh'),
    GLOBIGNORE: '*',
    SHELLOPTS: 'xtrace',
  };

  it.each(['BASH_FUNC_ls%%', 'CDPATH', 'BASH_ENV', 'GLOBIGNORE', 'SHELLOPTS'])(
    '%s is not passed on',
    (name) => {
      expect(commandEnv(hostile)[name]).toBeUndefined();
    },
  );

  it('ls is ls and cd src is the project src, not a function or CDPATH', () => {
    mkdirSync(join(project.root, 'src'));
    mkdirSync(join(project.base, 'elsewhere', 'src'), { recursive: true });
    // The premise: with the environment as it was, bash runs the function and follows CDPATH.
    expect(run('ls', { ...hostile, SHELLOPTS: '', BASH_ENV: '', GLOBIGNORE: '' })).toBe('function-ran');
    expect(run('cd src >/dev/null && pwd', { ...hostile, SHELLOPTS: '', BASH_ENV: '', GLOBIGNORE: '' })).toBe(
      join(project.base, 'elsewhere', 'src'),
    );
    const env = commandEnv(hostile);
    expect(run('ls', env)).toBe('src');
    expect(run('cd src >/dev/null && pwd', env)).toBe(join(project.root, 'src'));
  });

  it('keeps what commands need', () => {
    const env = commandEnv({ PATH: '/usr/bin', HOME: '/h', LANG: 'C', CI: '1' });
    expect(env).toMatchObject({ PATH: '/usr/bin', HOME: '/h', LANG: 'C', CI: '1', PAGER: 'cat' });
  });

  it("a shell always has SHELL: the person's own, else /bin/sh (make 4.3 needs one for $(shell …))", () => {
    expect(commandEnv({ PATH: '/usr/bin' }).SHELL).toBe('/bin/sh');
    expect(commandEnv({ PATH: '/usr/bin', SHELL: '/usr/bin/zsh' }).SHELL).toBe('/usr/bin/zsh');
    const made = run("make -f /dev/null 'X:=$(shell echo made > made.txt)' 2>/dev/null; cat made.txt", {
      ...commandEnv({ PATH: process.env.PATH ?? '/usr/bin' }),
    });
    expect(made).toBe('made');
  });
});
