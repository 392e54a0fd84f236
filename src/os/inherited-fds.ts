/**
 * Descriptors warden was started with beyond stdin, stdout and stderr (a launcher's terminal on fd 27,
 * a harness's pipe) are inherited by every program it starts — Node's spawn does not close them — so a
 * sandboxed command could write to that terminal past the output sanitiser (OSC 52 sets the clipboard)
 * or read the pipe. warden uses none of them: each one that would pass to a child (no
 * close-on-exec flag) is closed at start-up, before anything is spawned. Node's own descriptors all
 * carry the flag; Node's IPC channel (NODE_CHANNEL_FD) is kept.
 */
import { closeSync, readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/**
 * Closes the inherited descriptors above 2 that a child would get. Returns the ones it closed.
 * Contract: never throws; without /proc (not Linux) it does nothing.
 */
export function closeInheritedDescriptors(env: NodeJS.ProcessEnv = process.env): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const keep = new Set([0, 1, 2]);
  const channel = Number(env.NODE_CHANNEL_FD);
  if (Number.isInteger(channel)) keep.add(channel);
  const closed: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || keep.has(fd)) continue;
    let flags: number;
    try {
      const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
      flags = Number.parseInt(/^flags:\s*([0-7]+)/m.exec(info)?.[1] ?? '', 8);
    } catch {
      // Gone already (the folder listing's own descriptor), or not readable.
      continue;
    }
    if (!Number.isFinite(flags) || (flags & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // Not ours to close after all.
    }
  }
  return closed;
}
