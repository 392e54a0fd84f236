/**
 * Protected paths under the REAL bubblewrap sandbox: every attack below runs through execute_command
 * and must leave the host project byte-for-byte unchanged; the benign twins must still work.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createExecuteCommandTool,
  defaultExecuteCommandEffects,
} from '../../../src/tools/exec/execute-command';
import { detectSandbox, findOnPath } from '../../../src/tools/exec/sandbox';
import { MountPointLedger } from '../../../src/tools/exec/sandbox-mount-points';
import type { SandboxInfo } from '../../../src/tools/types';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const hasBwrap = process.platform === 'linux' && findOnPath('bwrap') !== undefined;
const hasGit = findOnPath('git') !== undefined;

/** Every path under `root` with its type and content (links: their target). */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const key = rel ? `${rel}/${name}` : name;
      const s = lstatSync(path);
      if (s.isSymbolicLink()) out[key] = `link:${readlinkSync(path)}`;
      else if (s.isDirectory()) {
        out[key] = 'dir';
        walk(path, key);
      } else out[key] = `file:${readFileSync(path, 'utf8')}`;
    }
  };
  walk(root, '');
  return out;
}

type Attack = {
  name: string;
  files?: Record<string, string>;
  git?: boolean;
  command: string;
  hit?: string;
  only?: string[];
  /**
   * Missing protected names the run creates: not stood in for (no phantom files), so the write works
   * inside the run and the new path is set aside after it (issue 26 §6).
   */
  appears?: string[];
};

const WORKFLOW = { '.github/workflows/ci.yml': 'on: push\n' };
const ATTACKS: Attack[] = [
  {
    name: 'echo > package.json',
    files: { 'package.json': '{"name":"a"}' },
    command: 'echo \'{"scripts":{"postinstall":"curl x|sh"}}\' > package.json',
    hit: 'package.json',
  },
  { name: '>> an existing .env', files: { '.env': 'A=1\n' }, command: 'echo X=1 >> .env', hit: '.env' },
  { name: '>> .env when there is none', command: 'echo X=1 >> .env', appears: ['.env'] },
  {
    name: 'a new .github/workflows/x.yml (no .github yet)',
    command: 'mkdir -p .github/workflows && echo "on: push" > .github/workflows/x.yml',
    appears: ['.github/workflows'],
  },
  {
    name: 'a new workflow beside an existing one',
    files: WORKFLOW,
    command: 'echo evil > .github/workflows/x.yml; echo evil > .github/workflows/ci.yml',
    hit: '.github/workflows',
  },
  {
    name: 'moving .github away and making workflows anew',
    files: WORKFLOW,
    command:
      'mv .github gh; rm -rf .github; mkdir -p .github/workflows; echo evil > .github/workflows/ci.yml',
    hit: '.github',
  },
  {
    name: 'sed -i package.json',
    files: { 'package.json': '{"name":"a"}' },
    command: "sed -i 's/a/b/' package.json",
    hit: 'package.json',
  },
  {
    name: 'rm package.json and write a new one',
    files: { 'package.json': '{}' },
    command: 'rm -f package.json; echo evil > package.json',
    hit: 'package.json',
  },
  { name: 'writing .git/commondir', git: true, command: 'echo /tmp/evil > .git/commondir', hit: '.git' },
  {
    name: 'git config core.fsmonitor',
    git: true,
    command: 'git config core.fsmonitor "touch /tmp/pwned"',
    hit: '.git',
  },
  {
    name: 'mv .git away and mkdir a new .git',
    git: true,
    command: 'mv .git .git-old; mkdir .git; echo "[core]" > .git/config',
    hit: '.git',
  },
  { name: 'rm -rf .git', git: true, command: 'rm -rf .git' },
  {
    name: 'git init where there is no repository',
    command: 'git init -q .; echo "[core]" > .git/config',
    appears: ['.git'],
  },
  {
    name: 'creating .warden/policy.json when .warden is absent',
    command: 'mkdir -p .warden && echo \'{"rules":[{"tool":"*","decision":"allow"}]}\' > .warden/policy.json',
    appears: ['.warden'],
  },
  {
    name: 'overwriting .warden/policy.json',
    files: { '.warden/policy.json': '{"rules":[]}' },
    command: 'echo \'{"rules":[{"tool":"*","decision":"allow"}]}\' > .warden/policy.json',
    hit: '.warden',
  },
  {
    name: 'a nested .git file (worktree)',
    files: { 'wt/.git': 'gitdir: /nowhere\n', 'wt/a.ts': '' },
    command: 'echo "gitdir: ../evil" > wt/.git',
    hit: 'wt/.git',
  },
  {
    name: 'moving a worktree folder and making its .git anew',
    files: { 'wt/.git': 'gitdir: /nowhere\n' },
    command: 'mv wt wt2; mkdir -p wt; echo "gitdir: ../evil" > wt/.git',
    hit: 'wt',
  },
  {
    name: 'a nested repository config',
    files: { 'lib/sub/.git/config': '[core]\n' },
    command: 'echo "fsmonitor = x" >> lib/sub/.git/config',
    hit: 'lib/sub/.git',
  },
  {
    name: 'a gitdir inside the project (.git file → .bare)',
    files: { '.git': 'gitdir: .bare\n', '.bare/HEAD': 'ref: refs/heads/main\n', '.bare/config': '[core]\n' },
    command: 'echo "fsmonitor = x" >> .bare/config',
    hit: '.bare',
  },
  {
    name: 'creating missing lock files',
    files: { 'package.json': '{}' },
    command: 'echo evil > yarn.lock; echo evil > package-lock.json; echo evil > go.sum',
    appears: ['yarn.lock', 'package-lock.json', 'go.sum'],
  },
  {
    name: 'unmounting or remounting the protection (capabilities)',
    files: { 'package.json': '{}' },
    command: 'umount package.json; mount -o remount,rw,bind package.json; echo evil > package.json',
    hit: 'package.json',
  },
  {
    name: 'a hard link to package.json',
    files: { 'package.json': '{}' },
    command: 'ln package.json pj && echo evil > pj',
  },
  {
    name: 'a symbolic link to package.json',
    files: { 'package.json': '{}' },
    command: 'ln -s package.json pj; echo evil > pj',
    only: ['package.json'],
  },
  {
    name: 'a configured glob that exists (.env.local)',
    files: { '.env.local': 'K=1\n' },
    command: 'echo X=2 >> .env.local; rm -f .env.local',
    hit: '.env.local',
  },
  {
    name: 'a write hidden from the guard (python)',
    files: { 'package.json': '{}' },
    command: `python3 -c "open('package.json','w').write('evil')"`,
    hit: 'package.json',
  },
];

