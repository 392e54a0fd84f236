import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** One line read backwards: its text and the byte offset where it starts in the file. */
export type TailLine = {
  text: string;
  start: number /** The file's last line, without a newline. */;
  openEnd: boolean;
};

const CHUNK = 256 * 1024;

/**
 * Reads the lines of `path` that start before byte `end` (default: the file's size), newest first,
 * until `visit` returns 'stop' or `budgetBytes` have been read. Returns where reading stopped: the
 * byte offset of the oldest line visited (0 when the file was read to its start). Lines are decoded
 * one at a time, so a page of the newest records costs one chunk, not the whole day.
 * Contract: never throws; an unreadable or missing file has no lines (returns 0).
 */
export function readLinesBackward(
  path: string,
  visit: (line: TailLine) => 'more' | 'stop',
  options: { end?: number; budgetBytes?: number } = {},
): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0;
  }
  try {
    const size = fstatSync(fd).size;
    const end = Math.min(options.end ?? size, size);
    return walk(fd, end, end === size, visit, options.budgetBytes ?? Number.POSITIVE_INFINITY);
  } catch {
    return 0;
  } finally {
    closeSync(fd);
  }
}

function walk(
  fd: number,
  end: number,
  atFileEnd: boolean,
  visit: (line: TailLine) => 'more' | 'stop',
  budget: number,
): number {
  let pos = end;
  // Bytes of a line whose start lies in a chunk not read yet.
  let carry = Buffer.alloc(0);
  let read = 0;
  let first = true;
  while (pos > 0) {
    const size = Math.min(CHUNK, pos);
    pos -= size;
    const chunk = Buffer.allocUnsafe(size);
    readSync(fd, chunk, 0, size, pos);
    read += size;
    const data = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
    const firstNewline = data.indexOf(0x0a);
    if (pos > 0 && firstNewline === -1) {
      carry = data; // one line longer than a chunk: keep reading backwards
      continue;
    }
    const cut = pos === 0 ? 0 : firstNewline + 1;
    carry = data.subarray(0, cut);
    // data[cut..] holds whole lines; the last may lack its newline only at the file's end.
    let lineEnd = data.length;
    if (data[lineEnd - 1] === 0x0a) lineEnd -= 1;
    const openEnd = first && atFileEnd && data.length > cut && data[data.length - 1] !== 0x0a;
    first = false;
    let isLast = true;
    while (lineEnd >= cut) {
      const nl = lineEnd === cut ? -1 : data.lastIndexOf(0x0a, lineEnd - 1);
      const lineStart = nl < cut ? cut : nl + 1;
      const text = data.toString('utf8', lineStart, lineEnd);
      const start = pos + lineStart;
      if (visit({ text, start, openEnd: openEnd && isLast }) === 'stop') return start;
      isLast = false;
      if (lineStart === cut) break;
      lineEnd = lineStart - 1;
    }
    if (read >= budget) return pos + cut;
  }
  return 0;
}
