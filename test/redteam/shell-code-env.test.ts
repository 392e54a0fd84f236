/**
 * Red team, command guard: variables that decide which program runs (PATH, BASH_ENV, LD_PRELOAD …)
 * set by something other than `NAME=value`. `PATH=tools cat a` always asked; `for PATH in tools; do
 * cat a; done`, `read PATH <<< tools`, `printf -v PATH`, `((PATH=1))`, `${PATH:=tools}` and
 * `unset PATH` (bash then searches the working directory) were judged read-only, so a program the
 * repository ships as tools/cat ran with no card in manual mode. Each case is proved with real bash:
 * the repository's `cat` leaves a mark.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judge, MODES, tempProject } from './shell-judge';

const project = tempProject();
const MARK = join(project.root, 'MARK');
beforeAll(() => {
  // The stranger's repository: programs named like system ones, where a changed PATH finds them.
  for (const dir of ['tools', '1', '.']) {
    mkdirSync(join(project.root, dir), { recursive: true });
    const file = join(project.root, dir, 'cat');
    writeFileSync(file, `#!/bin/sh\n/usr/bin/touch ${MARK}\n`);
    chmodSync(file, 0o755);
  }
  writeFileSync(join(project.root, 'a'), 'a\n');
});
afterAll(() => project.remove());

/** Runs the command in real bash in the project (`select` reads 1); true when the repository's cat ran. */
function runsRepositoryCode(command: string): boolean {
  rmSync(MARK, { force: true });
  try {
    execFileSync('bash', ['-c', command], {
      cwd: project.root,
      stdio: ['pipe', 'ignore', 'ignore'],
      input: '1\n',
    });
  } catch {
    // The mark says what ran; the exit code does not matter.
  }
  return existsSync(MARK);
}

describe('a code-loading variable assigned by a builtin, a loop or an expansion asks', () => {
  it.each([
    ['for PATH in tools; do cat a; done', true],
    ['for PATH in tools\ndo cat a\ndone', true],
    ['select PATH in tools; do cat a; break; done', true],
    ['read -r PATH <<< tools; cat a', true],
    ['read -t 1 -r PATH <<< tools; cat a', true],
    ['IFS=: read -r PATH x <<< tools:y; cat a', true],
    ['read -ra PATH <<< tools; cat a', true],
    ['printf -v PATH tools; cat a', true],
    ['printf -vPATH tools; cat a', true],
    ['printf -v PATH -- tools; cat a', true],
    ['((PATH=1)); cat a', true],
    ['echo $((PATH=1)) >/dev/null; cat a', true],
    ['for ((PATH=1; 0; )); do :; done; cat a', true],
    ['unset PATH; : "${PATH:=tools}"; cat a', true],
    ['unset PATH; echo "${PATH=tools}" >/dev/null; cat a', true],
    ['unset PATH; cat a', true],
    ['PATH[0]=tools; cat a', true],
    ['let PATH=1; cat a', true],
    ['mapfile -t PATH <<< tools; cat a', false],
    ['readarray PATH <<< tools; cat a', false],
    ['getopts p PATH; cat a', false],
    ['wait -p PATH; cat a', false],
    ['for BASH_ENV in x.sh; do bash -c ls; done', false],
    ['set -a; read -r LD_PRELOAD <<< ./x.so; cat a', false],
  ])('%j', (command, proved) => {
    if (proved) expect(runsRepositoryCode(command)).toBe(true);
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, command, { mode });
      expect(verdict.kind).toBe('cannot_judge');
      if (verdict.kind === 'cannot_judge')
        expect(verdict.reason).toMatch(/^Setting [A-Z_]+ changes what programs run/);
      expect(policy.risk.level).toBe('high');
      expect(policy.decision).toBe(mode === 'plan' ? 'deny' : 'ask');
      expect(grants).toEqual([]);
    }
  });

  it.each([
    'for f in a; do echo "$f"; done',
    'read -r x <<< y; echo "$x"',
    'printf -v out %s x; echo "$out"',
    'unset x; echo a',
    '((n = 1 + 2)); echo $n',
    'echo "${x:=default}"',
    'mapfile -t lines < a',
  ])('twin that names an ordinary variable stays judged read-only: %j', (command) => {
    expect(runsRepositoryCode(command)).toBe(false);
    const { verdict, policy } = judge(project.fence, command);
    expect(verdict.kind === 'ok' && verdict.readOnly).toBe(true);
    expect(policy.decision).toBe('allow');
  });
});
