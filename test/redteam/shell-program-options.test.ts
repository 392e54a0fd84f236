/**
 * Red team, options that run a program the line names: a grant made on a harmless `git grep foo`
 * ("execute_command `git grep *`") covered `git grep -O'touch x' foo`, which runs `touch x` (shown
 * below with real git). Such options cannot be judged: the command asks in every mode, and neither a
 * grant nor an allow rule for the outer command covers it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GrantStore, scopeCovers } from '../../src/gate/grants';
import { judge, MODES, NO_SANDBOX, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

describe('an option that runs a named program cannot be judged', () => {
  it('git grep -O runs the program it names (the premise)', () => {
    const env = { ...process.env, HOME: project.base, GIT_CONFIG_NOSYSTEM: '1' };
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project.root, env, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(project.root, 'a.txt'), 'foo\n');
    git('add', 'a.txt');
    git('grep', '-Otouch ran', 'foo');
    expect(existsSync(join(project.root, 'ran'))).toBe(true);
  });

  it.each([
    ["git grep -O'touch x' foo", 'git grep'],
    ['git grep --open-files-in-pager=vi foo', 'git grep'],
    ['git grep --open=vi foo', 'git grep'],
    ["git -c core.pager='sh -c id' log", 'git -c'],
    ["git -c alias.x='!sh y' x", 'git -c'],
    ['git -c include.path=../evil status', 'git -c'],
    ['git -c user.name=a -c core.sshCommand=./x fetch', 'git -c'],
    ['git -ccore.pager=./x log', 'git -c'],
    ['git --exec-path=./bin status', 'git --exec-path'],
    ["git rebase -x 'make test' main", 'git rebase'],
    ["git rebase --exec='rm -rf ~' main", 'git rebase'],
    ["git difftool -x 'sh x' HEAD", 'git difftool'],
    ['git clone --upload-pack=./x repo', 'git clone'],
    ['git clone -u ./x repo', 'git clone'],
    ['git clone --template=./t repo', 'git clone'],
    ['git fetch --upload-pack=./x origin', 'git fetch'],
    ['git push --receive-pack=./x origin', 'git push'],
    ['git archive --remote=x --exec=./y HEAD', 'git archive'],
    ["git bisect run sh -c 'id'", 'git bisect'],
    ["git submodule foreach 'rm -rf .'", 'git submodule'],
    ['rg --pre ./x foo', 'rg'],
    ['rg --pre=./x foo', 'rg'],
    ["sort --compress-program='sh x' a.txt", 'sort'],
    ['sort --compress=./x a.txt', 'sort'],
    ['tar -I ./x -xf a.tar', 'tar'],
    ['tar -xIzstd -f a.tar', 'tar'],
    ["tar --to-command='sh x' -xf a.tar", 'tar'],
    ['tar --checkpoint-action=exec=./x -cf a.tar .', 'tar'],
    ['tar xIf ./x a.tar', 'tar'],
    ["rsync -e 'sh x' a b:c", 'rsync'],
    ['rsync --rsync-path=./x a b:c', 'rsync'],
    ["zip --unzip-command='sh x' a.zip a.txt", 'zip'],
    ["man -P 'sh x' ls", 'man'],
    ["ssh -o ProxyCommand='sh x' host", 'ssh'],
  ])('%s asks in every mode (%s), no grant', (command, what) => {
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, command, { mode, sandbox: NO_SANDBOX });
      expect(verdict.kind).toBe('cannot_judge');
      if (verdict.kind === 'cannot_judge')
        expect(verdict.reason).toContain(`${what} runs a program named on the command line`);
      expect(policy.decision).not.toBe('allow');
      expect(grants).toEqual([]);
    }
  });

  it("an allow rule `git grep *` (the person's, or a trusted project's) does not cover `git grep -O…`", () => {
    const rules = [
      {
        id: 'user-1',
        source: 'user' as const,
        tool: 'execute_command',
        decision: 'allow' as const,
        when: { command: 'git grep *' },
      },
    ];
    for (const mode of MODES) {
      const plain = judge(project.fence, 'git grep foo', { mode, rules, sandbox: NO_SANDBOX });
      if (mode !== 'plan') expect(plain.policy.decision).toBe('allow');
      const hostile = judge(project.fence, "git grep -O'touch x' foo", { mode, rules, sandbox: NO_SANDBOX });
      expect(hostile.policy.decision).not.toBe('allow');
    }
  });

  it('a grant offered on `git grep foo` does not cover `git grep -O…`', () => {
    const plain = judge(project.fence, 'git grep foo', { sandbox: NO_SANDBOX });
    const scope = plain.grants.find((g) => g.match.kind === 'command_prefix');
    expect(scope?.match).toEqual({ kind: 'command_prefix', tokens: ['git', 'grep'] });
    const store = new GrantStore();
    store.add(scope as NonNullable<typeof scope>);
    const caller = { agentId: 'main', agentName: 'main' };
    expect(scopeCovers(scope as NonNullable<typeof scope>, plain.facts, caller)).toBe(true);
    const hostile = judge(project.fence, "git grep -O'touch x' foo", { sandbox: NO_SANDBOX });
    expect(scopeCovers(scope as NonNullable<typeof scope>, hostile.facts, caller)).toBe(false);
  });

  it.each([
    'git grep -n foo',
    'git grep -o foo',
    'git log --oneline',
    'git rebase main',
    'git -c user.name=warden -c user.email=w@x.example commit -m x',
    'git -c color.ui=always log',
    'git clone https://example.com/x.git',
    'git submodule status',
    'git bisect good',
    'rg -n foo',
    'sort -o out.txt a.txt',
    'tar -xzf a.tgz',
    'tar xzf a.tgz',
    'tar -cf a.tar -C src .',
    'man ls',
    'ssh host',
  ])('twin: %s is judged as before', (command) => {
    expect(judge(project.fence, command, { sandbox: NO_SANDBOX }).verdict.kind).toBe('ok');
  });
});
