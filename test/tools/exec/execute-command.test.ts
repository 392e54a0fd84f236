import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createExecuteCommandTool,
  defaultExecuteCommandEffects,
} from '../../../src/tools/exec/execute-command';
import type { GroupRunRequest } from '../../../src/tools/exec/process-group';
import { processAlive } from '../../../src/os/process';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

// A short grace keeps the SIGTERM → SIGKILL escalation quick in tests.
const tool = createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300 });
let t: TestToolContext;
afterEach(() => t?.cleanup());

type Data = {
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  cutBytes: number;
  outputBytes: number;
};
const data = (result: { data?: unknown }) => result.data as Data;
const text = (result: { ok: boolean; output?: string; error?: string }) =>
  (result.ok ? result.output : result.error) ?? '';

async function waitForPidFile(file: string): Promise<number> {
  await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toMatch(/^\d+\n$/), {
    timeout: 10_000,
    interval: 20,
  });
  return Number(readFileSync(file, 'utf8'));
}

async function expectGone(pid: number): Promise<void> {
  await vi.waitFor(() => expect(processAlive(pid), `pid ${pid} still alive`).toBe(false), {
    timeout: 10_000,
    interval: 25,
  });
}

describe('execute_command', () => {
  it('runs bash -c in the project root with stdout and stderr, any exit code is a result', async () => {
    t = makeToolContext();
    const result = await tool.execute({ command: 'pwd; echo err >&2; exit 3' }, t.ctx);
    expect(result.ok).toBe(true);
    expect(text(result)).toContain(t.root);
    expect(text(result)).toContain('err');
    expect(text(result)).toContain('exit code 3');
    expect(text(result)).toContain('not sandboxed: test context');
    expect(data(result).exitCode).toBe(3);
  });

  it('runs in a cwd inside the fence and refuses one outside or missing', async () => {
    t = makeToolContext({ files: { 'sub/.keep': '' } });
    expect(text(await tool.execute({ command: 'pwd', cwd: 'sub' }, t.ctx))).toContain(join(t.root, 'sub'));
    expect(await tool.execute({ command: 'pwd', cwd: '..' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('outside the project'),
    });
    expect(await tool.execute({ command: 'pwd', cwd: 'nope' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('not an existing folder'),
    });
  });

  it('ignores stdin, so a command reading it ends at once', async () => {
    t = makeToolContext();
    const result = await tool.execute({ command: 'cat; echo done', timeout_ms: 20_000 }, t.ctx);
    expect(text(result)).toMatch(/^done/);
  });

  it('caps output at 8 KB keeping head and tail', async () => {
    t = makeToolContext();
    const result = await tool.execute(
      { command: "printf 'START'; head -c 100000 /dev/zero | tr '\\0' m; printf 'END'" },
      t.ctx,
    );
    const out = text(result);
    expect(out.startsWith('START')).toBe(true);
    expect(out).toContain('END\n[exit code 0');
    expect(out).toContain('... [91816 bytes cut] ...');
    expect(data(result)).toMatchObject({ outputBytes: 100_008, cutBytes: 91_816 });
    expect(out.length).toBeLessThan(8192 + 300);
  });

  it('on timeout kills the whole process group, a background child included', async () => {
    t = makeToolContext();
    const pidFile = join(t.root, 'child.pid');
    const result = await tool.execute(
      { command: `sleep 1000 & echo $! > ${pidFile}; wait`, timeout_ms: 300 },
      t.ctx,
    );
    expect(result).toMatchObject({ ok: false, data: { timedOut: true } });
    expect(text(result)).toContain('timed out after 0.3 s; the process group was killed');
    await expectGone(await waitForPidFile(pidFile));
  });

  it('escalates to SIGKILL for a child that ignores SIGTERM', async () => {
    t = makeToolContext();
    const pidFile = join(t.root, 'child.pid');
    const result = await tool.execute(
      { command: `(trap '' TERM; exec sleep 1000) & echo $! > ${pidFile}; wait`, timeout_ms: 300 },
      t.ctx,
    );
    expect(data(result).timedOut).toBe(true);
    await expectGone(await waitForPidFile(pidFile));
  });

  it('stops background processes a command leaves behind when it ends', async () => {
    t = makeToolContext();
    const pidFile = join(t.root, 'child.pid');
    const result = await tool.execute({ command: `sleep 1000 & echo $! > ${pidFile}; echo started` }, t.ctx);
    expect(result.ok).toBe(true);
    expect(text(result)).toContain('background processes it left running were stopped');
    await expectGone(await waitForPidFile(pidFile));
  });

  it('on abort (ctx.signal) kills the group and says it was cancelled', async () => {
    t = makeToolContext();
    const pidFile = join(t.root, 'child.pid');
    const running = tool.execute({ command: `sleep 1000 & echo $! > ${pidFile}; wait` }, t.ctx);
    const pid = await waitForPidFile(pidFile);
    t.abort.abort();
    const result = await running;
    expect(result).toMatchObject({ ok: false, data: { cancelled: true } });
    await expectGone(pid);
  });

  it('hides secret-looking variables and keeps the ordinary ones', async () => {
    t = makeToolContext();
    const names = [
      'WARDEN_FAKE_API_KEY',
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'DB_PASSWORD',
    ];
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) process.env[n] = 'sk-test-value';
    try {
      const result = await tool.execute({ command: 'env' }, t.ctx);
      const out = text(result);
      for (const n of names) expect(out).not.toContain(n);
      expect(out).not.toContain('sk-test-value');
      expect(out).toMatch(/^PATH=/m);
      expect(out).toMatch(/^HOME=/m);
      expect(out).toMatch(/^GIT_TERMINAL_PROMPT=0$/m);
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
  });

  it('wraps the command in bwrap with the project bound writable when sandboxed', async () => {
    t = makeToolContext({ sandbox: { kind: 'bwrap', path: '/usr/bin/bwrap' } });
    mkdirSync(join(t.root, 'sub'));
    let seen: GroupRunRequest | undefined;
    const spy = createExecuteCommandTool({
      ...defaultExecuteCommandEffects,
      hiddenPaths: () => [],
      run: async (request) => {
        seen = request;
        return {
          kind: 'finished',
          ending: 'exited',
          exitCode: 0,
          signal: null,
          output: '',
          totalBytes: 0,
          cutBytes: 0,
          straysStopped: false,
          durationMs: 1,
        };
      },
    });
    const result = await spy.execute({ command: 'make test', cwd: 'sub' }, t.ctx);
    expect(text(result)).toContain(
      'sandboxed: no network, no host files but the system folders and the project',
    );
    expect(seen?.file).toBe('/usr/bin/bwrap');
    const args = seen?.args ?? [];
    expect(args.slice(-3)).toEqual(['bash', '-c', 'make test']);
    expect(args.join(' ')).toContain(`--bind ${t.root} ${t.root}`);
    expect(args.join(' ')).toContain(`--chdir ${join(t.root, 'sub')}`);
    expect(args).toContain('--unshare-net');
    expect(args).not.toContain('--new-session');
    // The host's root is not bound: only the view's folders are (sandbox-view.ts).
    expect(args.join(' ')).not.toContain('--ro-bind / /');
    // The seccomp filter reaches bwrap on fd 3, through a pipe.
    expect(args.join(' ')).toContain('--seccomp 3');
    expect(seen?.fd3?.length).toBeGreaterThan(0);
    expect(seen?.timeoutMs).toBe(60_000);
  });

  it('reports a program that cannot start', async () => {
    t = makeToolContext({ sandbox: { kind: 'bwrap', path: join('/nonexistent', 'bwrap') } });
    const result = await tool.execute({ command: 'true' }, t.ctx);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining('Could not start the command'),
    });
    expect(existsSync('/nonexistent')).toBe(false);
  });
});
