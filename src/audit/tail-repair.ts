import type * as nodeFs from 'node:fs';
import { type ChainHead, chainedLine, lineHash } from './chain/line-hash';

/**
 * The synchronous file operations the writer needs: its lines', the chain's (readdir finds the day
 * before) and the append lock's (link, unlink, stat, the anchor's write and read). Defined here,
 * below writer.ts, so the two do not import each other.
 */
export type AuditFs = Pick<
  typeof nodeFs,
  | 'mkdirSync'
  | 'openSync'
  | 'writeSync'
  | 'closeSync'
  | 'fstatSync'
  | 'readSync'
  | 'fdatasync'
  | 'statfsSync'
  | 'readdirSync'
  | 'linkSync'
  | 'unlinkSync'
  | 'statSync'
  | 'writeFileSync'
  | 'readFileSync'
>;

/** The marker line written after a torn tail; readers count it, and the line before it as torn. */
export type RepairMarker = {
  ts: string;
  sessionId: string;
  repair: 'torn_line';
  tornBytes: number;
  /** sha256 of the torn bytes (audit log): what was cut, so `warden audit --verify` can check it. */
  tornHash?: string;
  note: string;
};

const TAIL_WINDOW = 1024 * 1024;

/** True for a parsed line that is a repair marker rather than a record. */
export function isRepairMarker(value: unknown): value is RepairMarker {
  return (
    typeof value === 'object' && value !== null && (value as { repair?: unknown }).repair === 'torn_line'
  );
}

const TORN_NOTE =
  'The line above was cut short by a write that failed (disk full or I/O error); it is kept as it was.';

/**
 * Makes sure a file opened for appending (`a+`) ends with a newline. A write cut short (a disk
 * that filled mid-line) leaves a torn last line; the next record would be glued onto it and both be
 * lost to readers. The torn bytes are left as they are (the log is append-only) and closed with a
 * newline, then a marker line says what happened. Returns the torn tail's length (0 when none).
 * Contract: throws when the file cannot be read or the repair cannot be written whole.
 */
export function repairTornTail(fs: AuditFs, fd: number, marker: { ts: string; sessionId: string }): number {
  const torn = tornTail(fs, fd);
  if (!torn) return 0;
  const line: RepairMarker = {
    ...marker,
    repair: 'torn_line',
    tornBytes: torn.bytes.length,
    note: TORN_NOTE,
  };
  writeWhole(fs, fd, Buffer.from(`\n${JSON.stringify(line)}\n`));
  return torn.bytes.length;
}

/**
 * `repairTornTail` for the chained audit log: the marker is a link of the chain, after the last whole
 * line before the torn bytes (`headAt` that offset gives its hash and seq), and carries the torn bytes'
 * length and hash. Returns the chain's head after the marker, or undefined when the tail was whole.
 * Contract: as `repairTornTail`.
 */
export function repairTornChainTail(
  fs: AuditFs,
  fd: number,
  marker: { ts: string; sessionId: string },
  headAt: (end: number) => ChainHead,
): ChainHead | undefined {
  const torn = tornTail(fs, fd);
  if (!torn) return undefined;
  const before = headAt(torn.size - torn.bytes.length);
  const line: RepairMarker = {
    ...marker,
    repair: 'torn_line',
    tornBytes: torn.bytes.length,
    tornHash: lineHash(torn.bytes),
    note: TORN_NOTE,
  };
  const link = { seq: before.seq + 1, prevHash: before.hash };
  const text = chainedLine(JSON.stringify(line), link);
  const bytes = Buffer.from(`\n${text}`);
  writeWhole(fs, fd, bytes);
  return { hash: lineHash(text), seq: link.seq, size: torn.size + bytes.length };
}

/** The torn last line of the file (the bytes after its last newline) and the file's size; undefined when whole or empty. */
function tornTail(fs: AuditFs, fd: number): { bytes: Buffer; size: number } | undefined {
  const tail = settledTail(fs, fd);
  if (!tail || tail.bytes[tail.bytes.length - 1] === 0x0a) return undefined;
  const lastNewline = tail.bytes.lastIndexOf(0x0a);
  return { bytes: tail.bytes.subarray(lastNewline + 1), size: tail.size };
}

/** How long a tail without a newline must keep still before it counts as torn, and the longest wait. */
const STILL_FOR_MS = 16;
const GIVE_UP_AFTER_MS = 250;

/**
 * The file's last bytes once no other writer is mid-line, or undefined for an empty file. Another
 * process appending at the same moment (a second warden, a sub-agent's writer) grows the file page by
 * page, so a glance can catch its line half written. Such a line finishes within microseconds; a torn
 * one never does. So a tail without a newline is looked at again until the file's size has stayed the
 * same for STILL_FOR_MS — only a tail that keeps still is torn. A file that keeps growing past
 * GIVE_UP_AFTER_MS is judged on its last look.
 */
function settledTail(fs: AuditFs, fd: number): { bytes: Buffer; size: number } | undefined {
  const started = Date.now();
  let stillSince = started;
  let lastSize = -1;
  for (let pause = 1; ; pause = Math.min(pause * 2, 8)) {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return undefined;
    const window = Math.min(size, TAIL_WINDOW);
    const bytes = Buffer.alloc(window);
    const read = fs.readSync(fd, bytes, 0, window, size - window);
    const tail = bytes.subarray(0, read);
    if (read === window && tail[window - 1] === 0x0a) return { bytes: tail, size };
    const now = Date.now();
    if (size !== lastSize) stillSince = now;
    lastSize = size;
    if (now - stillSince >= STILL_FOR_MS || now - started >= GIVE_UP_AFTER_MS) return { bytes: tail, size };
    sleepSync(pause);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (the writer is synchronous by contract: one append, one line). */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** One `write` for a regular file; loops only on a short write and throws if nothing more goes out. */
export function writeWhole(fs: AuditFs, fd: number, bytes: Buffer): void {
  writeRest(fs, fd, bytes, 0);
}

/**
 * `writeWhole` for text: one write of the string itself (no buffer of its own — an audit line's
 * buffer was a tenth of its cost in a burst); a short write finishes from the text's bytes.
 */
export function writeWholeText(fs: AuditFs, fd: number, text: string): number {
  const n = fs.writeSync(fd, text);
  const length = Buffer.byteLength(text);
  if (n === length) return length;
  if (n <= 0) throw new Error(`short write: 0 of ${length} bytes`);
  writeRest(fs, fd, Buffer.from(text), n);
  return length;
}

function writeRest(fs: AuditFs, fd: number, bytes: Buffer, written: number): void {
  let offset = written;
  while (offset < bytes.length) {
    const n = fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (n <= 0) throw new Error(`short write: ${offset} of ${bytes.length} bytes`);
    offset += n;
  }
}
