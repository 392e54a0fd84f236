import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How one ripgrep run ended. */
export type RgRunResult =
  | { kind: 'exited'; code: number | null; stderr: string; stopped: boolean; timedOut: boolean }
  | { kind: 'spawn_failed'; code: string; message: string };

export type RgRunOptions = {
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  /** Called per stdout line; return 'stop' to end the run early (enough results). */
  onLine(line: string): 'more' | 'stop';
};

const STDERR_LIMIT = 4096;

/** Resolves ripgrep's binary from @vscode/ripgrep. Contract: rejects when the platform package is missing. */
export async function resolveRgPath(): Promise<string> {
  const module = await import('@vscode/ripgrep');
  return module.rgPath;
}

/**
 * Runs ripgrep with the given argv (never through a shell), streaming stdout lines.
 * Contract: never rejects; a missing binary resolves `spawn_failed` with its errno code.
 */
export async function runRg(file: string, args: string[], options: RgRunOptions): Promise<RgRunResult> {
  // node:readline loads with the first search, not on the way to the first screen.
  const { createInterface } = await import('node:readline');
  return new Promise((resolve) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      // Node throws some spawn errors instead of emitting them (ENOTDIR: a cwd that is not a folder).
      const e = err as NodeJS.ErrnoException;
      resolve({ kind: 'spawn_failed', code: e.code ?? 'UNKNOWN', message: e.message });
      return;
    }
    let stderr = '';
    let stopped = false;
    let timedOut = false;
    let settled = false;
    const finish = (result: RgRunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const stop = () => {
      stopped = true;
      child.kill('SIGTERM');
    };
    const onAbort = () => stop();
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) stop();
    child.on('error', (err: NodeJS.ErrnoException) =>
      finish({ kind: 'spawn_failed', code: err.code ?? 'UNKNOWN', message: err.message }),
    );
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT)
        stderr += chunk.toString('utf8').slice(0, STDERR_LIMIT - stderr.length);
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      if (!stopped && options.onLine(line) === 'stop') stop();
    });
    child.on('close', (code) => finish({ kind: 'exited', code, stderr: stderr.trim(), stopped, timedOut }));
  });
}
