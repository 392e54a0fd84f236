import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real read-only and full filesystems for audit tests, where this process may mount (root with
 * CAP_SYS_ADMIN, as in CI). chmod does not stop root, so a read-only WARDEN_HOME needs a mount.
 * Elsewhere `canMount` is false and the tests that need it skip, saying why.
 */
function probe(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'warden-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const canMount = process.platform === 'linux' && probe();
export const NO_MOUNT =
  'skipped: this process may not mount (needs root with CAP_SYS_ADMIN); the injected-fs tests cover the same paths';

/** A tmpfs of `kb` KB on `dir`. */
export function mountTmpfs(dir: string, kb: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
}

/** `dir` bound onto itself read-only. */
export function bindReadOnly(dir: string): void {
  execFileSync('mount', ['--bind', dir, dir], { stdio: 'ignore' });
  execFileSync('mount', ['-o', 'remount,ro,bind', dir], { stdio: 'ignore' });
}

/** Makes a read-only bind writable again (the same mount, remounted rw). */
export function remountWritable(dir: string): void {
  execFileSync('mount', ['-o', 'remount,rw,bind', dir], { stdio: 'ignore' });
}

export function unmount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  } catch {
    // Not mounted (a test failed before mounting).
  }
}

/** Fills the file system that holds `dir` to its last byte (a file `filler` in `dir`). */
export function fillDisk(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096, 1));
  } catch {
    for (;;) {
      try {
        writeSync(fd, Buffer.alloc(1, 1));
      } catch {
        break;
      }
    }
  } finally {
    closeSync(fd);
  }
}