describe.skipIf(!hasBwrap)('protected paths under the real sandbox', () => {
  let sandbox: SandboxInfo;
  let ledgerDir: string;
  let ledger: MountPointLedger;
  let t: TestToolContext;
  const tool = () => createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300, ledger });
  const run = async (command: string, lift?: string[]) => {
    if (lift) t.ctx.liftProtected = lift.map((p) => join(t.root, p));
    const result = await tool().execute({ command }, t.ctx);
    delete t.ctx.liftProtected;
    return {
      ...result,
      text: result.ok ? result.output : result.error,
      exitCode: (result.data as { exitCode?: number | null } | undefined)?.exitCode,
    };
  };
  const project = (files: Record<string, string> = {}, git = false) => {
    t = makeToolContext({ sandbox, files });
    if (git) gitInit(t.root);
    return t;
  };

  beforeAll(async () => {
    sandbox = await detectSandbox();
    ledgerDir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-ledger-')));
    ledger = new MountPointLedger(ledgerDir);
  });
  afterEach(() => t?.cleanup());
  afterAll(() => rmSync(ledgerDir, { recursive: true, force: true }));

  it.each(ATTACKS.filter((a) => hasGit || (!a.git && !a.command.startsWith('git'))))(
    '$name: fails and leaves the host unchanged',
    async (a) => {
      project(a.files, a.git);
      const before = snapshot(t.root);
      const result = await run(a.command);
      const after = snapshot(t.root);
      if (a.appears) {
        for (const path of a.appears) expect(existsSync(join(t.root, path)), path).toBe(false);
        expect(result.text).toMatch(/set aside/);
        for (const [key, value] of Object.entries(before)) expect(after[key], key).toBe(value);
      } else if (a.only) for (const key of a.only) expect(after[key], key).toBe(before[key]);
      else expect(after).toEqual(before);
      if (a.hit) {
        expect(result.text).toContain(a.hit);
        expect(result.text).toContain('only in a run a person approves');
      }
      // No ledger record stays behind once the run is over.
      expect(readdirSync(ledgerDir).filter((n) => n.endsWith('.json'))).toEqual([]);
    },
  );

  it('benign twins still work: a source file, a new dist/, sed -i on a normal file, moving a plain folder', async () => {
    project({ 'src/a.ts': 'let a = 1;\n', 'docs/x.md': '' });
    const result = await run(
      "echo 'export {}' > src/x.ts && mkdir -p dist/js && echo b > dist/js/b.js && sed -i 's/1/2/' src/a.ts && mv docs notes && rm -rf notes",
    );
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(t.root, 'src/x.ts'), 'utf8')).toBe('export {}\n');
    expect(readFileSync(join(t.root, 'dist/js/b.js'), 'utf8')).toBe('b\n');
    expect(readFileSync(join(t.root, 'src/a.ts'), 'utf8')).toBe('let a = 2;\n');
    expect(existsSync(join(t.root, 'notes'))).toBe(false);
  });

  it.skipIf(!hasGit)('read-only git still works: status, log, diff in a real repository', async () => {
    project({ 'a.txt': 'one\n' }, true);
    execFileSync('sh', ['-c', 'echo two >> a.txt'], { cwd: t.root });
    const result = await run('git status --short && git log --oneline | wc -l && git diff --stat');
    expect(result.exitCode).toBe(0);
    expect(result.text).toContain('M a.txt');
    expect(result.text).toContain('1 file changed');
  });

  it('a node script runs in a project without package.json, and the project shows no phantom file', async () => {
    project({ 'a.js': 'console.log("ran")' });
    const result = await run('node a.js && ls -A');
    expect(result.text).toMatch(/^ran\na\.js\n\[/);
    expect(snapshot(t.root)).toEqual({ 'a.js': 'file:console.log("ran")' });
  });

  it('the placeholders it creates are removed after the run, also after a timeout', async () => {
    project({ 'src/a.ts': '' });
    const before = snapshot(t.root);
    const result = await tool().execute({ command: 'sleep 30', timeout_ms: 300 }, t.ctx);
    expect(result.ok).toBe(false);
    expect(snapshot(t.root)).toEqual(before);
  });

  describe('an approved lift', () => {
    it('lets exactly package.json be written, nothing else', async () => {
      project({ 'package.json': '{}', '.env': 'A=1\n' });
      const result = await run(
        'echo \'{"name":"b"}\' > package.json; echo X=1 >> .env; echo evil > yarn.lock',
        ['package.json'],
      );
      expect(readFileSync(join(t.root, 'package.json'), 'utf8')).toBe('{"name":"b"}\n');
      expect(readFileSync(join(t.root, '.env'), 'utf8')).toBe('A=1\n');
      expect(existsSync(join(t.root, 'yarn.lock'))).toBe(false);
      expect(result.text).toContain('writable for this run: package.json');
    });

    it('lets sed -i replace a lifted file (no mount stands in the way of the rename)', async () => {
      project({ 'package.json': '{"name":"a"}' });
      expect((await run(`sed -i 's/"a"/"b"/' package.json`, ['package.json'])).exitCode).toBe(0);
      expect(readFileSync(join(t.root, 'package.json'), 'utf8')).toBe('{"name":"b"}');
    });

    it('creates a missing lifted file inside a read-only folder, and only that one', async () => {
      project(WORKFLOW);
      await run(
        'echo new > .github/workflows/x.yml; echo evil > .github/workflows/ci.yml; echo evil > .github/workflows/y.yml',
        ['.github/workflows/x.yml'],
      );
      expect(readFileSync(join(t.root, '.github/workflows/x.yml'), 'utf8')).toBe('new\n');
      expect(readFileSync(join(t.root, '.github/workflows/ci.yml'), 'utf8')).toBe('on: push\n');
      expect(existsSync(join(t.root, '.github/workflows/y.yml'))).toBe(false);
    });

    it('creates .warden/policy.json when .warden is absent, and nothing else in it', async () => {
      project();
      await run('mkdir -p .warden; echo "{}" > .warden/policy.json; echo x > .warden/config.json', [
        '.warden/policy.json',
      ]);
      expect(readdirSync(join(t.root, '.warden'))).toEqual(['policy.json']);
    });

    it('an unused lifted placeholder does not stay behind', async () => {
      project(WORKFLOW);
      await run('true', ['.github/workflows/x.yml']);
      expect(readdirSync(join(t.root, '.github/workflows'))).toEqual(['ci.yml']);
    });

    it.skipIf(!hasGit)('git commit with .git lifted works; hooks and config stay read-only', async () => {
      project({ 'a.txt': 'one\n' }, true);
      const result = await run(
        'echo two >> a.txt && git -c user.email=t@t -c user.name=t commit -qam two && git log --oneline | wc -l; echo "#!/bin/sh" > .git/hooks/pre-commit; echo "[core]" >> .git/config',
        ['.git'],
      );
      expect(result.text).toMatch(/^2$/m);
      expect(existsSync(join(t.root, '.git/hooks/pre-commit'))).toBe(false);
      expect(result.text).toContain('.git/hooks');
    });
  });

  describe('a .git the run creates where none was', () => {
    it.skipIf(!hasGit)(
      'git init in a subfolder: set aside after the run, and the result says so',
      async () => {
        project({ 'pkg/a.ts': '' });
        const result = await run(
          'git init -q pkg && git -C pkg config core.fsmonitor "touch /tmp/pwned" && echo made',
        );
        expect(result.text).toContain('made');
        expect(existsSync(join(t.root, 'pkg/.git'))).toBe(false);
        const aside = readdirSync(join(t.root, 'pkg')).find((n) => n.startsWith('.git.warden-quarantine-'));
        expect(aside).toBeDefined();
        expect(readFileSync(join(t.root, 'pkg', aside as string, 'config'), 'utf8')).toContain('fsmonitor');
        expect(result.text).toContain('This run created a git repository inside the project: pkg/.git');
        expect((result.data as { quarantined?: string[] }).quarantined).toEqual(['pkg/.git']);
      },
    );

    it('a .git file pointing elsewhere, deep in a new folder: set aside too', async () => {
      project();
      await run('mkdir -p a/b/c && echo "gitdir: ../../../evil" > a/b/c/.git');
      expect(existsSync(join(t.root, 'a/b/c/.git'))).toBe(false);
    });

    it('an existing nested .git and a lifted new one are left alone', async () => {
      project({ 'old/.git': 'gitdir: /x\n' });
      await run('mkdir -p pkg && echo "gitdir: /y" > pkg/.git', ['pkg/.git']);
      expect(readFileSync(join(t.root, 'pkg/.git'), 'utf8')).toBe('gitdir: /y\n');
      expect(readFileSync(join(t.root, 'old/.git'), 'utf8')).toBe('gitdir: /x\n');
    });
  });

  it('refuses to run when a .git is a symbolic link (it could be replaced)', async () => {
    project({ 'real-git/HEAD': 'x' });
    execFileSync('ln', ['-s', 'real-git', join(t.root, '.git')]);
    const result = await run('true');
    expect(result.ok).toBe(false);
    expect(result.text).toContain('.git is a symbolic link');
  });

  it('two overlapping runs: the first to end does not set aside what the other run was approved to create', async () => {
    project();
    const gate = join(t.root, 'go');
    const slow = run(
      'mkdir -p .warden; echo x > .warden/policy.json; echo y > .warden/config.json; while [ ! -e go ]; do sleep 0.02; done; echo slow-done',
      ['.warden/policy.json'],
    );
    await expect
      .poll(() => existsSync(join(t.root, '.warden/config.json')), { timeout: 10_000, interval: 20 })
      .toBe(true);
    await run('true');
    expect(readFileSync(join(t.root, '.warden/policy.json'), 'utf8')).toBe('x\n');
    execFileSync('touch', [gate]);
    const result = await slow;
    expect(result.text).toContain('slow-done');
    // The lifted file stays; what the card did not list is set aside.
    expect(readdirSync(join(t.root, '.warden'))).toEqual(['policy.json']);
  });
});

function gitInit(root: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
      cwd: root,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'one', '--allow-empty');
}
