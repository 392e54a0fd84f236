// The protection scan remembered between commands (issue 34) is used again only while nothing it
// read changed: a credential file a command creates, a file whose content becomes a credential, a
// repository that appears, a link turned elsewhere — each must be in the next run's plan, exactly as a
// fresh scan has it. The files are aged (their modification times an hour back) and the cache's racy
// window set to 0, so a remembered plan is really used here, and only its checks can keep it honest.
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathFence } from '../../../src/policy/guards/path-guard';
import { DEFAULT_PROTECTED_PATHS } from '../../../src/policy/guards/path-guard';
import {
  createExecuteCommandTool,
  defaultExecuteCommandEffects,
} from '../../../src/tools/exec/execute-command';
import { findOnPath } from '../../../src/tools/exec/sandbox';
import { planProtection } from '../../../src/tools/exec/sandbox-protect';
import { ProtectionCache } from '../../../src/tools/exec/sandbox-protect-cache';
import { allowAllCommands } from '../../helpers/tool-context';

const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;
const SECRET = 'cache-stale-secret-5e2b';
let root = '';

/** Every entry under `dir` (and `dir`) an hour old: a later change gives it a time of now. */
function age(dir: string): void {
  const past = Date.now() / 1000 - 3600;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) age(path);
    if (!entry.isSymbolicLink()) utimesSync(path, past, past);
  }
  utimesSync(dir, past, past);
}

/**
 * Until the wall clock's millisecond is past every change time under `dir`: ageing sets the change
 * times to now, and the cache (rightly) counts a change in the scan's own millisecond as racy.
 */
function waitPastChanges(dir: string): void {
  let latest = 0n;
  const visit = (path: string) => {
    const s = lstatSync(path, { bigint: true });
    if (s.ctimeNs > latest) latest = s.ctimeNs;
    if (s.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  while (BigInt(Date.now()) * 1_000_000n <= latest) {
    // A millisecond at most: the clock, not a sleep, is what is waited for.
  }
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-protect-cache-')));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'sub'));
  mkdirSync(join(root, 'a'));
  mkdirSync(join(root, 'b'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(join(root, 'notes.txt'), 'hello\n');
  writeFileSync(join(root, 'a', 'x.txt'), 'a\n');
  writeFileSync(join(root, 'b', 'x.txt'), 'b\n');
  symlinkSync('a', join(root, '.warden'));
  age(root);
  waitPastChanges(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const fresh = () => planProtection(root, DEFAULT_PROTECTED_PATHS, [], 200_000);
const cached = (cache: ProtectionCache) => cache.plan(root, DEFAULT_PROTECTED_PATHS, [], 200_000);

describe('ProtectionCache', () => {
  it('uses the plan again while nothing changed', () => {
    const cache = new ProtectionCache({ racyNs: 0n });
    expect(cached(cache)).toEqual(fresh());
    expect(cached(cache)).toEqual(fresh());
    expect(cache.counts).toEqual({ scans: 1, hits: 1 });
  });

  it.each([
    ['a credential file appears', () => writeFileSync(join(root, 'sub', '.env'), `K=${SECRET}\n`)],
    [
      'a file comes to hold a credential',
      () => writeFileSync(join(root, 'notes.txt'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n`),
    ],
    ['a repository appears', () => mkdirSync(join(root, 'sub', '.git', 'hooks'), { recursive: true })],
    ['a folder gains a .git file', () => writeFileSync(join(root, 'src', '.git'), 'gitdir: ../a\n')],
    [
      'a protected link is turned elsewhere',
      () => {
        unlinkSync(join(root, '.warden'));
        symlinkSync('b', join(root, '.warden'));
      },
    ],
    ['a credential file goes', () => rmSync(join(root, 'notes.txt'))],
  ])('scans again when %s', (_what, change) => {
    const cache = new ProtectionCache({ racyNs: 0n });
    const before = cached(cache);
    expect(cached(cache)).toEqual(before);
    change();
    const after = cached(cache);
    expect(after).toEqual(fresh());
    expect(after).not.toEqual(before);
  });

  it('keeps no plan that depended on a change within the racy window', () => {
    const cache = new ProtectionCache();
    writeFileSync(join(root, 'src', 'new.ts'), 'export {};\n');
    cached(cache);
    cached(cache);
    expect(cache.counts.hits).toBe(0);
    expect(statSync(join(root, 'src')).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it('plans afresh every run a card lifted or unmasked something in', () => {
    const cache = new ProtectionCache({ racyNs: 0n });
    cache.plan(root, DEFAULT_PROTECTED_PATHS, [join(root, '.warden')], 200_000);
    cache.plan(root, DEFAULT_PROTECTED_PATHS, [join(root, '.warden')], 200_000);
    cache.plan(root, DEFAULT_PROTECTED_PATHS, [], 200_000, { unmask: [join(root, 'notes.txt')] });
    expect(cache.counts).toEqual({ scans: 3, hits: 0 });
  });
});

describe.skipIf(!bwrap)('commands with a remembered scan (real sandbox)', () => {
  const run = async (cache: ProtectionCache, command: string) => {
    const tool = createExecuteCommandTool({
      ...defaultExecuteCommandEffects,
      graceMs: 300,
      protection: cache,
    });
    const result = await tool.execute(
      { command, timeout_ms: 20_000 },
      {
        root,
        fence: new PathFence(root),
        commands: allowAllCommands,
        sandbox: { kind: 'bwrap', path: bwrap as string },
        signal: new AbortController().signal,
      },
    );
    return result.ok ? result.output : result.error;
  };

  it('masks a credential file the previous command wrote', async () => {
    const cache = new ProtectionCache({ racyNs: 0n });
    await run(cache, 'true');
    await run(cache, 'true');
    expect(cache.counts.hits).toBe(1);
    await run(cache, `printf 'K=${SECRET}\\n' > sub/.env`);
    const shown = await run(cache, 'cat sub/.env; echo end');
    expect(shown).toContain('end');
    expect(shown).not.toContain(SECRET);
  });

  it('masks a file the previous command filled with a key', async () => {
    const cache = new ProtectionCache({ racyNs: 0n });
    await run(cache, 'true');
    await run(cache, `printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\\n${SECRET}\\n' > notes.txt`);
    const shown = await run(cache, 'cat notes.txt; echo end');
    expect(shown).toContain('end');
    expect(shown).not.toContain(SECRET);
  });

  it('keeps a repository read-only that appeared since the last scan', async () => {
    const cache = new ProtectionCache({ racyNs: 0n });
    await run(cache, 'true');
    await run(cache, 'true');
    mkdirSync(join(root, 'sub', '.git', 'hooks'), { recursive: true });
    const shown = await run(cache, 'touch sub/.git/hooks/post-checkout && echo WROTE || echo REFUSED');
    expect(shown).toContain('REFUSED');
  });
});
