/**
 * Where a day file's chain stands: the hash and seq of its last line, read from the file itself (the
 * lines another process appended count as much as ours), and the link a day's first line takes from
 * the day before.
 */
import { join } from 'node:path';
import { AUDIT_FILE_PATTERN, auditFileName } from '../day-file';
import type { AuditFs } from '../tail-repair';
import { type ChainHead, GENESIS_HASH, lineHash, seqOfLine } from './line-hash';

export type { ChainHead };

/** The file operations reading a head needs (the writer's). */
export type ChainFs = AuditFs;

const FIRST_WINDOW = 4096;

/**
 * The last whole line ending at byte `end` (the byte before `end` is its newline), newline included.
 * Reads back from `end` in growing windows, so a short line costs one small read.
 * Contract: throws when the file cannot be read.
 */
export function lineEndingAt(fs: AuditFs, fd: number, end: number): Buffer {
  for (let window = Math.min(end, FIRST_WINDOW); ; window = Math.min(end, window * 8)) {
    const bytes = Buffer.alloc(window);
    const read = fs.readSync(fd, bytes, 0, window, end - window);
    const got = bytes.subarray(0, read);
    const start = got.lastIndexOf(0x0a, got.length - 2);
    if (start >= 0) return got.subarray(start + 1);
    if (window === end) return got;
  }
}

/**
 * The head after the first `end` bytes of an open day file whose byte `end - 1` is a newline (or
 * `end` is 0: then the head is the link from the day before, `before()`).
 */
export function headAt(fs: AuditFs, fd: number, end: number, before: () => string): ChainHead {
  if (end === 0) return { hash: before(), seq: 0, size: 0 };
  const line = lineEndingAt(fs, fd, end);
  // The link is the line's last fields (ASCII): only its end is decoded.
  const end200 = line.subarray(Math.max(0, line.length - 201), line.length - 1).toString('latin1');
  return { hash: lineHash(line), seq: seqOfLine(end200), size: end };
}

/**
 * The days of `dir` before `day` that have a file, latest first. Contract: never throws (an
 * unreadable folder has none).
 */
export function daysBefore(fs: ChainFs, dir: string, day: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => AUDIT_FILE_PATTERN.exec(name)?.[1])
    .filter((d): d is string => d !== undefined && d < day)
    .sort()
    .reverse();
}

/** The path of a day's file in `dir`. */
export const dayPath = (dir: string, day: string): string => join(dir, auditFileName(day));

export { GENESIS_HASH };
