/**
 * Red team, second pass — indirect execution and expansions that run code, the forms that held:
 * function definitions then calls, coproc, exec, trap, command/builtin and quoted command names,
 * enable -f, aliases, arithmetic subscripts, prompt and indirect expansion, ANSI-C quoting, brace
 * expansion, glob command names, IFS, wrappers that run their arguments, interpreters' inline code,
 * find -exec, git options that run programs, here-docs fed to a shell, process substitution.
 * What the guard cannot read asks in every mode and gets no grant; what hides a hard rule's target
 * is denied; what it labels read-only is read-only in real bash (run in a temp directory).
 * Findings of this pass (and their fixes) are in shell-indirect-findings.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scopeCovers } from '../../src/gate/grants';
import { argvs, judge, MODES, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

describe('a hard rule sees the command behind indirection: denied in every mode', () => {
  it.each([
    'f(){ rm -rf ~; }; f',
    'f(){ rm -rf ~; }',
    'f() ( rm -rf ~ )',
    'f() if true; then rm -rf ~; fi',
    'function f { rm -rf ~; }; f',
    'exec rm -rf ~',
    'exec -a x rm -rf ~',
    'exec -c rm -rf ~',
    'command rm -rf ~',
    'command -p rm -rf ~',
    'builtin command rm -rf ~',
    '\\rm -rf ~',
    "'r'm -rf ~",
    'r\\m -rf ~',
    '"rm" -rf ~',
    'r""m -rf ~',
    "$'\\x72\\x6d' -rf ~",
    "$'r\\155' -rf ~",
    '$"rm" -rf ~',
    "alias x='rm -rf ~'",
    "shopt -s expand_aliases\nalias x='rm -rf ~'\nx",
    "trap 'rm -rf ~' EXIT",
    "env -S 'rm -rf ~'",
    "env -iS 'rm -rf ~'",
    "env --split-string='rm -rf ~'",
    'env -- rm -rf ~',
    'env -i rm -rf ~',
    'nice -n 5 rm -rf ~',
    'nice --10 rm -rf ~',
    'ionice -c3 rm -rf ~',
    'timeout -v 5 rm -rf ~',
    'timeout --preserve-status 5 rm -rf ~',
    'nohup -- rm -rf ~',
    'setsid -f rm -rf ~',
    'stdbuf -oL rm -rf ~',
    'time -p rm -rf ~',
    'time rm -rf ~',
    'xargs -r rm -rf ~',
    "xargs sh -c 'rm -rf ~'",
    "watch -n1 'rm -rf ~'",
    'watch -x rm -rf ~',
    'sudo -E rm -rf ~',
    'doas touch x',
    "su -c 'rm -rf ~'",
    "busybox sh -c 'rm -rf ~'",
    "busybox ash -c 'rm -rf ~'",
    'busybox rm -rf ~',
    'toybox rm -rf ~',
    "dash -c 'rm -rf ~'",
    "zsh -c 'rm -rf ~'",
    "bash -o posix -c 'rm -rf ~'",
    "bash -xc 'rm -rf ~'",
    "bash -c -- 'rm -rf ~'",
    "bash <<'EOF'\nrm -rf ~\nEOF",
    'sh <<EOF\nr\\m -rf ~\nEOF',
    "bash <<< 'rm -rf ~'",
    "echo 'rm -rf ~' | sh",
    'find . -exec rm -rf ~ \\;',
    ':(){ :|:& };:',
    'f(){ f|f& }; f',
  ])('%j', (cmd) => {
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, cmd, { mode });
      expect(verdict.kind, mode).toBe('deny');
      expect(policy.decision).toBe('deny');
      expect(grants).toEqual([]);
    }
  });
});

describe('what the guard cannot read asks in every mode, with no grant', () => {
  it.each([
    ['coproc touch x', /coproc/],
    ['coproc { touch x; }', /coproc/],
    ['coproc NAME { ls; }', /coproc/],
    ['coproc ls', /coproc/],
    ['exec 3<>/dev/tcp/127.0.0.1/80', /unreadable syntax/],
    ['exec {fd}<>/dev/tcp/127.0.0.1/80', /unreadable syntax/],
    ["trap 'touch x' EXIT", /trap/],
    ['trap "ls" EXIT', /trap/],
    ["builtin eval 'touch x'", /eval/],
    ["command eval 'touch x'", /eval/],
    ['enable -f ./x.so x', /enable -f/],
    ['builtin enable -f ./x.so x', /enable -f/],
    ['echo $(( a[$(touch x)] ))', /arithmetic/],
    ['(( x[$(touch x)] ))', /arithmetic/],
    ['[[ -v a[$(touch x)] ]]', /subscript/],
    ["declare -i n='a[$(touch x)]'", /declare -i/],
    ["printf -v 'a[$(touch x)]' x", /printf -v/],
    ["test -v 'a[$(touch x)]'", /test -v/],
    ["builtin printf -v 'a[$(touch x)]' x", /printf -v/],
    ['echo ${x@P}', /prompt/],
    ['echo ${!name}', /indirect/],
    ['{rm,-rf,~}', /unreadable syntax/],
    ['{touch,x}', /unreadable syntax/],
    ['/???/r? -rf ~', /pattern/],
    ['/usr/bin/r[m] -rf ~', /pattern/],
    ['/bin/t*h x', /pattern/],
    ['IFS=,; c=touch,x; $c', /only known at run time/],
    ['c=rm; $c -rf ~', /only known at run time/],
    ['${x:-rm} -rf ~', /only known at run time/],
    ['r${x}m -rf ~', /only known at run time/],
    ['f() { "$@"; }; f rm -rf ~', /only known at run time/],
    ['f() { $1 -rf ~; }; f rm', /only known at run time/],
    ["python3 -c 'import os'", /python3 code/],
    ['node -e \'require("fs")\'', /node code/],
    ['perl -e \'unlink "x"\'', /perl code/],
    ['awk \'BEGIN{system("touch x")}\'', /system/],
    ["sed 'e touch x' a.txt", /sed runs/],
    ["sed -n '1e touch x' a.txt", /sed runs/],
    ["git -c alias.x='!touch y' x", /git -c/],
    ['git --config-env=core.pager=FOO log', /git --config-env/],
    ['git --config-env core.pager=FOO log', /git --config-env/],
    ["tar --to-command='touch x' -xf a.tar", /tar/],
    ["LESSOPEN='|touch x' less a.txt", /LESSOPEN/],
    ["MANPAGER='sh -c id' man ls", /MANPAGER/],
    ['echo hi > >(touch x)', /only known at run time/],
    ['tee >(sh) < a.txt', /only known at run time/],
    ['echo x | xargs touch', /xargs input/],
    ['source <(echo touch x)', /output of a command/],
    ['bash <<EOF\n$(cat a.txt)\nEOF', /cannot read/],
    ['eval "$(cat a.txt)"', /eval/],
  ])('%j', (cmd, says) => {
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, cmd, { mode });
      expect(verdict.kind, mode).toBe('cannot_judge');
      if (verdict.kind === 'cannot_judge') expect(verdict.reason).toMatch(says);
      expect(policy.decision).not.toBe('allow');
      expect(grants).toEqual([]);
    }
  });
});

describe('code run indirectly is judged: not read-only, and the command it runs is listed', () => {
  it.each([
    ['f(){ touch x; }; f', ['touch', 'x']],
    ['ls(){ touch x; }; ls', ['touch', 'x']],
    ['function ls { touch x; }; ls', ['touch', 'x']],
    ['exec touch x', ['touch', 'x']],
    ["env -S 'touch x'", ['touch', 'x']],
    ["env -S'touch x'", ['touch', 'x']],
    ['nice touch x', ['touch', 'x']],
    ['timeout 5 touch x', ['touch', 'x']],
    ['nohup touch x', ['touch', 'x']],
    ['setsid touch x', ['touch', 'x']],
    ['stdbuf -o0 touch x', ['touch', 'x']],
    ['watch touch x', ['touch', 'x']],
    ["busybox sh -c 'touch x'", ['touch', 'x']],
    ["$'\\x74ouch' x", ['touch', 'x']],
    ['find . -name a.txt -exec touch {} \\;', ['touch', '{}']],
    ["shopt -s expand_aliases; alias ls='touch x'; ls", ['touch', 'x']],
    ["shopt -s expand_aliases\nalias cat='touch x'\ncat a.txt", ['touch', 'x']],
    ['sh <<EOF\ntouch x\nEOF', ['touch', 'x']],
    ['cat <(touch x)', ['touch', 'x']],
    ['diff <(ls) <(touch x)', ['touch', 'x']],
    ['cat < <(touch x)', ['touch', 'x']],
  ])('%j', (cmd, inner) => {
    const { verdict, policy } = judge(project.fence, cmd, { mode: 'manual' });
    expect(verdict.kind).toBe('ok');
    if (verdict.kind !== 'ok') return;
    expect(verdict.readOnly).toBe(false);
    expect(argvs(verdict)).toContainEqual(inner);
    expect(policy.decision).not.toBe('allow');
  });

  it('a script the line writes and then sources is not read-only; manual mode asks', () => {
    const { verdict, policy } = judge(project.fence, "echo 'touch x' > s.sh; . ./s.sh", { mode: 'manual' });
    expect(verdict.kind === 'ok' && verdict.readOnly).toBe(false);
    expect(policy.decision).not.toBe('allow');
  });
});

describe('a rule or grant for the command a function or alias shadows does not cover it', () => {
  const allow = (command: string) => [
    {
      id: 'user-1',
      source: 'user' as const,
      tool: 'execute_command',
      decision: 'allow' as const,
      when: { command },
    },
  ];

  it.each([
    ['ls *', 'ls(){ touch x; }; ls'],
    ['ls *', "shopt -s expand_aliases\nalias ls='touch x'\nls"],
    ['git status', 'git(){ touch x; }; git status'],
    ['exec *', 'exec touch x'],
    ['command *', 'command touch x'],
    ['nice *', 'nice touch x'],
    ['env *', "env -S 'touch x'"],
  ])('allow %j does not cover %j', (rule, cmd) => {
    for (const mode of MODES) {
      const { policy } = judge(project.fence, cmd, { mode, rules: allow(rule) });
      expect(policy.decision === 'allow' && policy.rule.id === 'user-1', mode).toBe(false);
    }
  });

  it('a grant made on `ls` does not cover a line that redefines ls', () => {
    const plain = judge(project.fence, 'ls -la');
    const scope = plain.grants.find((g) => g.match.kind === 'command_prefix');
    expect(scope?.match).toEqual({ kind: 'command_prefix', tokens: ['ls', '-la'] });
    const caller = { agentId: 'main', agentName: 'main' };
    const s = scope as NonNullable<typeof scope>;
    expect(scopeCovers(s, plain.facts, caller)).toBe(true);
    expect(scopeCovers(s, judge(project.fence, 'ls(){ touch x; }; ls -la').facts, caller)).toBe(false);
    expect(scopeCovers(s, judge(project.fence, "alias ls='touch x'\nls -la").facts, caller)).toBe(false);
  });
});

/** Runs `cmd` in real bash in a fresh directory holding a.txt; the names in it afterwards, with contents. */
function bashLeaves(cmd: string): string[] {
  const dir = mkdtempSync(join(project.base, 'ro-'));
  try {
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    spawnSync('bash', ['-c', cmd], { cwd: dir, stdio: 'ignore', timeout: 10_000 });
    return readdirSync(dir).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('what the guard labels read-only is read-only in real bash', () => {
  it.each([
    'f() { ls; }; f',
    'f() { cat a.txt; }; f | wc -l',
    'exec ls',
    'exec -a foo ls',
    'command -V rm',
    'command -v touch',
    'type -a ls',
    'trap - EXIT',
    "trap '' INT",
    'set -x; ls',
    "printf '%(%s)T\\n' -1",
    'bash <<EOF\necho hi\nEOF',
    "bash <<'EOF'\necho \\`touch MARK\\`\nEOF",
    "cat <<'EOF'\n$(touch MARK) ${!X} ${P@P}\nEOF",
    'time ls',
    'builtin cd . && ls',
    "bash -c 'ls -la'",
    "echo 'cat a.txt' | sh",
    'echo $((1 + 2))',
    "echo '$(touch MARK)'",
    'echo "${P@Q}"',
  ])('%j', (cmd) => {
    const { verdict, policy } = judge(project.fence, cmd, { mode: 'manual' });
    expect(verdict.kind === 'ok' && verdict.readOnly, JSON.stringify(verdict)).toBe(true);
    expect(policy.decision).toBe('allow');
    expect(bashLeaves(cmd)).toEqual(['a.txt']);
  });
});
