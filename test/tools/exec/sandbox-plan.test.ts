/** The protection plan, the denial reader and the bwrap argv, without running bubblewrap. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS } from '../../../src/policy/guards/path-guard';
import { bwrapArgs } from '../../../src/tools/exec/sandbox';
import { describeHits, protectedHits } from '../../../src/tools/exec/sandbox-denials';
import { fixedNames, planProtection } from '../../../src/tools/exec/sandbox-protect';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

let t: TestToolContext;
afterEach(() => t?.cleanup());
const rel = (paths: readonly string[]) => paths.map((p) => p.slice(t.root.length + 1));
const plan = (lift: string[] = [], limit?: number) =>
  planProtection(
    t.root,
    DEFAULT_PROTECTED_PATHS,
    lift.map((p) => join(t.root, p)),
    limit,
  );

describe('planProtection', () => {
  it('finds every .git, .warden and protected file, pins their folders, skips node_modules', () => {
    t = makeToolContext({
      files: {
        '.git/HEAD': 'ref',
        '.git/modules/lib/HEAD': 'ref',
        'package.json': '{}',
        'packages/a/package.json': '{}',
        'packages/a/src/x.ts': '',
        'packages/b/.git': 'gitdir: ../../.git/modules/lib\n',
        'node_modules/left-pad/package.json': '{}',
        'src/.env.local': 'K=1',
      },
    });
    const p = plan();
    expect(rel(p.readOnly)).toEqual(
      expect.arrayContaining([
        '.git',
        'package.json',
        'packages/a/package.json',
        'packages/b/.git',
        'src/.env.local',
      ]),
    );
    // Missing names are watched, not stood in for (issue 26 §6); credential files are masked too.
    expect(rel(p.watched)).toEqual(expect.arrayContaining(['.warden', '.github/workflows', 'yarn.lock']));
    expect(rel(p.readOnly)).not.toContain('.warden');
    expect(p.masked.map((m) => rel([m.path])[0])).toEqual(['src/.env.local']);
    // The submodule's gitdir lies inside .git: covered by it, never a mount (or a writable pin) of its own.
    expect(rel(p.readOnly)).not.toContain('.git/modules/lib');
    expect(rel(p.pinned)).toEqual(['packages', 'src', 'packages/a', 'packages/b']);
    expect(rel(p.readOnly).some((r) => r.startsWith('node_modules'))).toBe(false);
    // Parents before what is inside them.
    const depths = p.readOnly.map((r) => r.split('/').length);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    expect(p.truncated).toBe(false);
  });

  it('watches the missing fixed names and makes no placeholder for them (no phantom files)', () => {
    t = makeToolContext({ files: { 'src/a.ts': '' } });
    const p = plan();
    expect(p.placeholders).toEqual([]);
    expect(rel(p.watched)).toEqual(
      expect.arrayContaining([
        '.git',
        '.warden',
        '.github/workflows',
        'package.json',
        'yarn.lock',
        '.env',
        '.npmrc',
      ]),
    );
    expect(p.readOnly).toEqual([]);
  });

  type LiftCase = {
    name: string;
    files: Record<string, string>;
    lift: string[];
    ro: string[];
    notRo: string[];
    writable: string[];
  };
  it.each<LiftCase>([
    {
      name: 'an exact lift drops the mount',
      files: { 'package.json': '{}' },
      lift: ['package.json'],
      ro: [],
      notRo: ['package.json'],
      writable: [],
    },
    {
      name: 'a lifted .git keeps hooks and config read-only',
      files: { '.git/HEAD': 'r', '.git/hooks/x': '', '.git/config': '' },
      lift: ['.git'],
      ro: ['.git/hooks', '.git/config'],
      notRo: ['.git'],
      writable: [],
    },
    {
      name: 'lifting .git/config by name lifts it',
      files: { '.git/HEAD': 'r', '.git/config': '' },
      lift: ['.git/config'],
      ro: ['.git'],
      notRo: [],
      writable: ['.git/config'],
    },
    {
      name: 'a lift inside a read-only folder is bound writable',
      files: { '.github/workflows/ci.yml': '' },
      lift: ['.github/workflows/x.yml'],
      ro: ['.github/workflows'],
      notRo: [],
      writable: ['.github/workflows/x.yml'],
    },
    {
      name: 'a lift of a missing fixed name makes no placeholder',
      files: {},
      lift: ['package.json'],
      ro: [],
      notRo: ['package.json'],
      writable: [],
    },
    {
      name: 'a lift outside the project is ignored',
      files: { 'package.json': '{}' },
      lift: ['../elsewhere'],
      ro: ['package.json'],
      notRo: [],
      writable: [],
    },
  ])('$name', ({ files, lift, ro, notRo, writable }) => {
    t = makeToolContext({ files });
    const p = plan(lift);
    expect(rel(p.readOnly)).toEqual(expect.arrayContaining(ro));
    for (const path of notRo) expect(rel(p.readOnly)).not.toContain(path);
    expect(rel(p.writable)).toEqual(writable);
    if (lift[0] === 'package.json')
      expect(rel(p.placeholders.map((h) => h.path))).not.toContain('package.json');
  });

  it('refuses a .git that is a symbolic link; protects the inside target of another linked protected name', () => {
    t = makeToolContext({ files: { 'real/HEAD': 'r', 'secrets/env': 'K=1' } });
    symlinkSync('secrets/env', join(t.root, '.env'));
    expect(plan().refused).toBeUndefined();
    expect(rel(plan().readOnly)).toContain('secrets/env');
    symlinkSync('real', join(t.root, '.git'));
    expect(plan().refused).toContain('.git is a symbolic link');
  });

  it('stops at the scan limit, breadth first, and says so', () => {
    t = makeToolContext({ files: { 'package.json': '{}', 'a/b/c/d/.git': 'gitdir: x' } });
    for (let i = 0; i < 30; i++) mkdirSync(join(t.root, `dir${i}`));
    const p = plan([], 20);
    expect(p.truncated).toBe(true);
    expect(rel(p.readOnly)).toContain('package.json');
    expect(rel(p.readOnly)).not.toContain('a/b/c/d/.git');
  });

  it('derives the fixed names from the defaults: .env from .env*, folders from a trailing slash', () => {
    expect(fixedNames(['.env*', 'docs/', 'x/*.lock', 'Cargo.lock'])).toEqual([
      { path: '.git', kind: 'dir' },
      { path: '.warden', kind: 'dir' },
      { path: '.env', kind: 'file' },
      { path: 'docs', kind: 'dir' },
      { path: 'Cargo.lock', kind: 'file' },
    ]);
  });
});

describe('protectedHits', () => {
  const mounts = { readOnly: ['/p/package.json', '/p/.git', '/p/.warden'], pinned: ['/p/wt'] };
  it.each([
    {
      out: 'bash: line 1: package.json: Read-only file system',
      cmd: 'echo > package.json',
      cwd: '/p',
      hits: ['package.json'],
    },
    {
      out: "touch: cannot touch '.git/commondir': Read-only file system",
      cmd: 'touch .git/commondir',
      cwd: '/p',
      hits: ['.git/commondir'],
    },
    {
      out: "mv: cannot move '.git' to 'g2': Device or resource busy",
      cmd: 'mv .git g2',
      cwd: '/p',
      hits: ['.git'],
    },
    {
      out: 'sed: cannot rename ./sedAb12: Device or resource busy',
      cmd: "sed -i 's/a/b/' package.json",
      cwd: '/p',
      hits: ['package.json'],
    },
    {
      out: 'bash: ../package.json: Read-only file system',
      cmd: 'echo > ../package.json',
      cwd: '/p/src',
      hits: ['package.json'],
    },
    { out: "mv: cannot move 'wt' to 'x': Device or resource busy", cmd: 'mv wt x', cwd: '/p', hits: ['wt'] },
    { out: "touch: cannot touch '/usr/x': Read-only file system", cmd: 'touch /usr/x', cwd: '/p', hits: [] },
    { out: 'package.json updated', cmd: 'echo > package.json', cwd: '/p', hits: [] },
  ])('$out', ({ out, cmd, cwd, hits }) => {
    expect(protectedHits(out, cmd, '/p', cwd, mounts).map((h) => h.path)).toEqual(hits);
  });

  it('tells the model what it hit and that a person must approve', () => {
    const text = describeHits(
      protectedHits(
        "mv: cannot move 'wt' to 'x': Device or resource busy\nbash: .git/config: Read-only file system",
        'x',
        '/p',
        '/p',
        { readOnly: ['/p/.git', '/p/wt/.git'], pinned: ['/p/wt'] },
      ),
    );
    expect(text).toContain('.git/config (in .git): protected, read-only in the sandbox.');
    expect(text).toContain('wt: holds a protected path (wt/.git), so it cannot be moved or removed.');
    expect(text).toContain('only in a run a person approves');
  });
});

describe('bwrapArgs with a plan', () => {
  it('binds pins and read-only paths by depth, lifted paths last, and drops capabilities as root', () => {
    const args = bwrapArgs('/p', '/p', [], {
      pinned: ['/p/a'],
      readOnly: ['/p/a/.git', '/p/.git'],
      writable: ['/p/.git/x'],
    }).join(' ');
    expect(args).toContain(
      '--bind /p /p --bind /p/a /p/a --ro-bind /p/.git /p/.git --ro-bind /p/a/.git /p/a/.git --bind /p/.git/x /p/.git/x',
    );
    expect(args).not.toContain('--ro-bind-try');
    if (process.getuid?.() === 0) expect(args).toContain('--cap-drop ALL');
  });
});
