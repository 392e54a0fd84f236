/**
 * Red team, issue 26 §4 and §6: what the person's own tools run later, and no phantom files. A
 * command appended a hook to `.githooks/pre-commit` in a repo with `core.hooksPath=.githooks`, or an
 * fsmonitor line to a `.gitconfig` the repo's config includes — and the person's next `git commit` ran
 * it outside any sandbox. Every path the repository's git config names, the package-manager and
 * hook-runner configs, and `node_modules/.bin` are now read-only like `.git`; one that does not
 * exist yet is set aside when a run creates it. And the project shows only what is there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { protectedWrites } from '../../src/gate/gate-steps';
import { loadCommandGuard } from '../../src/policy/command/command-guard';
import { gatherFacts } from '../../src/policy/facts';
import { PathFence } from '../../src/policy/guards/path-guard';
import { createExecuteCommandTool } from '../../src/tools/exec/execute-command';
import { findOnPath } from '../../src/tools/exec/sandbox';
import { type Boundary, bwrap, makeBoundary } from './boundary-harness';

const hasGit = findOnPath('git') !== undefined;
let b: Boundary;
afterEach(() => b?.cleanup());

function repo(config: string, files: Record<string, string> = {}): Boundary {
  b = makeBoundary();
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: b.root });
  for (const [rel, content] of Object.entries(files)) b.write(rel, content);
  const cfg = join(b.root, '.git', 'config');
  execFileSync('sh', ['-c', `cat >> "$1" <<'CFG'\n${config}\nCFG`, 'sh', cfg]);
  return b;
}

describe.skipIf(!bwrap || !hasGit)('paths the repository’s git config names are protected like .git', () => {
  it.each([
    [
      'core.hooksPath',
      '[core]\n\thooksPath = .githooks',
      { '.githooks/pre-commit': '#!/bin/sh\n' },
      '.githooks/pre-commit',
    ],
    [
      'include.path',
      '[include]\n\tpath = ../.gitconfig-shared',
      { '.gitconfig-shared': '[user]\n' },
      '.gitconfig-shared',
    ],
    [
      'includeIf … path',
      '[includeIf "gitdir:**/"]\n\tpath = ../conf/local.gitconfig',
      { 'conf/local.gitconfig': '[user]\n' },
      'conf/local.gitconfig',
    ],
    [
      'core.fsmonitor',
      '[core]\n\tfsmonitor = ./scripts/fsmon.sh',
      { 'scripts/fsmon.sh': '#!/bin/sh\n' },
      'scripts/fsmon.sh',
    ],
    ['core.attributesFile', '[core]\n\tattributesFile = .attrs', { '.attrs': '* text\n' }, '.attrs'],
    [
      'a diff driver’s textconv',
      '[diff "x"]\n\ttextconv = ./tools/conv.sh',
      { 'tools/conv.sh': '#!/bin/sh\n' },
      'tools/conv.sh',
    ],
    [
      'a shell alias',
      '[alias]\n\tst = !./scripts/st.sh',
      { 'scripts/st.sh': '#!/bin/sh\n' },
      'scripts/st.sh',
    ],
  ])('%s: its file cannot be changed', async (_name, config, files, target) => {
    repo(config, files);
    const before = readFileSync(join(b.root, target), 'utf8');
    const r = await b.run(`echo 'touch /tmp/pwned' >> ${target} 2>&1; rm -f ${target} 2>&1`);
    expect(readFileSync(join(b.root, target), 'utf8')).toBe(before);
    expect(r.text).toMatch(/Read-only file system|Device or resource busy/);
  });

  it('core.hooksPath naming a folder that does not exist: one the run creates is set aside', async () => {
    repo('[core]\n\thooksPath = .githooks');
    const r = await b.run(
      'mkdir -p .githooks && printf "#!/bin/sh\\ntouch /tmp/pwned\\n" > .githooks/pre-commit',
    );
    expect(existsSync(join(b.root, '.githooks'))).toBe(false);
    expect(r.text).toContain('.githooks (moved to');
  });

  it('twin: an approved git commit works, with the person’s identity, and hooks stay read-only', async () => {
    repo('', { 'a.txt': 'one\n' });
    const r = await b.run(
      'git add a.txt && git commit -qm one && git log --format=%an; echo x > .git/hooks/pre-commit 2>&1',
      {
        lift: ['.git'],
      },
    );
    expect(r.text).toMatch(/^Pat$/m);
    expect(existsSync(join(b.root, '.git/hooks/pre-commit'))).toBe(false);
  });
});

