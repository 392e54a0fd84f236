/**
 * `warden audit --verify`: walks the day files' hash chain (line-hash.ts) and names the first line
 * where it breaks — a line changed after it was written, lines removed, lines inserted, or a day
 * that does not link to the day before's last line. A torn line closed by a repair marker that
 * states its length and hash is part of the chain; lines written before the chain began (an older
 * warden) are counted, not judged.
 *
 * What a chain cannot show: a change to the very last line written (no line after it links to it)
 * and lines cut from the end of the newest day. The exported copy (audit.export) holds both.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isRepairMarker } from '../tail-repair';
import { auditFileName } from '../day-file';
import { GENESIS_HASH, lineHash } from './line-hash';

/** What broke, where: the 1-based line of the file, and a sentence for people. */
export type ChainBreak = {
  file: string;
  line: number;
  kind: 'changed' | 'removed' | 'inserted' | 'unreadable' | 'day_link';
  text: string;
};

/** One day file that verified. */
export type DayChecked = {
  file: string;
  /** Lines in the file (torn ones included). */
  lines: number;
  /** Lines before the chain began (written by a warden without it). */
  unchained: number;
  /** Torn lines closed by a repair marker that states them. */
  repaired: number;
  /** The file ends with a line cut short that nothing repaired yet (a write failed; the next repairs it). */
  tornAtEnd: boolean;
  /** The oldest file here links to a day that is not (removed, or kept elsewhere). */
  startsAfterMissingDay: boolean;
};

export type VerifyResult = { days: DayChecked[]; broken?: ChainBreak };

/** One line of a file: where it starts and ends (its newline at `end`, or the file's end). */
type Span = { start: number; end: number; terminated: boolean };

/**
 * Verifies `days` (oldest first) of the audit folder `dir`, in order; the first is linked to the day
 * file before it in `allDays` (the folder's days). Stops at the first break.
 * Contract: never throws; an unreadable file is a break at its line 1.
 */
export function verifyDays(dir: string, days: readonly string[], allDays: readonly string[]): VerifyResult {
  const result: VerifyResult = { days: [] };
  const first = days[0];
  if (first === undefined) return result;
  const earlier = allDays.filter((d) => d < first);
  let link = lastLinkOf(dir, earlier);
  for (const day of days) {
    const file = auditFileName(day);
    const bytes = readAll(join(dir, file));
    if (!bytes) {
      result.broken = { file, line: 1, kind: 'unreadable', text: `${file} cannot be read.` };
      return result;
    }
    const checked = verifyFile(file, bytes, link);
    if ('broken' in checked) {
      result.broken = checked.broken;
      return result;
    }
    result.days.push(checked.day);
    if (checked.last !== undefined) link = { hash: checked.last, from: file };
  }
  return result;
}

/** The link the first line after `days` takes: the last whole line of the latest one with lines. */
function lastLinkOf(dir: string, days: readonly string[]): { hash: string; from?: string } {
  for (const day of [...days].reverse()) {
    const bytes = readAll(join(dir, auditFileName(day)));
    if (!bytes || bytes.length === 0) continue;
    const spans = spansOf(bytes).filter((s) => s.terminated);
    const last = spans.at(-1);
    if (last) return { hash: lineHash(bytes.subarray(last.start, last.end + 1)), from: auditFileName(day) };
  }
  return { hash: GENESIS_HASH };
}

