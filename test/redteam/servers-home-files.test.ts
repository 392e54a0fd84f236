/**
 * Red team: WARDEN_HOME's own files broken or hostile — config.json, policy.json, trust.json, a
 * session file or a session index entry that is a named pipe, a folder, a device, huge or not JSON.
 * Each read ends with a clear error (or, for trust, with nothing trusted); none may block. A read
 * that could block runs in a child process, so a regression fails the case instead of hanging the run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { loadPolicyRulesSync } from '../../src/policy/load-policy';
import { isTrusted } from '../../src/config/trust-store';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function home(): { home: string; root: string } {
  const base = mkdtempSync(join(tmpdir(), 'warden-rt-home-'));
  dirs.push(base);
  const h = join(base, 'home');
  const root = join(base, 'project');
  mkdirSync(h);
  mkdirSync(root);
  return { home: h, root };
}
const fifo = (path: string) => execFileSync('mkfifo', [path]);

type Plant = [string, (path: string) => void];
const PLANTS: Plant[] = [
  ['a named pipe', fifo],
  ['a folder', (p) => mkdirSync(p)],
  ['a link to /dev/zero', (p) => symlinkSync('/dev/zero', p)],
  ['not JSON', (p) => writeFileSync(p, '{"rules": [')],
  ['2 MB of JSON', (p) => writeFileSync(p, `{"rules":[],"x":"${'y'.repeat(2 * 1024 * 1024)}"}`)],
];

/**
 * Runs `code` (an ES module body; `repo` holds the checkout's path) in a child node and returns what
 * it printed. The child is ended if it blocks; then the case fails, naming the block.
 */
function inChild(code: string, env: Record<string, string>): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: repo,
    env: { ...process.env, ...env, REPO: repo },
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(run.signal, `the child blocked: ${run.stderr}`).toBeNull();
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

describe('config.json and policy.json in WARDEN_HOME', () => {
  it.each(PLANTS)('config.json is %s: an error naming the file, no hang', (_name, plant) => {
    const { home: h, root } = home();
    plant(join(h, 'config.json'));
    const result = loadConfig({ home: h, root });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(join(h, 'config.json'));
  });

  it.each(PLANTS)(
    'policy.json is %s: an error naming the file — its deny rules are never silently dropped',
    (_name, plant) => {
      const { home: h, root } = home();
      plant(join(h, 'policy.json'));
      const result = loadPolicyRulesSync(h, root);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain(join(h, 'policy.json'));
    },
  );

  it('policy.json with a rule whose pattern backtracks: refused at load, naming the rule', () => {
    const { home: h, root } = home();
    writeFileSync(
      join(h, 'policy.json'),
      JSON.stringify({
        rules: [{ id: 'slow', tool: '*', decision: 'deny', when: { regex: { command: '(a|a)*\\1' } } }],
      }),
    );
    const result = loadPolicyRulesSync(h, root);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/rule slow/) });
  });
});

describe('trust.json', () => {
  it.each([
    ...PLANTS,
    ['a record for the project with a hash of the wrong shape', (p: string) => void p] as Plant,
  ])('trust.json is %s: nothing is trusted', (name, plant) => {
    const { home: h, root } = home();
    const path = join(h, 'trust.json');
    if (name.startsWith('a record'))
      writeFileSync(
        path,
        JSON.stringify({ version: 1, projects: { [root]: { hash: '*', trustedAt: 'x' } } }),
      );
    else plant(path);
    expect(isTrusted(h, root, '*')).toBe(false);
    expect(isTrusted(h, root, 'a'.repeat(64))).toBe(false);
  });
});

describe('session files on resume', () => {
  it.each([
    ['a named pipe', 'fifo'],
    ['a link to /dev/zero', 'zero'],
  ])('a session file that is %s: a clear error, no hang', (_name, kind) => {
    const { home: h } = home();
    const path = join(h, 's.jsonl');
    if (kind === 'fifo') fifo(path);
    else symlinkSync('/dev/zero', path);
    const out = inChild(
      `const { readSessionFile } = await import(process.env.REPO + '/src/session/saved/store-read.ts');
       console.log(JSON.stringify(readSessionFile(process.env.FILE)));`,
      { FILE: path },
    );
    const read = JSON.parse(out) as { ok: boolean; error?: string };
    expect(read.ok).toBe(false);
    expect(read.error).toContain(path);
  });

  it('a session index entry that is a named pipe is skipped, the others listed, no hang', () => {
    const { home: h } = home();
    const index = join(h, 'sessions', 'index');
    mkdirSync(index, { recursive: true });
    fifo(join(index, 'stuck.json'));
    const out = inChild(
      `const { listSessions } = await import(process.env.REPO + '/src/session/saved/store-index.ts');
       console.log(JSON.stringify(listSessions(process.env.HOME_DIR)));`,
      { HOME_DIR: h },
    );
    expect(JSON.parse(out)).toEqual([]);
  });
});