describe.skipIf(!bwrap)('package-manager and hook-runner configs are protected names', () => {
  it.each([
    '.npmrc',
    '.yarnrc.yml',
    '.pnpmfile.cjs',
    '.pre-commit-config.yaml',
    'lefthook.yml',
    '.lintstagedrc.json',
    '.envrc',
    '.husky/pre-commit',
    '.yarn/releases/yarn-4.cjs',
    'node_modules/.bin/jest',
  ])('an existing %s cannot be changed', async (rel) => {
    b = makeBoundary();
    b.write(rel, 'original\n');
    await b.run(`echo 'node-options=--require ./evil.js' >> ${rel}; echo evil > ${rel}`);
    expect(readFileSync(join(b.root, rel), 'utf8')).toBe('original\n');
  });

  it.each(['.npmrc', '.yarnrc.yml', '.pre-commit-config.yaml', 'lefthook.yml', '.envrc', 'mise.toml'])(
    'a new %s is set aside after the run',
    async (rel) => {
      b = makeBoundary();
      const r = await b.run(`echo evil > ${rel}`);
      expect(existsSync(join(b.root, rel))).toBe(false);
      expect(r.text).toContain('set aside');
    },
  );

  it('a new shim in node_modules/.bin (it would shadow what `npm run` calls) cannot be made', async () => {
    b = makeBoundary();
    b.write('node_modules/.bin/tsc', 'real\n');
    await b.run(
      'printf "#!/bin/sh\\ntouch /tmp/pwned\\n" > node_modules/.bin/git; chmod +x node_modules/.bin/git',
    );
    expect(existsSync(join(b.root, 'node_modules/.bin/git'))).toBe(false);
  });

  it('twin: an approved package install lifts node_modules/.bin (and only an install does)', async () => {
    const guard = await loadCommandGuard();
    b = makeBoundary();
    const fence = new PathFence(b.root);
    const tool = createExecuteCommandTool();
    const lifts = (command: string) =>
      protectedWrites(
        gatherFacts(tool, { command }, { fence, commands: guard, sandbox: { kind: 'bwrap', path: 'bwrap' } }),
      );
    expect(lifts('npm ci')).toContain(join(b.root, 'node_modules', '.bin'));
    expect(lifts('yarn')).toContain(join(b.root, 'node_modules', '.bin'));
    expect(lifts('pnpm add left-pad')).toContain(join(b.root, 'node_modules', '.bin'));
    expect(lifts('npm test')).toEqual([]);
    b.write('node_modules/.bin/tsc', 'real\n');
    await b.run('echo new > node_modules/.bin/tsc', { lift: ['node_modules/.bin'] });
    expect(readFileSync(join(b.root, 'node_modules/.bin/tsc'), 'utf8')).toBe('new\n');
  });

  it('twin: the rest of node_modules stays writable (an install writes packages)', async () => {
    b = makeBoundary();
    b.write('node_modules/left-pad/index.js', 'a\n');
    await b.run('echo b > node_modules/left-pad/index.js');
    expect(readFileSync(join(b.root, 'node_modules/left-pad/index.js'), 'utf8')).toBe('b\n');
  });
});

describe.skipIf(!bwrap)('build tools’ and other agents’ project configs are protected names', () => {
  it.each([
    '.cargo/config.toml',
    'rust-toolchain.toml',
    'gradle/wrapper/gradle-wrapper.properties',
    'gradlew',
    '.mvn/jvm.config',
    'bunfig.toml',
    '.claude/settings.json',
    '.gemini/settings.json',
    '.mcp.json',
    '.hg/hgrc',
    '.idea/workspace.xml',
  ])('an existing %s cannot be changed', async (rel) => {
    b = makeBoundary();
    b.write(rel, 'original\n');
    await b.run(`echo '[build] rustc-wrapper = "./evil.sh"' >> ${rel}; echo evil > ${rel}`);
    expect(readFileSync(join(b.root, rel), 'utf8')).toBe('original\n');
  });

  it.each(['.cargo/config.toml', '.claude/settings.json', 'bunfig.toml'])(
    'a new %s is set aside after the run',
    async (rel) => {
      b = makeBoundary();
      const r = await b.run(`mkdir -p $(dirname ${rel}) && echo evil > ${rel}`);
      expect(existsSync(join(b.root, rel))).toBe(false);
      expect(r.text).toContain('moved to');
    },
  );

  it('twin: a build writes its own output beside them (target/, build/)', async () => {
    b = makeBoundary();
    b.write('.cargo/config.toml', '[build]\n');
    await b.run('mkdir -p target/debug && echo bin > target/debug/app');
    expect(readFileSync(join(b.root, 'target/debug/app'), 'utf8')).toBe('bin\n');
  });
});

describe.skipIf(!bwrap)('no phantom files: a command sees the project as it is', () => {
  it.each([
    ['ls -la', 'ls -A'],
    ['find', 'find . -mindepth 1'],
  ])('%s in a fresh project lists only what is there', async (_name, command) => {
    b = makeBoundary();
    b.write('src/index.js', '');
    const r = await b.run(command);
    const listed = (r.text.split('\n[')[0] ?? '').split('\n').filter(Boolean);
    expect(listed.map((l) => l.replace(/^\.\//, ''))).toEqual(expect.arrayContaining(['src']));
    for (const phantom of ['AGENTS.md', 'package.json', '.git', '.warden', 'yarn.lock', '.env', '.npmrc'])
      expect(
        listed.some((l) => l.replace(/^\.\//, '') === phantom),
        phantom,
      ).toBe(false);
  });

  it.skipIf(!hasGit)('git status in a fresh repository shows nothing that is not there', async () => {
    repo('', { 'a.txt': 'x\n' });
    const r = await b.run('git status --porcelain --untracked-files=all');
    expect((r.text.split('\n[')[0] ?? '').trim()).toBe('?? a.txt');
  });

  it('a protected name the run creates is set aside, and nothing else of the run is touched', async () => {
    b = makeBoundary();
    const r = await b.run('echo "# plan" > AGENTS.md; echo ok > notes.md');
    expect(existsSync(join(b.root, 'AGENTS.md'))).toBe(false);
    expect(readdirSync(b.root).some((n) => n.startsWith('AGENTS.md.warden-quarantine-'))).toBe(true);
    expect(readFileSync(join(b.root, 'notes.md'), 'utf8')).toBe('ok\n');
    expect(r.text).toContain('AGENTS.md (moved to');
  });
});