function verifyFile(
  file: string,
  bytes: Buffer,
  link: { hash: string; from?: string },
): { day: DayChecked; last: string | undefined } | { broken: ChainBreak } {
  const spans = spansOf(bytes);
  const day: DayChecked = {
    file,
    lines: spans.length,
    unchained: 0,
    repaired: 0,
    tornAtEnd: false,
    startsAfterMissingDay: false,
  };
  const hashes = spans.map((s) => (s.terminated ? lineHash(bytes.subarray(s.start, s.end + 1)) : ''));
  const parsed = spans.map((s) => parse(bytes, s));
  /** Line numbers by hash, the day before's last as line 0. */
  const seen = new Map<string, number>([[link.hash, 0]]);
  let expected = link.hash;
  let lastSeq = 0;
  let chained = false;
  let last: string | undefined;
  const broken = (line: number, kind: ChainBreak['kind'], text: string) => ({
    broken: { file, line, kind, text: `${file} line ${line}: ${text}` },
  });
  for (let i = 0; i < spans.length; i++) {
    const n = i + 1;
    const span = spans[i] as Span;
    if (!span.terminated) {
      day.tornAtEnd = true;
      break;
    }
    const hash = hashes[i] as string;
    const value = parsed[i];
    if (value === undefined) {
      const marker = parsed[i + 1];
      const torn = bytes.subarray(span.start, span.end);
      if (
        isRepairMarker(marker) &&
        marker.tornBytes === torn.length &&
        (marker.tornHash === undefined || marker.tornHash === lineHash(torn))
      ) {
        day.repaired += 1;
        continue;
      }
      return broken(n, 'unreadable', 'this line is not a record: it was changed, or inserted.');
    }
    const prevHash = typeof value.prevHash === 'string' ? value.prevHash : undefined;
    const seq = typeof value.seq === 'number' ? value.seq : undefined;
    if (prevHash === undefined) {
      if (chained) return broken(n, 'inserted', 'this line has no link to the line before: it was inserted.');
      day.unchained += 1;
      expected = hash;
      seen.set(hash, n);
      last = hash;
      continue;
    }
    if (prevHash !== expected) {
      const firstLink = !chained && day.unchained === 0;
      const next = parsed[i + 1];
      if (next && next.prevHash === expected)
        return broken(n, 'inserted', `this line was inserted: line ${n + 1} links to the line before it.`);
      const at = seen.get(prevHash);
      if (at !== undefined && at < n - 1)
        return broken(
          at + 1,
          'inserted',
          `line ${n} links to ${at === 0 ? 'the day before' : `line ${at}`}: ${lineRange(at + 1, n - 1)} inserted.`,
        );
      if (firstLink) {
        if (!link.from) {
          day.startsAfterMissingDay = true;
        } else {
          return broken(
            n,
            'day_link',
            `the day's first line does not link to the last line of ${link.from}: lines were removed from its end or added to it, that line was changed, or a day's file between them was removed.`,
          );
        }
      } else if (seq !== undefined && seq === lastSeq + 1) {
        return broken(
          n - 1,
          'changed',
          `this line was changed after it was written (line ${n} no longer links to it).`,
        );
      } else if (seq !== undefined && seq > lastSeq + 1) {
        const gone = seq - lastSeq - 1;
        return broken(
          n,
          'removed',
          `${gone} line${gone === 1 ? ' was' : 's were'} removed before this one (seq ${lastSeq} to ${seq}).`,
        );
      } else {
        return broken(
          n,
          'changed',
          `this line does not link to line ${n - 1}: a line was changed, removed or inserted here.`,
        );
      }
    } else if (chained && seq !== undefined && seq !== lastSeq + 1) {
      return broken(n, 'changed', `this line's seq ${seq} does not follow ${lastSeq}: it was changed.`);
    }
    chained = true;
    lastSeq = seq ?? lastSeq + 1;
    expected = hash;
    seen.set(hash, n);
    last = hash;
  }
  return { day, last };
}

const lineRange = (from: number, to: number): string =>
  from === to ? `line ${from} was` : `lines ${from}–${to} were`;

/** A line's JSON object, or undefined when it is not one. */
function parse(bytes: Buffer, span: Span): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', span.start, span.end));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function spansOf(bytes: Buffer): Span[] {
  const spans: Span[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) {
      spans.push({ start, end: bytes.length, terminated: false });
      break;
    }
    spans.push({ start, end: nl, terminated: true });
    start = nl + 1;
  }
  return spans;
}

/** The file's bytes, or undefined when it cannot be read (a folder, no permission). */
function readAll(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, bytes, got, size - got, got);
      if (n <= 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
