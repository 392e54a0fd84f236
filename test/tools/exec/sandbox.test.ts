import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createExecuteCommandTool,
  defaultExecuteCommandEffects,
} from '../../../src/tools/exec/execute-command';
import { bwrapArgs, detectSandbox, findOnPath } from '../../../src/tools/exec/sandbox';
import { defaultLedgerDir } from '../../../src/tools/exec/sandbox-mount-points';
import { basename } from 'node:path';
import type { SandboxInfo } from '../../../src/tools/types';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const hasBwrap = process.platform === 'linux' && findOnPath('bwrap') !== undefined;

describe('bwrapArgs', () => {
  it('shows the view, binds the project writable, masks with empty read-only stand-ins, unshares the network', () => {
    const args = bwrapArgs('/p', '/p/sub', [
      { kind: 'dir', path: '/p/.wh' },
      { kind: 'file', path: '/p/.npmrc' },
      { kind: 'dir', path: '/' },
    ]);
    const text = args.join(' ');
    expect(text).not.toContain('--ro-bind / /');
    expect(text).toContain('--ro-bind /usr /usr');
    expect(text).toMatch(/--tmpfs \/tmp .*--bind \/p \/p /);
    expect(text).toContain('--ro-bind-try /p/.git/hooks /p/.git/hooks');
    expect(text).toMatch(/--ro-bind \S+\/empty\.d \/p\/\.wh/);
    expect(text).toMatch(/--ro-bind \S+\/empty \/p\/\.npmrc/);
    // A mask that would cover the project itself is dropped.
    expect(text).not.toMatch(/empty\.d \/ /);
    expect(args).toEqual(expect.arrayContaining(['--unshare-net', '--unshare-pid', '--die-with-parent']));
    expect(args.slice(-2)).toEqual(['--chdir', '/p/sub']);
  });
});

describe('detectSandbox', () => {
  it('says why when bwrap is missing, broken, or the platform is not Linux', async () => {
    expect(await detectSandbox({ pathEnv: '/nonexistent' })).toEqual({
      kind: 'none',
      reason: 'bubblewrap (bwrap) is not installed',
    });
    expect(await detectSandbox({ platform: 'darwin' })).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('needs Linux'),
    });
    if (hasBwrap) {
      const broken = await detectSandbox({
        probe: async () => ({ ok: false, reason: 'No permissions to create new namespace' }),
      });
      expect(broken).toMatchObject({ kind: 'none', reason: expect.stringContaining('No permissions') });
    }
  });

  it('runs the default probe with bwrap as found on PATH: its first stderr line is the reason it fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-fake-bwrap-'));
    try {
      const bwrap = join(dir, 'bwrap');
      writeFileSync(
        bwrap,
        '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\necho more >&2\nexit 1\n',
      );
      chmodSync(bwrap, 0o755);
      expect(await detectSandbox({ pathEnv: dir })).toEqual({
        kind: 'none',
        reason: `bwrap at ${bwrap} cannot create a sandbox here: bwrap: No permissions to create new namespace`,
      });
      writeFileSync(bwrap, '#!/bin/sh\nexit 0\n');
      expect(await detectSandbox({ pathEnv: dir })).toEqual({ kind: 'bwrap', path: bwrap });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves nothing behind: the probe folder (its root and its stderr file) goes once it answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-fake-bwrap-'));
    const temp = mkdtempSync(join(tmpdir(), 'warden-probe-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      const bwrap = join(dir, 'bwrap');
      writeFileSync(bwrap, '#!/bin/sh\necho "bwrap: refused" >&2\nexit 1\n');
      chmodSync(bwrap, 0o755);
      expect(await detectSandbox({ pathEnv: dir })).toMatchObject({ kind: 'none' });
      writeFileSync(bwrap, '#!/bin/sh\nexit 0\n');
      expect(await detectSandbox({ pathEnv: dir })).toEqual({ kind: 'bwrap', path: bwrap });
      // Only the state folder every sandbox mounts from (sandbox-state.ts), kept for the next run. The
      // verdict does not wait for the removal (it waited for a busy event loop's turns, issue 34).
      await vi.waitFor(() => expect(readdirSync(temp)).toEqual([basename(defaultLedgerDir())]));
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(dir, { recursive: true, force: true });
      rmSync(temp, { recursive: true, force: true });
    }
  });

  // The folder goes while nothing waits for it: a link planted in it (by whatever ran as bwrap) is
  // removed as a link, and what it points at stays.
  it('the removal of the probe folder does not follow a link planted in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-fake-bwrap-'));
    const temp = mkdtempSync(join(tmpdir(), 'warden-probe-tmp-'));
    const victim = mkdtempSync(join(tmpdir(), 'warden-victim-'));
    writeFileSync(join(victim, 'keep.txt'), 'keep\n');
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      const bwrap = join(dir, 'bwrap');
      // Its stderr is the probe folder's file: the link goes beside it, and one into its root.
      writeFileSync(
        bwrap,
        `#!/bin/sh\nd=$(dirname "$(readlink /proc/self/fd/2)")\nln -s '${victim}' "$d/escape"\nln -s '${victim}' "$d/root/escape"\nexit 0\n`,
      );
      chmodSync(bwrap, 0o755);
      expect(await detectSandbox({ pathEnv: dir })).toEqual({ kind: 'bwrap', path: bwrap });
      await vi.waitFor(() => expect(readdirSync(temp)).toEqual([basename(defaultLedgerDir())]));
      expect(readFileSync(join(victim, 'keep.txt'), 'utf8')).toBe('keep\n');
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      for (const d of [dir, temp, victim]) rmSync(d, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasBwrap)('finds a working bwrap here', async () => {
    expect(await detectSandbox()).toEqual({ kind: 'bwrap', path: findOnPath('bwrap') });
  });
});

