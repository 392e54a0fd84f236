/**
 * Red team, command guard: words written after a redirection's target. bash gives them to the
 * command (`find <x . -delete` runs `find . -delete`); tree-sitter-bash hangs them off the
 * redirection as more "destinations". Before the fix the guard judged `find <x . -delete` as a bare
 * `find` — read-only, so it ran with no card in manual mode and emptied the project — and turned
 * hard denials (`rm -rf 2>&1 ~`) into questions a person could approve.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { argvs, judge, MODES, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

/** The arguments real bash passes to a function called like the command (the program replaced by `f`). */
function bashArgv(command: string): string[] {
  writeFileSync(`${project.root}/x`, '');
  const file = `${project.base}/argv`;
  // f writes its arguments to a file of its own: the command's redirections cannot move them.
  execFileSync('bash', ['-c', `f() { printf '%s\\n' "$@" > ${file}; }; ${command}`], {
    cwd: project.root,
    stdio: 'ignore',
  });
  return readFileSync(file, 'utf8').split('\n').slice(0, -1);
}

describe('the guard reads the arguments bash passes, whatever redirections sit between them', () => {
  it.each([
    ['f <x . -delete', ['.', '-delete']],
    ['f 2>/dev/null . -delete', ['.', '-delete']],
    ['f 2>&1 -i s/a/b/ a.txt', ['-i', 's/a/b/', 'a.txt']],
    ['f >&2 -la ..', ['-la', '..']],
    ['f 3<x a b', ['a', 'b']],
    ['f 0<x /etc/passwd', ['/etc/passwd']],
    ['f a >/dev/null b 2>/dev/null c', ['a', 'b', 'c']],
    ['true && f >/dev/null a b', ['a', 'b']],
    ['true | f >/dev/null a b', ['a', 'b']],
    ['f "$HOME"/x >/dev/null y"z"', ['~/x', 'yz']],
  ])('%s', (command, args) => {
    const { verdict } = judge(project.fence, command);
    const shown = argvs(verdict)
      .find((a) => a[0] === 'f')
      ?.slice(1);
    expect(shown).toEqual(args);
    // bash agrees (the guard shows $HOME as ~).
    expect(bashArgv(command).map((a) => a.replace(process.env.HOME ?? '~', '~'))).toEqual(args);
  });

  it('a redirection target is its first word only: `echo a >> x y ../../z` appends to x', () => {
    const { verdict } = judge(project.fence, 'echo a >> x y ../../z');
    expect(verdict.parts.flatMap((p) => p.writes ?? [])).toEqual(['x']);
    expect(argvs(verdict)).toEqual([['echo', 'a', 'y', '../../z']]);
  });
});

describe('a redirection before the words never hides what they do', () => {
  it.each([
    'find </dev/null . -delete',
    'find 2>/dev/null . -delete',
    'find 3</dev/null . -delete',
    'find <x . -exec rm {} +',
  ])('%s: destructive, asks a person in every mode but plan (which refuses), never a grant', (command) => {
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, command, { mode });
      expect(verdict.kind).toBe('ok');
      if (verdict.kind === 'ok') expect(verdict.destructive.length).toBeGreaterThan(0);
      expect(policy.risk.level).toBe('high');
      expect(policy.decision).toBe(mode === 'plan' ? 'deny' : 'ask');
      expect(grants).toEqual([]);
    }
  });

  it.each([
    ['sort <x -o out a', 'out'],
    ['tree 2>/dev/null -o out', 'out'],
    // In place is a write like any other (issue 27 §1): a.txt is new here, so medium; it still asks.
    ['sed <x -i s/a/b/ a.txt', 'a.txt'],
    ['sed 2>&1 -i s/a/b/ a.txt', 'a.txt'],
  ])('%s: not read-only, lists its write', (command, written) => {
    const { verdict, policy } = judge(project.fence, command);
    expect(verdict.kind === 'ok' && verdict.readOnly).toBe(false);
    expect(verdict.parts.flatMap((p) => p.writes ?? [])).toEqual([written]);
    expect(policy.decision).toBe('ask');
  });

  it.each([
    ['rm -rf 2>/dev/null ~', 'cmd-rm-root'],
    ['rm -rf <x ~/', 'cmd-rm-root'],
    ['rm -rf 0</dev/null /', 'cmd-rm-root'],
    ['rm -rf 3<x ~', 'cmd-rm-root'],
    ['chmod -R 777 <x /', 'cmd-chmod-root'],
    ['find <x / -delete', 'cmd-find-root-delete'],
    ['kill -9 0<x -1', 'cmd-kill-all'],
  ])('%s: the hard denial still holds (%s)', (command, rule) => {
    for (const mode of MODES) {
      const { verdict, policy } = judge(project.fence, command, { mode });
      expect(verdict.kind).toBe('deny');
      expect(policy.decision).toBe('deny');
      expect(policy.rule.id).toBe(rule);
    }
  });

  it.each([
    ['tee <x ../../x', 'path-fence'],
    ['cp 2>/dev/null a ../outside', 'path-fence'],
  ])('%s: a write outside the project is blocked (%s)', (command, rule) => {
    const { policy } = judge(project.fence, command, { mode: 'auto' });
    expect(policy.decision).toBe('deny');
    expect(policy.rule.id).toBe(rule);
  });

  it.each(['cat <x /etc/passwd', 'cat 2>&1 /etc/passwd', 'cat >/dev/null 2>&1 ../x', 'ls >&2 -la ..'])(
    '%s: a read outside the project still needs a card',
    (command) => {
      const { facts, policy } = judge(project.fence, command);
      expect(facts.readsOutside).toBeDefined();
      expect(policy.decision).toBe('ask');
    },
  );

  it('git 0<x push --force: the 0 is a descriptor, so the force-push is seen', () => {
    const { verdict, policy } = judge(project.fence, 'git 0<x push --force');
    expect(argvs(verdict)).toEqual([['git', 'push', '--force']]);
    expect(policy.risk.level).toBe('high');
  });

  it('{ ls; } > f c (bash refuses it): cannot be judged, so it asks', () => {
    const { verdict, policy } = judge(project.fence, '{ ls; } > f c');
    expect(verdict.kind).toBe('cannot_judge');
    expect(policy.decision).toBe('ask');
  });
});
