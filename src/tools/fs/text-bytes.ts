/**
 * Bytes versus the text the model and the person see. read_file and the approval diff show a file
 * as UTF-8 with undecodable bytes as U+FFFD; writing that text back as UTF-8 would silently turn
 * every such byte into EF BF BD on lines the diff shows unchanged. So a rewrite keeps the original
 * bytes of every unchanged line and encodes only the lines the diff shows as new.
 */
import { isUtf8 } from 'node:buffer';
import { diffArrays } from 'diff';

/** True when the file holds a NUL byte anywhere (the whole buffer, not a leading window). */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.includes(0);
}

/** Offset of the first NUL byte, for messages; -1 when none. */
export const firstNul = (bytes: Buffer): number => bytes.indexOf(0);

/** The text a file shows as: UTF-8, undecodable bytes as U+FFFD (what read_file and the diff show). */
export const shownText = (bytes: Buffer): string => bytes.toString('utf8');

export type Encoded = { ok: true; bytes: Buffer; keptRawLines: number } | { ok: false; reason: string };

const REPLACEMENT = '\uFFFD';

/**
 * The bytes that replace `before` so that it reads as `after`: lines the diff leaves unchanged keep
 * their original bytes, new lines are UTF-8.
 * Contract: on `ok`, `shownText(bytes) === after` and every unchanged line is byte-identical; a new
 * line carrying U+FFFD in a file that is not valid UTF-8 is refused (the byte it stood for is unknown),
 * and so is a diff too costly to compute.
 */
export function encodeKeepingUnchanged(before: Buffer, after: string, timeoutMs = 2000): Encoded {
  if (isUtf8(before)) return { ok: true, bytes: Buffer.from(after, 'utf8'), keptRawLines: 0 };
  const pieces = splitBytes(before);
  const shown = pieces.map(shownText);
  const wanted = splitText(after);
  const changes = diffArrays(shown, wanted, { timeout: timeoutMs });
  if (!changes)
    return {
      ok: false,
      reason:
        'is not valid UTF-8 and the change is too large to compare line by line, so its other bytes cannot be kept as they are',
    };
  const out: Buffer[] = [];
  let index = 0;
  let keptRawLines = 0;
  for (const change of changes) {
    if (change.removed) {
      index += change.value.length;
      continue;
    }
    if (change.added) {
      const text = change.value.join('');
      if (text.includes(REPLACEMENT)) {
        return {
          ok: false,
          reason: `is not valid UTF-8, and a changed line holds U+FFFD (\uFFFD), which stands for bytes that cannot be shown; write_file can keep such bytes only on lines it leaves unchanged`,
        };
      }
      out.push(Buffer.from(text, 'utf8'));
      continue;
    }
    for (let k = 0; k < change.value.length; k++) {
      const piece = pieces[index++] as Buffer;
      if (!isUtf8(piece)) keptRawLines++;
      out.push(piece);
    }
  }
  const bytes = Buffer.concat(out);
  // The promise above, checked rather than assumed.
  if (shownText(bytes) !== after)
    return {
      ok: false,
      reason:
        'is not valid UTF-8 and its lines could not be matched exactly, so its other bytes cannot be kept as they are',
    };
  return { ok: true, bytes, keptRawLines };
}

/** Lines with their `\n` (0x0A never occurs inside a UTF-8 sequence, nor in Latin-1 text). */
function splitBytes(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl === -1) break;
    out.push(bytes.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

function splitText(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) break;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}
