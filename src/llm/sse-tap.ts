/**
 * A pass-through for a streaming response body: it reports every piece's size as it arrives (the
 * idle timer counts bytes, not parsed chunks) and notices the `data: [DONE]` line that ends a
 * complete stream, which the openai package swallows.
 */

const DONE = Buffer.from('[DONE]');
const TAIL = 24;

export type SseTap = {
  stream: ReadableStream<Uint8Array>;
  /** True once a `data: [DONE]` line has passed. */
  sawDone(): boolean;
};

/** Wraps `body`. Contract: passes every byte through unchanged and in order; never throws. */
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
      controller.enqueue(chunk);
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
