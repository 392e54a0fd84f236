/**
 * A pass-through for a streaming response body: it reports every piece's size as it arrives (the
 * idle timer counts bytes, not parsed chunks) and notices the `data: [DONE]` line that ends a
 * complete stream, which the openai package swallows. It also hands the package the bytes in pieces
 * of a few whole events: the package's event splitter copies the rest of its buffer after every
 * event it finds, so one 64 KiB piece holding hundreds of small events (a burst of thousands of
 * tool calls) costs hundreds of 64 KiB copies — quadratic in the events per piece.
 */

const DONE = Buffer.from('[DONE]');
const TAIL = 24;
/** A piece handed on ends at the first event boundary (a blank line) past this many bytes. */
export const PIECE_BYTES = 2048;
const BLANK_LINE = Buffer.from('\n\n');

/**
 * More bytes than this in one answer is not an answer: a server streaming without end, or a small
 * compressed body that inflates without bound. A real one is ~1 MiB for 5,000 tool calls.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Thrown into the stream when an answer passes its byte limit. */
export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the answer passed ${Math.round(limit / (1024 * 1024))} MiB; reading stopped`);
  }
}

export type SseTap = {
  /** The bytes, as an async iterable (the openai package reads one as it reads a web stream). */
  stream: AsyncGenerator<Uint8Array>;
  /** True once a `data: [DONE]` line has passed. */
  sawDone(): boolean;
};

/**
 * Wraps `body` (a web ReadableStream or any async iterable of bytes). Plain async iteration, not a
 * TransformStream: the first web stream of a process loads Node's web-streams modules (~5 ms of the
 * first answer before its card, measured), which a body from node:http never needs.
 * Contract: passes every byte through unchanged and in order (in pieces cut only after a blank line,
 * so no event is split that was whole); ending the iteration early ends the body's; past `limit`
 * bytes it throws AnswerTooLarge (and ends the body).
 */
export function tapEventStream(
  body: AsyncIterable<Uint8Array>,
  onBytes: (count: number) => void,
  limit = MAX_ANSWER_BYTES,
): SseTap {
  let done = false;
  let size = 0;
  let tail = Buffer.alloc(0);
  let total = 0;
  async function* pass(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      onBytes(chunk.byteLength);
      size += chunk.byteLength;
      if (size > limit) throw new AnswerTooLarge(limit);
      if (!done) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        // A marker split across two pieces is found in the joint; one inside a piece, in the piece.
        const joint = Buffer.concat([tail, bytes.subarray(0, TAIL)]);
        done = hasDoneLine(joint, total - tail.length === 0) || hasDoneLine(bytes, total === 0);
        total += bytes.length;
        tail = Buffer.concat([tail, bytes.subarray(Math.max(0, bytes.length - TAIL))]).subarray(-TAIL);
      }
      yield* inPieces(chunk);
    }
  }
  return { stream: pass(), sawDone: () => done };
}

/** Whether `bytes` holds a line `data:[DONE]` (spaces allowed after the colon). JSON strings cannot hold a raw newline, so text that merely mentions [DONE] never matches. */
function hasDoneLine(bytes: Buffer, startsLine: boolean): boolean {
  for (let i = bytes.indexOf(DONE); i >= 0; i = bytes.indexOf(DONE, i + 1)) {
    let j = i;
    while (j > 0 && bytes[j - 1] === 0x20) j--;
    if (j < 5 || bytes.toString('latin1', j - 5, j) !== 'data:') continue;
    const k = j - 5;
    if (k === 0 ? startsLine : bytes[k - 1] === 0x0a || bytes[k - 1] === 0x0d) return true;
  }
  return false;
}

/** `chunk` cut after the first blank line past each PIECE_BYTES (a big event stays one piece). */
function* inPieces(chunk: Uint8Array): Generator<Uint8Array> {
  if (chunk.byteLength <= PIECE_BYTES) return yield chunk;
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let start = 0;
  for (;;) {
    const blank = bytes.indexOf(BLANK_LINE, start + PIECE_BYTES);
    if (blank < 0 || blank + 2 >= bytes.length) break;
    yield chunk.subarray(start, blank + 2);
    start = blank + 2;
  }
  yield start === 0 ? chunk : chunk.subarray(start);
}
