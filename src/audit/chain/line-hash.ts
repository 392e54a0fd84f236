/**
 * The audit log's hash chain: every line written carries `seq` and `prevHash`, the sha256 of the
 * previous line's exact bytes (its newline included, as `sed -n Np file | sha256sum` prints it). The
 * first line of a day links to the previous day file's last line; the very first line of a log to
 * GENESIS_HASH.
 */
import * as crypto from 'node:crypto';

/** What the first line of a log links to: no line came before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** `crypto.hash` (Node 20.12+): a third of createHash's cost for a line; older Node 20s hash the long way. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer) => string }).hash;

/** sha256 (hex) of a line's bytes as written, its newline included. */
export function lineHash(line: string | Buffer): string {
  return oneShot ? oneShot('sha256', line) : crypto.createHash('sha256').update(line).digest('hex');
}

/** The chain after a file's first `size` bytes: the last line's hash and seq (0 before a day's first line). */
export type ChainHead = { hash: string; seq: number; size: number };

/** Where a line stands in its day's chain. */
export type ChainLink = { seq: number; prevHash: string };

/**
 * A record's JSON (an object with at least one field) with `fields` (`,"key":value…`, already
 * serialised) and its link appended as its last fields, and the newline: the text written. The link
 * goes in after redaction, so a hash never looks like a secret to the redactor.
 */
export function chainedLine(json: string, link: ChainLink, fields = ''): string {
  return `${json.slice(0, -1)}${fields},"seq":${link.seq},"prevHash":"${link.prevHash}"}\n`;
}

const LINK_AT_END = /"seq":(\d{1,15}),"prevHash":"[0-9a-f]{64}"\}$/;

/**
 * The `seq` of a line as the writer wrote it (its last fields), else 0: an older warden's line, a
 * repair of one, or a line the writer did not make. Reads only the line's end.
 */
export function seqOfLine(line: string): number {
  const match = LINK_AT_END.exec(line.length > 200 ? line.slice(-200) : line);
  return match ? Number(match[1]) : 0;
}
