import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS, PathFence, type PathVerdict } from '../../../src/policy/guards/path-guard';

// A real project on disk: base/proj (the fence), base/outside, base/proj-evil (prefix collision).
let base: string;
let root: string;
let fence: PathFence;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-fence-')));
  root = join(base, 'proj');
  const file = (rel: string, text = 'x') => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (const rel of [
    'a.txt',
    'sub/b.txt',
    'sub/.env.local',
    '.env',
    '.git/config',
    'sub/.git/HEAD',
    'package.json',
    'sub/package.json',
    'package-lock.json',
    'yarn.lock',
    '.github/workflows/ci.yml',
    '.github/CODEOWNERS',
    '.warden/policy.json',
    'src/index.ts',
    'with space/file name.txt',
    'ünï/日本.txt',
    '..foo',
    ' leading space.txt',
  ])
    file(rel);
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), 'secret');
  mkdirSync(join(base, 'proj-evil'));
  writeFileSync(join(base, 'proj-evil', 'x.txt'), 'evil');
  symlinkSync('a.txt', join(root, 'link-in-file'));
  symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'link-out-file'));
  symlinkSync('sub', join(root, 'link-in-dir'));
  symlinkSync(join(base, 'outside'), join(root, 'link-out-dir'));
  symlinkSync('../outside', join(root, 'sub', 'relative-out-dir'));
  symlinkSync('missing-target', join(root, 'dangling'));
  symlinkSync(join(base, 'outside', 'missing'), join(root, 'dangling-out'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  symlinkSync('.git/config', join(root, 'link-to-git-config'));
  symlinkSync(root, join(base, 'proj-link'));
  fence = new PathFence(root);
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

type Expect =
  | { ok: true; relative: string; protectedBy?: string }
  | { ok: false; ruleId: 'path-fence' | 'path-invalid' };
const inside = (relative: string, protectedBy?: string): Expect => ({
  ok: true,
  relative,
  ...(protectedBy ? { protectedBy } : {}),
});
const fenced: Expect = { ok: false, ruleId: 'path-fence' };
const invalid: Expect = { ok: false, ruleId: 'path-invalid' };

/** `<root>` and `<base>` are replaced by the temp directories at run time. */
const CASES: Array<[string, string, Expect]> = [
  ['relative file', 'a.txt', inside('a.txt')],
  ['relative nested file', 'sub/b.txt', inside('sub/b.txt')],
  ['dot-relative', './sub/b.txt', inside('sub/b.txt')],
  ['absolute inside', '<root>/a.txt', inside('a.txt')],
  ['absolute new file inside', '<root>/sub/new.txt', inside('sub/new.txt')],
  ['absolute outside', '<base>/outside/secret.txt', fenced],
  ['system file', '/etc/passwd', fenced],
  ['filesystem root', '/', fenced],
  ['parent directory', '..', fenced],
  ['.. escape', '../outside/secret.txt', fenced],
  ['.. escape through a subfolder', 'sub/../../outside/secret.txt', fenced],
  ['.. that stays inside', 'sub/../a.txt', inside('a.txt')],
  ['. segment', 'sub/./b.txt', inside('sub/b.txt')],
  ['symlinked file pointing in', 'link-in-file', inside('a.txt')],
  ['symlinked file pointing out', 'link-out-file', fenced],
  ['symlinked dir pointing in', 'link-in-dir/b.txt', inside('sub/b.txt')],
  ['symlinked dir pointing out', 'link-out-dir/secret.txt', fenced],
  ['symlinked dir itself, out', 'link-out-dir', fenced],
  ['relative symlink out from a subfolder', 'sub/relative-out-dir/secret.txt', fenced],
  ['new file under a symlinked parent pointing out', 'link-out-dir/new.txt', fenced],
  ['new file under a symlinked parent pointing in', 'link-in-dir/new.txt', inside('sub/new.txt')],
  ['new folder under a symlinked parent pointing out', 'link-out-dir/new/deeper.txt', fenced],
  ['dangling link inside', 'dangling', fenced],
  ['dangling link to outside', 'dangling-out', fenced],
  ['path through a dangling link', 'dangling/x.txt', fenced],
  ['link loop', 'loop-a', fenced],
  ['path through a link loop', 'loop-a/x.txt', fenced],
  ['new file', 'new.txt', inside('new.txt')],
  ['new file in new folders', 'new-dir/deeper/new.txt', inside('new-dir/deeper/new.txt')],
  ['prefix collision, absolute', '<base>/proj-evil/x.txt', fenced],
  ['prefix collision, relative', '../proj-evil/x.txt', fenced],
  ['prefix collision, root-suffixed', '<root>-evil/x.txt', fenced],
  ['a file named ..foo is not an escape', '..foo', inside('..foo')],
  ['NUL byte', 'a\0.txt', invalid],
  ['NUL byte after a good prefix', 'sub/b.txt\0/../../etc/passwd', invalid],
  ['tilde', '~', invalid],
  ['tilde path', '~/.ssh/id_rsa', invalid],
  ['tilde user', '~root/.bashrc', invalid],
  ['empty', '', invalid],
  ['spaces only', '   ', invalid],
  ['whitespace only', '\t\n', invalid],
  ['longer than the limit', `${'d/'.repeat(2100)}x`, invalid],
  ['a segment longer than a file name may be', `${'y'.repeat(300)}/x`, fenced],
  ['dot', '.', inside('')],
  ['the root itself', '<root>', inside('')],
  ['the root with a trailing slash', '<root>/', inside('')],
  ['folder with a trailing slash', 'sub/', inside('sub')],
  ['double slashes', 'sub//b.txt', inside('sub/b.txt')],
  ['absolute with repeated slashes', '<root>//sub///b.txt', inside('sub/b.txt')],
  ['a path below a file', 'a.txt/x', inside('a.txt/x')],
  ['spaces in names', 'with space/file name.txt', inside('with space/file name.txt')],
  ['leading space in a name', ' leading space.txt', inside(' leading space.txt')],
  ['unicode names', 'ünï/日本.txt', inside('ünï/日本.txt')],
  ['new unicode file', 'ünï/新しい.txt', inside('ünï/新しい.txt')],
  ['protected: .git/config', '.git/config', inside('.git/config', '.git/')],
  ['protected: .git itself', '.git', inside('.git', '.git/')],
  ['protected: nested .git', 'sub/.git/HEAD', inside('sub/.git/HEAD', '.git/')],
  ['protected: .env', '.env', inside('.env', '.env*')],
  ['protected: sub/.env.local', 'sub/.env.local', inside('sub/.env.local', '.env*')],
  ['protected: new .env.production', '.env.production', inside('.env.production', '.env*')],
  ['protected: package.json', 'package.json', inside('package.json', 'package.json')],
  ['protected: nested package.json', 'sub/package.json', inside('sub/package.json', 'package.json')],
  ['protected: package-lock.json', 'package-lock.json', inside('package-lock.json', 'package-lock.json')],
  ['protected: yarn.lock', 'yarn.lock', inside('yarn.lock', 'yarn.lock')],
  ['protected: pnpm-lock.yaml (new)', 'pnpm-lock.yaml', inside('pnpm-lock.yaml', 'pnpm-lock.yaml')],
  [
    'protected: workflow',
    '.github/workflows/ci.yml',
    inside('.github/workflows/ci.yml', '.github/workflows/'),
  ],
  ['protected: .warden', '.warden/policy.json', inside('.warden/policy.json', '.warden/')],
  ['protected through a symlink', 'link-to-git-config', inside('.git/config', '.git/')],
  ['not protected: other .github file', '.github/CODEOWNERS', inside('.github/CODEOWNERS')],
  ['not protected: source', 'src/index.ts', inside('src/index.ts')],
  ['not protected: .envrc-like prefix elsewhere', 'src/environment.ts', inside('src/environment.ts')],
];

const concrete = (input: string): string => input.replaceAll('<root>', root).replaceAll('<base>', base);

describe('PathFence.check', () => {
  it.each(CASES)('%s: %j', (_label, input, expected) => {
    const verdict = fence.check(concrete(input));
    if (expected.ok) {
      expect(verdict, JSON.stringify(verdict)).toMatchObject({ ok: true, relative: expected.relative });
      if (verdict.ok) {
        expect(verdict.protectedBy).toBe(expected.protectedBy);
        // The returned path is absolute, real and inside the root.
        expect(verdict.path === root || verdict.path.startsWith(`${root}/`)).toBe(true);
      }
    } else {
      expect(verdict, JSON.stringify(verdict)).toMatchObject({ ok: false, ruleId: expected.ruleId });
      if (!verdict.ok) expect(verdict.reason.length).toBeGreaterThan(0);
    }
  });

  it('returns the real path of a symlinked file, not the link', () => {
    expect(fence.check('link-in-file')).toMatchObject({ ok: true, path: join(root, 'a.txt') });
  });

  it('explains refusals in words', () => {
    expect(fence.check('../outside/secret.txt')).toMatchObject({
      reason: expect.stringMatching(/outside the project/),
    });
    expect(fence.check('dangling')).toMatchObject({ reason: expect.stringMatching(/symbolic link/) });
    expect(fence.check('loop-a')).toMatchObject({ reason: expect.stringMatching(/loop/) });
    expect(fence.check('~/x')).toMatchObject({ reason: expect.stringMatching(/~/) });
  });

  it('never throws, whatever it is given', () => {
    for (const bad of [undefined, null, 42, {}, ['a.txt']] as unknown as string[]) {
      expect(() => fence.check(bad)).not.toThrow();
      expect(fence.check(bad).ok).toBe(false);
    }
  });

  it('resolves a root given through a symlink', () => {
    const viaLink = new PathFence(join(base, 'proj-link'));
    expect(viaLink.root).toBe(root);
    expect(viaLink.check('sub/b.txt')).toMatchObject({ ok: true, path: join(root, 'sub', 'b.txt') });
    expect(viaLink.check(join(base, 'proj-link', 'a.txt'))).toMatchObject({ ok: true, relative: 'a.txt' });
    expect(viaLink.check('../outside/secret.txt').ok).toBe(false);
  });
});

describe('PathFence with a custom protected list', () => {
  const CUSTOM: Array<[string, string | undefined]> = [
    ['secrets/key', 'secrets/'],
    ['secrets', 'secrets/'],
    ['a/b/cert.pem', '*.pem'],
    ['top-only.txt', '/top-only.txt'],
    ['sub/top-only.txt', undefined],
    ['.env', undefined],
    ['package.json', undefined],
  ];

  it.each(CUSTOM)('%s → %s', (input, protectedBy) => {
    const custom = new PathFence(root, ['secrets/', '*.pem', '/top-only.txt']);
    const verdict = custom.check(input) as Extract<PathVerdict, { ok: true }>;
    expect(verdict.ok).toBe(true);
    expect(verdict.protectedBy).toBe(protectedBy);
  });

  it('protects nothing with an empty list, and still fences', () => {
    const open = new PathFence(root, []);
    expect(open.check('.git/config')).toMatchObject({ ok: true });
    expect((open.check('.git/config') as Extract<PathVerdict, { ok: true }>).protectedBy).toBeUndefined();
    expect(open.check('../outside/secret.txt').ok).toBe(false);
  });
});

describe('PathFence on a case-insensitive file system', () => {
  // On macOS and Windows `.GIT/config` is `.git/config`: a change of case must not unprotect it.
  const FOLDED: Array<[string, string]> = [
    ['.GIT/config', '.git/'],
    ['Package.JSON', 'package.json'],
    ['.github/Workflows/CI.yml', '.github/workflows/'],
    ['.ENV', '.env*'],
    ['sub/.Env.Local', '.env*'],
    ['YARN.LOCK', 'yarn.lock'],
  ];

  it.each(FOLDED)('%s is protected by %s', (input, pattern) => {
    const folding = new PathFence(root, DEFAULT_PROTECTED_PATHS, { caseInsensitive: true });
    expect(folding.check(input)).toMatchObject({ ok: true, protectedBy: pattern });
  });

  it('matches case exactly when told the file system is case-sensitive', () => {
    const exact = new PathFence(root, DEFAULT_PROTECTED_PATHS, { caseInsensitive: false });
    expect((exact.check('.GIT/config') as Extract<PathVerdict, { ok: true }>).protectedBy).toBeUndefined();
    expect(exact.check('.git/config')).toMatchObject({ protectedBy: '.git/' });
  });
});

describe('protected-path answers remembered per fence (issue 16: a burst on the same files)', () => {
  it('a path checked again, or under another fence with other patterns, gets its own fence’s answer', () => {
    const strict = new PathFence(root, ['a.txt', 'sub/']);
    const open = new PathFence(root, []);
    for (let i = 0; i < 3; i++) {
      expect(ok(strict.check('a.txt')).protectedBy).toBe('a.txt');
      expect(ok(open.check('a.txt')).protectedBy).toBeUndefined();
      expect(ok(strict.check('sub/b.txt')).protectedBy).toBe('sub/');
      expect(ok(fence.check('package.json')).protectedBy).toBe('package.json');
    }
    // A new fence (new settings) answers from its own patterns, not the old fence's memory.
    expect(ok(new PathFence(root, ['sub/']).check('a.txt')).protectedBy).toBeUndefined();
    // A path that does not exist yet still resolves under its real parent.
    expect(ok(strict.check('sub/new.txt')).path).toBe(join(root, 'sub', 'new.txt'));
  });
});

function ok(verdict: PathVerdict): Extract<PathVerdict, { ok: true }> {
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict;
}

describe('PathFence ignores case by default, on every system', () => {
  // A folder on Linux can fold case too (casefold, vfat, WSL): the default must not depend on the platform.
  it.each([
    ['.GIT/hooks/pre-commit', '.git/'],
    ['.Warden/policy.json', '.warden/'],
    ['agents.md', 'AGENTS.md'],
  ])('%s is protected by %s', (input, pattern) => {
    expect(new PathFence(root).check(input)).toMatchObject({ ok: true, protectedBy: pattern });
  });
});
