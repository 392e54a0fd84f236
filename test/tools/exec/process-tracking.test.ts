/**
 * No command's process outlives its run, even one that left the process group (setsid, double
 * fork): found by the run id in its environment at the run's end, at warden's exit, and — after a
 * kill -9 of warden — at the next start, through the run records under WARDEN_HOME/runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runInProcessGroup } from '../../../src/tools/exec/process-group';
import { processAlive, processStartTime } from '../../../src/os/process';
import { RUN_ID_VARIABLE, findMarked, runIdOf } from '../../../src/tools/exec/process-sweep';
import { sweepLeftoverRuns } from '../../../src/tools/exec/run-ledger';
import { makeTemp } from '../../audit/helpers';

const cleanups: (() => void)[] = [];
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const fn of cleanups.splice(0)) fn();
});
function temp(): string {
  const t = makeTemp();
  cleanups.push(t.cleanup);
  return t.dir;
}

/** Resolves with the pid a process wrote to `file` (waiting for it), remembered for cleanup. */
async function pidIn(file: string): Promise<number> {
  await vi.waitFor(() => expect(existsSync(file) && readFileSync(file, 'utf8').trim() !== '').toBe(true), {
    timeout: 5000,
    interval: 10,
  });
  const pid = Number(readFileSync(file, 'utf8').trim());
  pids.push(pid);
  return pid;
}

const run = (command: string, cwd: string) =>
  runInProcessGroup({
    file: 'bash',
    args: ['-c', command],
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    graceMs: 300,
    maxOutputBytes: 4096,
  });

describe.skipIf(process.platform !== 'linux')('processes that leave the group', () => {
  it.each([
    ['setsid', `setsid bash -c 'echo $$ > PIDFILE; exec sleep 300' > /dev/null 2>&1 & echo started`],
    [
      'setsid, nohup and disown',
      `nohup setsid bash -c 'echo $$ > PIDFILE; exec sleep 300' > /dev/null 2>&1 & disown; echo started`,
    ],
    [
      'a double fork inside a new session',
      `setsid bash -c '( bash -c "echo \\$\\$ > PIDFILE; exec sleep 300" & ) ' > /dev/null 2>&1 & echo started`,
    ],
    [
      'setsid holding the output pipe open',
      `setsid bash -c 'echo $$ > PIDFILE; exec sleep 300' & echo started`,
    ],
  ])('%s: stopped when the command ends', async (_label, command) => {
    const dir = temp();
    const pidFile = join(dir, 'pid');
    const started = Date.now();
    const result = await run(
      `${command.replaceAll('PIDFILE', pidFile)}; while [ ! -s ${pidFile} ]; do sleep 0.01; done`,
      dir,
    );
    expect(result).toMatchObject({ kind: 'finished', ending: 'exited', exitCode: 0, straysStopped: true });
    expect((result as { output: string }).output).toContain('started');
    const pid = await pidIn(pidFile);
    expect(processAlive(pid)).toBe(false);
    // The escapee held no pipe long: the run did not wait out the 1 s drain.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('marks every process of a run with its id, and finds them by it', async () => {
    const dir = temp();
    const pidFile = join(dir, 'pid');
    const pending = run(`setsid bash -c 'echo $$ > ${pidFile}; exec sleep 300' & sleep 300`, dir);
    const pid = await pidIn(pidFile);
    const runId = runIdOf(pid) as string;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(findMarked(new Set([runId])).map((p) => p.pid)).toContain(pid);
    expect(findMarked(new Set(['another-run']))).toEqual([]);
    process.kill(-pid, 'SIGKILL');
    // Stop the command itself so the run ends; one still listed may be gone by now (ESRCH).
    for (const p of findMarked(new Set([runId]))) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
    await pending;
  });
});

