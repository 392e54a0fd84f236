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

export type SseTap = {
  stream: ReadableStream<Uint8Array>;
  /** True once a `data: [DONE]` line has passed. */
  sawDone(): boolean;
};

/**
 * Wraps `body`. Contract: passes every byte through unchanged and in order (in pieces cut only after
 * a blank line, so no event is split that was whole); never throws.
 */
export function tapEventStream(body: ReadableStream<Uint8Array>, onBytes: (count: number) => void): SseTap {
  let done = false;
  let tail = Buffer.alloc(0);
  let total = 0;
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      onBytes(chunk.byteLength);
      if (!done) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        // A marker split across two pieces is found in the joint; one inside a piece, in the piece.
        const joint = Buffer.concat([tail, bytes.subarray(0, TAIL)]);
        done = hasDoneLine(joint, total - tail.length === 0) || hasDoneLine(bytes, total === 0);
        total += bytes.length;
        tail = Buffer.concat([tail, bytes.subarray(Math.max(0, bytes.length - TAIL))]).subarray(-TAIL);
      }
      enqueueInPieces(chunk, controller);
    },
  });
  return { stream: body.pipeThrough(transform), sawDone: () => done };
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

/** Enqueues `chunk` cut after the first blank line past each PIECE_BYTES (a big event stays one piece). */
function enqueueInPieces(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void {
  if (chunk.byteLength <= PIECE_BYTES) return controller.enqueue(chunk);
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let start = 0;
  for (;;) {
    const blank = bytes.indexOf(BLANK_LINE, start + PIECE_BYTES);
    if (blank < 0 || blank + 2 >= bytes.length) break;
    controller.enqueue(chunk.subarray(start, blank + 2));
    start = blank + 2;
  }
  controller.enqueue(start === 0 ? chunk : chunk.subarray(start));
}