describe.skipIf(!hasBwrap)('execute_command under bwrap', () => {
  let sandbox: SandboxInfo;
  let server: Server;
  let port = 0;
  let t: TestToolContext;
  const tool = createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300 });
  const run = async (command: string, timeout_ms?: number) => {
    const result = await tool.execute({ command, ...(timeout_ms ? { timeout_ms } : {}) }, t.ctx);
    return {
      ...result,
      text: result.ok ? result.output : result.error,
      exitCode: (result.data as { exitCode: number | null }).exitCode,
    };
  };

  beforeAll(async () => {
    sandbox = await detectSandbox();
    server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => t?.cleanup());

  it('has no network (a local server is reachable outside, not inside)', async () => {
    t = makeToolContext();
    const probe = `echo hi > /dev/tcp/127.0.0.1/${port}`;
    expect((await run(probe)).exitCode).toBe(0);
    t.ctx.sandbox = sandbox;
    const inside = await run(probe);
    expect(inside.exitCode).not.toBe(0);
    expect(inside.text).toContain('sandboxed: no network');
  });

  it('keeps / read-only and the project writable', async () => {
    t = makeToolContext({ sandbox });
    expect((await run('touch /usr/warden-sandbox-probe')).text).toMatch(/Read-only file system/);
    expect(existsSync('/usr/warden-sandbox-probe')).toBe(false);
    expect((await run('echo made > made.txt && mkdir -p out && echo x > out/y')).exitCode).toBe(0);
    expect(readFileSync(join(t.root, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('gives a private /tmp', async () => {
    t = makeToolContext({ sandbox });
    const name = `/tmp/warden-sandbox-${process.pid}-${Date.now()}`;
    expect((await run(`echo secret > ${name} && cat ${name}`)).text).toContain('secret');
    expect(existsSync(name)).toBe(false);
  });

  it('points TMPDIR at the private /tmp, so mktemp works whatever TMPDIR warden itself has', async () => {
    t = makeToolContext({ sandbox });
    const saved = process.env.TMPDIR;
    // A folder of the test's own temp space, which the sandbox does not show; removed after.
    const hostOnly = mkdtempSync(join(tmpdir(), 'warden-host-only-'));
    process.env.TMPDIR = hostOnly;
    try {
      const result = await run('echo "$TMPDIR"; mktemp');
      expect(result.exitCode).toBe(0);
      expect(result.text).toMatch(/^\/tmp\n\/tmp\/tmp\./);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(hostOnly, { recursive: true, force: true });
    }
  });

  it('keeps .git/hooks read-only and masks credential files inside the project', async () => {
    t = makeToolContext({
      sandbox,
      files: {
        '.git/hooks/pre-commit.sample': '#',
        'home/.ssh/id_rsa': 'PRIVATE',
        'home/.npmrc': '//r/:_authToken=abc',
      },
    });
    const masked = createExecuteCommandTool(defaultExecuteCommandEffects);
    const hooks = await masked.execute({ command: 'touch .git/hooks/pre-commit' }, t.ctx);
    expect((hooks.data as { exitCode: number }).exitCode).not.toBe(0);
    expect(existsSync(join(t.root, '.git/hooks/pre-commit'))).toBe(false);
    const secrets = await masked.execute({ command: 'cat home/.ssh/id_rsa home/.npmrc; echo end' }, t.ctx);
    const out = secrets.ok ? secrets.output : secrets.error;
    expect(out).toMatch(/^end/);
    expect(out).not.toMatch(/PRIVATE|authToken/);
    expect(readdirSync(join(t.root, 'home/.ssh'))).toEqual(['id_rsa']);
  });

  it('kills everything in the sandbox on timeout', async () => {
    t = makeToolContext({ sandbox });
    const marker = `${9_000_000 + (process.pid % 900_000)}`;
    const result = await run(`sleep ${marker} & sleep ${marker}`, 400);
    expect(result.text).toContain('timed out');
    await vi.waitFor(() => expect(liveProcessesWithArg(marker)).toEqual([]), {
      timeout: 10_000,
      interval: 25,
    });
  });
});

function liveProcessesWithArg(arg: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(arg) && state !== 'Z') found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
