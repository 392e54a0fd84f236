/**
 * Runs one hook command: `/bin/sh -c COMMAND` in the project folder, in a process group of its own,
 * the event as one JSON line on stdin, stdout and stderr kept apart and bounded. On its timeout (or
 * when the call it judges is cancelled) the whole group is stopped: SIGTERM, then SIGKILL. It runs as
 * the person, outside the sandbox (a hook is the person's code, or a trusted project's), with the
 * person's environment less the variables that hold secrets — the model key among them — plus
 * `CLAUDE_PROJECT_DIR` and `WARDEN_PROJECT_DIR`.
 */
import { spawn } from 'node:child_process';
import { killGroup } from '../os/process';
import { scrubEnv } from '../tools/exec/env-scrub';

export type HookRunRequest = {
  command: string;
  /** The project folder: the hook's working folder and its `CLAUDE_PROJECT_DIR`. */
  root: string;
  input: unknown;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
};

/** What a run came to: an exit with what it printed (`overflow`: stdout passed its bound), or why there was none. */
export type HookRunResult =
  | {
      kind: 'exited';
      code: number | null;
      signal: string | null;
      stdout: string;
      stderr: string;
      overflow: boolean;
    }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'spawn_failed'; message: string };

/** A hook's answer is one small JSON object; more than this is not one. */
export const HOOK_STDOUT_LIMIT = 64 * 1024;
/** What of stderr is kept (a block reason, a complaint); the rest is dropped. */
export const HOOK_STDERR_LIMIT = 8 * 1024;
const KILL_GRACE_MS = 1000;
/** After the hook exits, how long its pipes may stay open before what it printed counts as all. */
const DRAIN_MS = 250;

/** Runs the hook. Contract: never rejects; on its timeout or a cancel the whole process group is stopped before it resolves. */
export function runHookProcess(req: HookRunRequest): Promise<HookRunResult> {
  return new Promise((resolve) => {
    const env = {
      ...scrubEnv(req.env ?? process.env).env,
      CLAUDE_PROJECT_DIR: req.root,
      WARDEN_PROJECT_DIR: req.root,
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('/bin/sh', ['-c', req.command], {
        cwd: req.root,
        env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (err) {
      resolve({ kind: 'spawn_failed', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    const out = bounded(HOOK_STDOUT_LIMIT);
    const err = bounded(HOOK_STDERR_LIMIT);
    child.stdout?.on('data', out.push);
    child.stderr?.on('data', err.push);
    let settled = false;
    let ending: 'timeout' | 'cancelled' | undefined;
    const timer = setTimeout(() => stop('timeout'), req.timeoutMs);
    const onAbort = () => stop('cancelled');
    const finish = (result: HookRunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const stop = (why: 'timeout' | 'cancelled') => {
      if (ending || settled || child.pid === undefined) return;
      ending = why;
      // Resolved once the group is gone, whoever still holds the pipes (a process that left the group).
      void killGroup(child.pid, KILL_GRACE_MS).then(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ kind: why });
      });
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    if (req.signal?.aborted) onAbort();
    child.once('error', (e) => finish({ kind: 'spawn_failed', message: e.message }));
    // 'close': exited, and its pipes are done.
    const exited = (code: number | null, signal: NodeJS.Signals | null) =>
      finish({
        kind: 'exited',
        code,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        overflow: out.overflow(),
      });
    child.once('close', (code, signal) => {
      if (ending) return;
      exited(code, signal);
    });
    child.once('exit', (code, signal) => {
      // The hook exited, but something it left running (`curl … &`) may hold its pipes: what it printed
      // until now is its answer. What it left running is its own business, as in Claude Code.
      if (ending) return;
      const drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        exited(code, signal);
      }, DRAIN_MS);
      child.once('close', () => clearTimeout(drain));
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(`${JSON.stringify(req.input)}\n`);
  });
}

/** Keeps the first `limit` bytes of a stream and notes whether more came. */
function bounded(limit: number): {
  push: (chunk: Buffer) => void;
  text: () => string;
  overflow: () => boolean;
} {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  return {
    push: (chunk) => {
      if (size >= limit) {
        over = true;
        return;
      }
      const take = chunk.subarray(0, limit - size);
      if (take.length < chunk.length) over = true;
      chunks.push(take);
      size += take.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    overflow: () => over,
  };
}
