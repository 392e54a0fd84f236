import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:net';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { HeadTailBuffer } from './output-cap';
import { groupAlive, killGroup } from '../../os/process';
import { RUN_ID_VARIABLE } from './process-sweep';
import { beginRun, endRun } from './run-ledger';
import { takeListener } from './network/sandbox-relay';

/** One command to run in its own process group. */
export type GroupRunRequest = {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Wait between SIGTERM and SIGKILL. */
  graceMs: number;
  /** Output kept (head + tail), in bytes. */
  maxOutputBytes: number;
  /** Hears the output as it arrives (decoded, stdout and stderr interleaved, raw); see ToolContext.onOutput. */
  onOutput?: (text: string) => void;
  /** Bytes the program reads on fd 3, through a pipe (bubblewrap's seccomp filter). */
  fd3?: Uint8Array;
  /**
   * Serves the listener the sandbox's relay sends over an IPC channel on fd 4 (network/sandbox-relay.ts);
   * absent, the program gets no channel.
   */
  onListener?: (listener: Server) => void;
};

export type GroupRunResult =
  | {
      kind: 'finished';
      ending: 'exited' | 'timed_out' | 'aborted';
      exitCode: number | null;
      signal: string | null;
      output: string;
      totalBytes: number;
      cutBytes: number;
      /**
       * Processes the command left running when it ended — in its group, or escaped from it with
       * `setsid` or a double fork (found by their run id) — which were then stopped.
       */
      straysStopped: boolean;
      durationMs: number;
    }
  | { kind: 'spawn_failed'; message: string };

// After the group is gone, pipes may still be held by a process that left the group (setsid).
const STREAM_DRAIN_MS = 1000;

/**
 * Runs a program detached in its own process group, stdin ignored, stdout and stderr interleaved and capped.
 * On timeout or abort the whole group gets SIGTERM, then SIGKILL; whatever the command left running when it
 * ended is stopped the same way — also processes that left the group (`setsid`, double fork), found by the
 * run id in their environment (run-ledger.ts) — so no process outlives the call.
 * Contract: never rejects; a program that cannot start resolves `spawn_failed`.
 */
export async function runInProcessGroup(req: GroupRunRequest): Promise<GroupRunResult> {
  const runId = beginRun();
  let ended = false;
  const end = (): Promise<number> => {
    ended = true;
    return endRun(runId, req.graceMs);
  };
  try {
    return await runTracked({ ...req, env: { ...req.env, [RUN_ID_VARIABLE]: runId } }, end);
  } finally {
    // Whatever happened above (even a throw), the run's escaped processes are stopped and its record removed.
    if (!ended) await end();
  }
}

async function runTracked(req: GroupRunRequest, endRun: () => Promise<number>): Promise<GroupRunResult> {
  const started = Date.now();
  let subprocess: ChildProcess;
  try {
    subprocess = spawnGrouped(req);
  } catch (err) {
    return { kind: 'spawn_failed', message: err instanceof Error ? err.message : String(err) };
  }
  // Settles once the process has exited and its pipes are closed ('close'), or it could not start ('error').
  const closed = new Promise<{ failed?: Error }>((resolve) => {
    // With an IPC channel warden closed itself (the relay's, once it had the listener), node never
    // emits 'close': the exit and the ends of the two pipes say the same.
    if (req.onListener)
      Promise.all([once(subprocess, 'exit'), ended(subprocess.stdout), ended(subprocess.stderr)]).then(
        () => resolve({}),
        () => resolve({}),
      );
    else subprocess.once('close', () => resolve({}));
    subprocess.once('error', (failed) => resolve({ failed }));
  });
  const pid = subprocess.pid;
  if (pid === undefined) {
    const { failed } = await closed;
    return { kind: 'spawn_failed', message: failed?.message ?? `could not start ${req.file}` };
  }
  const output = new HeadTailBuffer(req.maxOutputBytes);
  // A character split between two reads is decoded whole with the next one.
  const decoder = req.onOutput ? new StringDecoder('utf8') : undefined;
  // stdout and stderr interleaved as they arrive, as a terminal shows them.
  const take = (chunk: Buffer) => {
    output.push(chunk);
    if (decoder) hear(req.onOutput, decoder.write(chunk));
  };
  subprocess.stdout?.on('data', take);
  subprocess.stderr?.on('data', take);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    subprocess.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let ending: 'exited' | 'timed_out' | 'aborted' = 'exited';
  let killing: Promise<void> | undefined;
  const stop = (why: 'timed_out' | 'aborted') => {
    if (killing) return;
    ending = why;
    killing = killGroup(pid, req.graceMs);
  };
  const timer = setTimeout(() => stop('timed_out'), req.timeoutMs);
  const onAbort = () => stop('aborted');
  req.signal.addEventListener('abort', onAbort, { once: true });
  if (req.signal.aborted) onAbort();
  const exit = await exited;
  clearTimeout(timer);
  req.signal.removeEventListener('abort', onAbort);
  if (killing) await killing;
  const groupStrays = groupAlive(pid);
  if (groupStrays) await killGroup(pid, req.graceMs);
  // Before draining: an escaped process may hold the output pipes open.
  const escaped = await endRun();
  const straysStopped = groupStrays || escaped > 0;
  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => {
      drainTimer = setTimeout(() => resolve(false), STREAM_DRAIN_MS);
    }),
  ]);
  clearTimeout(drainTimer);
  if (!drained) {
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
  }
  return {
    kind: 'finished',
    ending,
    exitCode: exit.code,
    signal: exit.signal,
    output: output.text(),
    totalBytes: output.totalBytes,
    cutBytes: output.cutBytes,
    straysStopped: ending === 'exited' && straysStopped,
    durationMs: Date.now() - started,
  };
}

/** Resolves once a pipe from the program is closed (at once for none). */
function ended(stream: Readable | null): Promise<void> {
  if (!stream || stream.closed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}

/** A listener's failure must not stop the output being kept. */
function hear(listener: ((text: string) => void) | undefined, text: string): void {
  if (!listener || text === '') return;
  try {
    listener(text);
  } catch {
    // The live view is a convenience; the result still carries the output.
  }
}

/**
 * node:child_process rather than execa: execa's first load cost ~100 ms of the first command of a
 * process and its stream plumbing a few ms of every command (profiled); what it added here
 * (interleaving stdout and stderr, feeding fd 3) is a few lines.
 */
function spawnGrouped(req: GroupRunRequest): ChildProcess {
  const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
  if (req.fd3 !== undefined || req.onListener) stdio.push(req.fd3 === undefined ? 'ignore' : 'pipe');
  if (req.onListener) stdio.push('ipc');
  const child = spawn(req.file, req.args, {
    cwd: req.cwd,
    env: req.env,
    // Own process group (and session): the whole tree can be signalled at once, and no terminal is attached.
    detached: true,
    stdio,
  });
  if (req.onListener) takeListener(child, req.onListener);
  const fd3 = child.stdio[3];
  if (req.fd3 !== undefined && fd3 && 'end' in fd3) {
    // A program that exits before reading it all closes the pipe: nothing to report.
    fd3.on('error', () => {});
    fd3.end(req.fd3);
  }
  return child;
}