describe.skipIf(process.platform !== 'linux')('leftovers of a warden that is gone', () => {
  /** A process carrying a run id, as a command's escapee would. */
  function marked(runId: string): number {
    const child = spawn('sleep', ['300'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [RUN_ID_VARIABLE]: runId },
      detached: true,
      stdio: 'ignore',
    });
    child.unref();
    pids.push(child.pid as number);
    return child.pid as number;
  }
  async function deadPid(): Promise<number> {
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    return child.pid as number;
  }

  it('ends the runs whose owner is gone (or whose pid now names another process); keeps live owners’ runs', async () => {
    const dir = temp();
    mkdirSync(dir, { recursive: true });
    const ids = {
      dead: crypto.randomUUID(),
      reused: crypto.randomUUID(),
      live: crypto.randomUUID(),
      corrupt: crypto.randomUUID(),
    };
    const record = (runId: string, owner: unknown) =>
      writeFileSync(
        join(dir, `${runId}.json`),
        JSON.stringify({ runId, owner, startedAt: new Date().toISOString() }),
      );
    record(ids.dead, { pid: await deadPid() });
    record(ids.reused, { pid: process.pid, startTime: 'not-this-process' });
    record(ids.live, { pid: process.pid, startTime: processStartTime(process.pid) });
    writeFileSync(join(dir, `${ids.corrupt}.json`), '{torn');
    const procs = Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, marked(id)]));
    await vi.waitFor(() => expect(runIdOf(procs.live as number)).toBe(ids.live));

    expect(await sweepLeftoverRuns(dir, 200)).toEqual({ runs: 3, processes: 3 });
    await vi.waitFor(() => {
      expect(processAlive(procs.dead as number)).toBe(false);
      expect(processAlive(procs.reused as number)).toBe(false);
      expect(processAlive(procs.corrupt as number)).toBe(false);
    });
    expect(processAlive(procs.live as number)).toBe(true);
    expect(readdirSync(dir)).toEqual([`${ids.live}.json`]);
    expect(await sweepLeftoverRuns(join(dir, 'missing'))).toEqual({ runs: 0, processes: 0 });
  });

  /** The fixture: a process running one command whose grandchild escaped with setsid. */
  async function startOwner(
    ledger: string,
    pidFile: string,
    mode: 'exit' | 'hang',
  ): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
    const script = join(import.meta.dirname, 'fixtures', 'run-and-wait.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script, ledger, pidFile, mode], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    pids.push(child.pid as number);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await vi.waitFor(() => expect(out).toContain('ready'), { timeout: 15_000, interval: 20 });
    return { child, exited };
  }

  it('an owner that exits while the run goes on takes the escaped processes with it', async () => {
    const dir = temp();
    const pidFile = join(dir, 'pid');
    const { exited } = await startOwner(join(dir, 'runs'), pidFile, 'exit');
    const grandchild = await pidIn(pidFile);
    expect(await exited).toBe(0);
    // The owner's kill is sent before it exits; the process ends a moment later (busy machine: not at once).
    await vi.waitFor(() => expect(processAlive(grandchild)).toBe(false), { timeout: 5_000 });
    expect(readdirSync(join(dir, 'runs'))).toEqual([]);
  });

  it('after kill -9 of the owner the escaped process lives on, until the next start sweeps it', async () => {
    const dir = temp();
    const pidFile = join(dir, 'pid');
    const { child, exited } = await startOwner(join(dir, 'runs'), pidFile, 'hang');
    const grandchild = await pidIn(pidFile);
    child.kill('SIGKILL');
    await exited;
    expect(processAlive(grandchild)).toBe(true);
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(1);
    const swept = await sweepLeftoverRuns(join(dir, 'runs'), 200);
    // The escaped grandchild and the command's own shell and sleep: all carried the run id.
    expect(swept.runs).toBe(1);
    expect(swept.processes).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(processAlive(grandchild)).toBe(false), { timeout: 5_000 });
    expect(readdirSync(join(dir, 'runs'))).toEqual([]);
  });
});
