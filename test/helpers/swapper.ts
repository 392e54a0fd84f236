/**
 * An attacker process that exchanges two paths with renameat2(RENAME_EXCHANGE) in a tight loop —
 * the folder/link swap a sandboxed command can run while warden's own tools open paths. Node has
 * no renameat2, so the loop is python3 (ctypes) or, failing that, a 20-line C program compiled
 * with cc. `findSwapper()` says which one is available, or why none is.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PYTHON = `
import ctypes, os, platform, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
if hasattr(libc, "renameat2"):
    swap = lambda: libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
else:
    nr = {"x86_64": 316, "aarch64": 276}[platform.machine()]
    swap = lambda: libc.syscall(nr, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
if swap() != 0:
    sys.stderr.write("renameat2 failed: errno %d\\n" % ctypes.get_errno()); sys.exit(2)
n = 1
sys.stdout.write("ready\\n"); sys.stdout.flush()
while not stop:
    if swap() == 0: n += 1
sys.stdout.write("swaps %d\\n" % n); sys.stdout.flush()
`;

const C_SOURCE = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE 2
#endif
static volatile sig_atomic_t stop = 0;
static void on_term(int s) { (void)s; stop = 1; }
static long swap(const char *a, const char *b) { return syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE); }
int main(int argc, char **argv) {
  if (argc != 3) return 64;
  signal(SIGTERM, on_term);
  if (swap(argv[1], argv[2]) != 0) { perror("renameat2"); return 2; }
  unsigned long n = 1;
  printf("ready\\n"); fflush(stdout);
  while (!stop) if (swap(argv[1], argv[2]) == 0) n++;
  printf("swaps %lu\\n", n); fflush(stdout);
  return 0;
}
`;

export type SwapperCommand = { kind: 'python3' | 'cc'; argv: string[] };

/** Writes the swapper into `dir` and returns how to run it, or why it cannot run here. */
export function findSwapper(dir: string): SwapperCommand | { kind: 'none'; reason: string } {
  if (process.platform !== 'linux') return { kind: 'none', reason: 'renameat2 is Linux-only' };
  try {
    execFileSync('python3', ['-c', 'import ctypes'], { stdio: 'ignore' });
    const script = join(dir, 'swapper.py');
    writeFileSync(script, PYTHON);
    return { kind: 'python3', argv: ['python3', script] };
  } catch {
    // No python3 (or no ctypes): try a C compiler.
  }
  try {
    const source = join(dir, 'swapper.c');
    const binary = join(dir, 'swapper');
    writeFileSync(source, C_SOURCE);
    execFileSync('cc', ['-O2', '-o', binary, source], { stdio: 'ignore' });
    return { kind: 'cc', argv: [binary] };
  } catch {
    return { kind: 'none', reason: 'neither python3 (with ctypes) nor a C compiler (cc) is installed' };
  }
}

export type RunningSwapper = {
  child: ChildProcess;
  /** Stops the loop (SIGTERM) and resolves with the number of exchanges it made. */
  stop(): Promise<number>;
};

/** Starts exchanging `a` and `b`; resolves once the first exchange succeeded. */
export function startSwapper(command: SwapperCommand, a: string, b: string): Promise<RunningSwapper> {
  const [file, ...args] = command.argv as [string, ...string[]];
  const child = spawn(file, [...args, a, b], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number> => {
    child.kill('SIGTERM');
    await exited;
    const match = /swaps (\d+)/.exec(out);
    if (!match) throw new Error(`the swapper did not report its count: ${out} ${err}`);
    return Number(match[1]);
  };
  return new Promise((resolve, reject) => {
    const onData = () => {
      if (out.includes('ready')) {
        child.stdout?.off('data', onData);
        resolve({ child, stop });
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((code) => reject(new Error(`the swapper exited (${code}) before swapping: ${err}`)));
  });
}
