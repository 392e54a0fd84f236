/**
 * node:fs with a disk that can be made full, for the audit writer's fault tests: while `full`, `cut`
 * bytes of the next write go out and then every write fails ENOSPC (and statfs says no room); `writes`
 * counts the writes asked for.
 */
import * as fs from 'node:fs';
import type { AuditFs } from '../../src/audit/writer';

export const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** What a writeSync call asks to write, as bytes: a line's text (whole) or part of a buffer. */
export function written(data: Buffer | string, at?: number, size?: number) {
  if (typeof data === 'string') {
    const buffer = Buffer.from(data);
    return { buffer, offset: 0, length: buffer.length };
  }
  const offset = at ?? 0;
  return { buffer: data, offset, length: size ?? data.length - offset };
}

export function fillableFs() {
  const disk = { full: false, cut: 0, writes: 0 };
  const faulty: AuditFs = {
    ...fs,
    // The writer calls writeSync(fd, text) for lines, then writeSync(fd, buffer, offset, length) for
    // the rest of a short write (and for repair markers).
    writeSync: ((fd: number, data: Buffer | string, at?: number, size?: number) => {
      const { buffer, offset, length } = written(data, at, size);
      disk.writes++;
      if (!disk.full) return fs.writeSync(fd, buffer, offset, length);
      if (disk.cut > 0) {
        const n = fs.writeSync(fd, buffer, offset, Math.min(disk.cut, length));
        disk.cut = 0;
        return n;
      }
      throw enospc();
    }) as AuditFs['writeSync'],
    statfsSync: ((path: string) =>
      disk.full
        ? { ...fs.statfsSync(path), bavail: 0, bfree: 0 }
        : fs.statfsSync(path)) as AuditFs['statfsSync'],
  };
  return { disk, fs: faulty };
}
