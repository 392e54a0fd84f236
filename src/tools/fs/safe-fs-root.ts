/**
 * The project root must outlive the session: if it is deleted (or replaced by another folder at the
 * same path) mid-session, the session stops rather than letting a write recreate it. write_file
 * refuses on its own (safe-fs.ts never creates the root); this watch tells the person at once.
 */
import { statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';

/** What a session says when its root goes away. */
export function rootGoneMessage(root: string): string {
  return `The project folder ${root} was deleted or replaced while warden was running. The session has stopped: nothing more runs, and warden will not recreate the folder. Restore it and start warden again.`;
}

/**
 * Polls the root (device, inode and birth time) every `intervalMs`; calls `onGone` once when it is missing, no
 * longer a folder, or another folder. Returns a function that stops the watch.
 * Contract: never throws; the timer does not keep the process alive.
 */
export function watchProjectRoot(
  root: string,
  onGone: (message: string) => void,
  intervalMs = 1000,
): () => void {
  // A folder made again at the same path often gets the same inode number; its birth time differs
  // (where the file system records one).
  let first: { dev: number; ino: number; born: number };
  try {
    const info = statSync(root);
    first = { dev: info.dev, ino: info.ino, born: info.birthtimeMs };
  } catch {
    queueMicrotask(() => onGone(rootGoneMessage(root)));
    return () => undefined;
  }
  let done = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || done) return;
    busy = true;
    void lstat(root)
      .then(
        (info) =>
          info.isDirectory() &&
          info.dev === first.dev &&
          info.ino === first.ino &&
          info.birthtimeMs === first.born,
        () => false,
      )
      .then((alive) => {
        busy = false;
        if (alive || done) return;
        stop();
        onGone(rootGoneMessage(root));
      });
  }, intervalMs);
  timer.unref();
  const stop = () => {
    done = true;
    clearInterval(timer);
  };
  return stop;
}
