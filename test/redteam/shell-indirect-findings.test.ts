/**
 * Red team, second pass over the command guard — indirect execution where bash reads a line
 * differently from the parser. Each block is a finding that failed before its fix:
 * - an unquoted here-doc fed to a shell: bash drops the backslash of `\$` and `` \` `` before the
 *   inner shell reads the text, so `bash <<EOF` with echo \`touch x\` ran touch while judged read-only;
 * - a function definition's redirection (`f() { …; } > out; f`) writes on every call, judged read-only;
 * - `cat < /dev/tcp/host/80` opens a connection, judged read-only;
 * - wrappers and editors that run a command or code from their own words (`flock`, `script -c`,
 *   `vim -c '!…'`, `make --eval`, `gdb -ex`, `expect -c`, `runuser`, `sg`) were judged as the outer
 *   program alone: no hard rule saw `rm -rf ~` inside, and auto mode allowed them.
 * The bash premises run real bash in a temp directory; they only create files inside it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GrantStore, scopeCovers } from '../../src/gate/grants';
import { argvs, BWRAP, judge, MODES, NO_SANDBOX, tempProject } from './shell-judge';

const project = tempProject();
afterAll(() => project.remove());

/** Runs `cmd` in real bash inside a fresh directory under the temp base; true when `file` appeared. */
function bashCreates(cmd: string, file: string): boolean {
  const dir = mkdtempSync(join(project.base, 'bash-'));
  try {
    spawnSync('bash', ['-c', cmd], { cwd: dir, stdio: 'ignore', timeout: 10_000 });
    return existsSync(join(dir, file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const USER_ALLOW = (command: string) => [
  {
    id: 'user-1',
    source: 'user' as const,
    tool: 'execute_command',
    decision: 'allow' as const,
    when: { command },
  },
];

describe('an unquoted here-doc fed to a shell is judged as the text bash hands it', () => {
  const cases = [
    'bash <<EOF\necho \\`touch MARK\\`\nEOF',
    'sh <<EOF\necho "\\$(touch MARK)"\nEOF',
    'bash <<EOF\necho \\$(touch MARK)\nEOF',
    'cat <<EOF | sh\necho \\`touch MARK\\`\nEOF',
    'sh <<-EOF\n\techo "\\$(touch MARK)"\n\tEOF',
  ];

  it.each(cases)('bash runs the hidden code (the premise): %j', (cmd) => {
    expect(bashCreates(cmd, 'MARK')).toBe(true);
  });

  it.each(cases)('%j is not read-only, and its touch is seen', (cmd) => {
    const { verdict, policy } = judge(project.fence, cmd, { mode: 'manual' });
    if (verdict.kind === 'ok') {
      expect(verdict.readOnly).toBe(false);
      expect(argvs(verdict)).toContainEqual(['touch', 'MARK']);
    } else expect(verdict.kind).toBe('cannot_judge');
    expect(policy.decision).not.toBe('allow');
  });

  it('a hidden rm -rf ~ behind an escaped backtick is denied', () => {
    const { verdict } = judge(project.fence, 'bash <<EOF\necho \\`rm -rf ~\\`\nEOF');
    expect(verdict.kind).toBe('deny');
  });

  it('twins: a quoted delimiter keeps the backslash (bash prints it), a doubled one stays literal', () => {
    expect(bashCreates("bash <<'EOF'\necho \\`touch MARK\\`\nEOF", 'MARK')).toBe(false);
    const quoted = judge(project.fence, "bash <<'EOF'\necho \\`touch MARK\\`\nEOF").verdict;
    expect(quoted.kind === 'ok' && quoted.readOnly).toBe(true);
    const plain = judge(project.fence, 'bash <<EOF\necho hi\nls\nEOF').verdict;
    expect(plain.kind === 'ok' && plain.readOnly).toBe(true);
  });
});

describe("a function definition's redirection writes on every call", () => {
  it('bash writes out when f runs, not when it is defined (the premise)', () => {
    expect(bashCreates('f() { echo x; } > out; f', 'out')).toBe(true);
    expect(bashCreates('f() { echo x; } > out; true', 'out')).toBe(false);
  });

  it.each(['f() { echo x; } > out; f', 'f() { cat a.txt; } >> out; f', 'function f { ls; } > out; f'])(
    '%j writes out: not read-only, the write is listed',
    (cmd) => {
      const { verdict, policy } = judge(project.fence, cmd, { mode: 'manual' });
      expect(verdict.kind).toBe('ok');
      if (verdict.kind !== 'ok') return;
      expect(verdict.readOnly).toBe(false);
      expect(verdict.parts.flatMap((p) => p.writes ?? [])).toContain('out');
      expect(policy.decision).not.toBe('allow');
    },
  );

  it('a definition redirecting outside the project meets the path fence', () => {
    for (const mode of MODES) {
      const { policy } = judge(project.fence, 'f() { echo x; } > /etc/evil; f', { mode });
      expect(policy.decision).toBe('deny');
    }
  });

  it('twin: a definition without a redirection stays read-only', () => {
    const { verdict } = judge(project.fence, 'f() { ls; }; f');
    expect(verdict.kind === 'ok' && verdict.readOnly).toBe(true);
  });
});

describe('bash network redirections are not read-only', () => {
  it.each([
    'cat < /dev/tcp/127.0.0.1/80',
    'cat </dev/udp/127.0.0.1/53',
    'head -c 10 < /dev/tcp/example.com/80',
    'read x < /dev/tcp/127.0.0.1/80',
    'exec 3</dev/tcp/127.0.0.1/80',
    'ls 3</dev/tcp/127.0.0.1/80',
  ])('%j: network noted, not read-only, asked in manual mode', (cmd) => {
    const { verdict, policy } = judge(project.fence, cmd, { mode: 'manual' });
    expect(verdict.kind).toBe('ok');
    if (verdict.kind !== 'ok') return;
    expect(verdict.readOnly).toBe(false);
    expect(verdict.notes.some((n) => n.startsWith('uses network: /dev/'))).toBe(true);
    expect(policy.decision).not.toBe('allow');
  });

  it('twin: an ordinary input file stays read-only', () => {
    const { verdict } = judge(project.fence, 'cat < a.txt');
    expect(verdict.kind === 'ok' && verdict.readOnly).toBe(true);
  });
});

describe("package and environment managers' run subcommands are unwrapped", () => {
  it.each([
    'npm exec -- rm -rf ~',
    'npm x rm -rf ~',
    "npm exec -c 'rm -rf ~'",
    'pnpm exec rm -rf ~',
    'pnpm dlx rm -rf ~',
    'yarn exec rm -rf ~',
    'yarn dlx rm -rf ~',
    'bun x rm -rf ~',
    "bun exec 'rm -rf ~'",
    'uv run rm -rf ~',
    'uv run --with requests rm -rf ~',
    'uvx rm -rf ~',
    'poetry run rm -rf ~',
    'pipx run rm -rf ~',
    'pipenv run rm -rf ~',
    'conda run -n base rm -rf ~',
    'pdm run rm -rf ~',
    'hatch run rm -rf ~',
    'direnv exec . rm -rf ~',
    "nix-shell --run 'rm -rf ~'",
    "nix-shell -p hello --command 'rm -rf ~'",
    // The manager's own options first.
    'npm --yes exec rm -rf ~',
    'npm --prefix x exec rm -rf ~',
    'npm -w pkg exec -- rm -rf ~',
    'uv --quiet run rm -rf ~',
  ])('%s is denied in every mode', (cmd) => {
    for (const mode of MODES) {
      const { verdict, policy } = judge(project.fence, cmd, { mode });
      expect(verdict.kind).toBe('deny');
      if (verdict.kind === 'deny') expect(verdict.ruleId).toBe('cmd-rm-root');
      expect(policy.decision).toBe('deny');
    }
  });

  it.each([
    ['npm exec eslint .', ['eslint', '.']],
    ['uv run pytest -q', ['pytest', '-q']],
    ['poetry run touch x', ['touch', 'x']],
  ])('%s is judged as the command it runs', (cmd, inner) => {
    const { verdict } = judge(project.fence, cmd);
    expect(verdict.kind).toBe('ok');
    if (verdict.kind === 'ok') expect(argvs(verdict)).toContainEqual(inner);
  });

  it.each([
    'npm run build',
    'npm run exec',
    'npm test',
    'poetry install',
    'nix-shell shell.nix',
    'npm constructor',
  ])('twin: %s is judged as the manager itself', (cmd) => {
    const { verdict } = judge(project.fence, cmd);
    expect(verdict.kind).toBe('ok');
  });
});

describe('wrappers that run a command from their own words are unwrapped', () => {
  it.each([
    'flock l rm -rf ~',
    'flock -x l rm -rf ~',
    'flock -w 5 l rm -rf ~',
    "flock -c 'rm -rf ~' l",
    "flock l -c 'rm -rf ~'",
    "flock --command='rm -rf ~' l",
    "script -c 'rm -rf ~' /dev/null",
    "script -qec 'rm -rf ~' /dev/null",
    "script --command='rm -rf ~' log",
    'chrt 0 rm -rf ~',
    'chrt -o 0 rm -rf ~',
    'taskset 1 rm -rf ~',
    'taskset -c 0 rm -rf ~',
    'prlimit --nofile=10 rm -rf ~',
    'valgrind -q rm -rf ~',
    'catchsegv rm -rf ~',
    'xvfb-run -a rm -rf ~',
    "xvfb-run -s '-screen 0 1x1x8' rm -rf ~",
    'dbus-run-session -- rm -rf ~',
    'timeout 5 flock l nice rm -rf ~',
  ])('%s is denied in every mode', (cmd) => {
    for (const mode of MODES) {
      const { verdict, policy } = judge(project.fence, cmd, { mode });
      expect(verdict.kind).toBe('deny');
      if (verdict.kind === 'deny') expect(verdict.ruleId).toBe('cmd-rm-root');
      expect(policy.decision).toBe('deny');
    }
  });

  it.each([
    ['flock l touch x', ['touch', 'x']],
    ["flock -c 'touch x' l", ['touch', 'x']],
    ["script -qc 'touch x' /dev/null", ['touch', 'x']],
    ['taskset -c 0 touch x', ['touch', 'x']],
  ])('%s is judged as the command it runs', (cmd, inner) => {
    const { verdict } = judge(project.fence, cmd);
    expect(verdict.kind).toBe('ok');
    if (verdict.kind !== 'ok') return;
    expect(verdict.readOnly).toBe(false);
    expect(argvs(verdict)).toContainEqual(inner);
  });

  it('flock runs its command (the premise, real flock)', () => {
    const lock = join(project.base, 'lock');
    expect(bashCreates(`flock ${lock} touch MARK`, 'MARK')).toBe(true);
    expect(bashCreates(`flock ${lock} -c 'touch MARK'`, 'MARK')).toBe(true);
  });

  it('twins: script without -c names files, not a command; flock on a descriptor runs nothing', () => {
    expect(argvs(judge(project.fence, 'script -q log.txt').verdict)).toEqual([['script', '-q', 'log.txt']]);
    expect(judge(project.fence, 'flock -n 9').verdict.kind).toBe('ok');
    expect(judge(project.fence, 'prlimit -p 1').verdict.kind).toBe('ok');
  });

  it.each(['runuser -u nobody -- rm x', "runuser nobody -c 'ls'", "sg adm 'ls'", 'sg adm -c ls'])(
    '%s runs as another user or group: denied like su',
    (cmd) => {
      const { verdict } = judge(project.fence, cmd);
      expect(verdict.kind).toBe('deny');
      if (verdict.kind === 'deny') expect(verdict.ruleId).toBe('cmd-sudo');
    },
  );
});

describe('editors and tools that run code given on the line ask in every mode', () => {
  it.each([
    ["vim -c '!rm -rf ~'", 'vim'],
    ["vim -es -c '!touch x' -c q a.txt", 'vim'],
    ["vim +'!touch x' a.txt", 'vim'],
    ["vim --cmd '!touch x'", 'vim'],
    ["nvim --headless -c '!touch x' -c q", 'nvim'],
    ["ex -c '!touch x' a.txt", 'ex'],
    ["vi -c ':!touch x'", 'vi'],
    ["view +'!touch x' a.txt", 'view'],
    ['emacs --batch --eval \'(shell-command "touch x")\'', 'emacs'],
    ['emacs -batch -eval \'(shell-command "touch x")\'', 'emacs'],
    ["make --eval='all:;touch x'", 'make'],
    ["make -E 'all:;touch x'", 'make'],
    ["gdb -batch -ex 'shell touch x'", 'gdb'],
    ["gdb -batch -ex '!touch x'", 'gdb'],
    ["gdb --eval-command='shell touch x'", 'gdb'],
  ])('%s (%s)', (cmd, what) => {
    for (const mode of MODES) {
      const { verdict, policy, grants } = judge(project.fence, cmd, { mode, sandbox: BWRAP });
      expect(verdict.kind).toBe('cannot_judge');
      if (verdict.kind === 'cannot_judge') expect(verdict.reason).toContain(what);
      expect(policy.decision).not.toBe('allow');
      expect(grants).toEqual([]);
    }
  });

  it('expect -c is code the guard cannot read', () => {
    const { verdict } = judge(project.fence, "expect -c 'spawn touch x'");
    expect(verdict.kind).toBe('cannot_judge');
  });

  it('an allow rule `vim *` or `make *` does not cover code given on the line', () => {
    for (const [rule, cmd] of [
      ['vim *', "vim -c '!touch x' a.txt"],
      ['make *', "make --eval='all:;touch x'"],
      ['flock *', 'flock l touch x'],
    ] as const) {
      for (const mode of MODES) {
        const { policy } = judge(project.fence, cmd, { mode, rules: USER_ALLOW(rule), sandbox: NO_SANDBOX });
        expect(policy.decision, `${rule} / ${cmd} / ${mode}`).not.toBe('allow');
      }
    }
  });

  it('a grant made on `make test` does not cover `make --eval=…`', () => {
    const plain = judge(project.fence, 'make test');
    const scope = plain.grants.find((g) => g.match.kind === 'command_prefix');
    expect(scope?.match).toEqual({ kind: 'command_prefix', tokens: ['make', 'test'] });
    const store = new GrantStore();
    store.add(scope as NonNullable<typeof scope>);
    const caller = { agentId: 'main', agentName: 'main' };
    const hostile = judge(project.fence, "make test --eval='test:;touch x'");
    expect(scopeCovers(scope as NonNullable<typeof scope>, hostile.facts, caller)).toBe(false);
  });

  it.each([
    'vim a.txt',
    'vim +12 a.txt',
    'vim + a.txt',
    'make',
    'make -C src test',
    'gdb ./a.out',
    'emacs a.txt',
  ])('twin: %s is judged as before', (cmd) => {
    expect(judge(project.fence, cmd).verdict.kind).toBe('ok');
  });
});
