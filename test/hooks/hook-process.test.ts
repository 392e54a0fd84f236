/**
 * Running a hook for real: its stdin, environment and folder; stdout and stderr apart and bounded; on
 * its timeout the whole process group is stopped (a child it started too), and a cancel does the same.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHookProcess } from '../../src/hooks/hook-process';
import { processAlive } from '../../src/os/process';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const temp = () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-hookproc-')));
  return dir;
};

describe('a hook process', () => {
  it('reads the event on stdin, runs in the project with the secrets taken out of its environment', async () => {
    const root = temp();
    const script = join(root, 'echo.js');
    writeFileSync(
      script,
      `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const e=JSON.parse(s);process.stdout.write(JSON.stringify({got:e.tool_name,cwd:process.cwd(),key:process.env.OPENAI_API_KEY??null,dir:process.env.CLAUDE_PROJECT_DIR,wdir:process.env.WARDEN_PROJECT_DIR,path:!!process.env.PATH}));process.stderr.write('note');});`,
    );
    const run = await runHookProcess({
      command: `node ${script}`,
      root,
      input: { tool_name: 'Bash' },
      timeoutMs: 10_000,
      env: { PATH: process.env.PATH ?? '', OPENAI_API_KEY: 'sk-secret', HOME: root },
    });
    expect(run.kind).toBe('exited');
    if (run.kind !== 'exited') return;
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      got: 'Bash',
      cwd: root,
      key: null,
      dir: root,
      wdir: root,
      path: true,
    });
    expect(run.stderr).toBe('note');
  });

  it('on its timeout the whole group is stopped, the child it started included', async () => {
    const root = temp();
    const pids = join(root, 'pids');
    const run = await runHookProcess({
      command: `sleep 60 & echo $! > ${pids}; echo $$ >> ${pids}; wait`,
      root,
      input: {},
      timeoutMs: 300,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.kind).toBe('timeout');
    const [child, shell] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(child && processAlive(child)).toBe(false);
    expect(shell && processAlive(shell)).toBe(false);
  });

  it('a cancel stops it the same way', async () => {
    const root = temp();
    const abort = new AbortController();
    const started = join(root, 'started');
    const running = runHookProcess({
      command: `touch ${started}; sleep 60`,
      root,
      input: {},
      timeoutMs: 60_000,
      env: { PATH: process.env.PATH ?? '' },
      signal: abort.signal,
    });
    await expect.poll(() => existsSync(started)).toBe(true);
    abort.abort();
    expect((await running).kind).toBe('cancelled');
  });

  it('stdout past its bound is cut and said so; a child left running does not hold the answer', async () => {
    const root = temp();
    const big = await runHookProcess({
      command: `head -c 200000 /dev/zero | tr '\\0' a`,
      root,
      input: {},
      timeoutMs: 10_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(big.kind === 'exited' && big.overflow).toBe(true);
    expect(big.kind === 'exited' && big.stdout.length).toBe(64 * 1024);
    // Exited (not timed out): the answer did not wait for the sleep holding its stdout.
    const left = await runHookProcess({
      command: `(sleep 15 &) ; echo '{}'`,
      root,
      input: {},
      timeoutMs: 10_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(left).toMatchObject({ kind: 'exited', code: 0, stdout: '{}\n' });
  });
});
