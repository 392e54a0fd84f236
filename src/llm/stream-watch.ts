/**
 * The idle timer of one model attempt. It counts bytes, not chunks: a server that trickles one
 * byte at a time is alive, while a server that keeps sending chunks that carry nothing (no text,
 * no reasoning, no tool call, no finish) is not making progress and is stopped like a silent one.
 */

/** What the stream had shown when the idle timer fired. */
export type IdleSeen = 'nothing' | 'empty' | 'answer';

export type StreamWatch = {
  /** Raw response bytes arrived (an event may still be incomplete). */
  bytes(count: number): void;
  /** A whole chunk was parsed; `progress` says whether it carried any part of the answer. */
  chunk(progress: boolean): void;
  /** Stops the timer; call when the attempt ends either way. */
  dispose(): void;
};

export type StreamWatchOptions = {
  idleMs: number;
  /** Called once when nothing that counts arrived for `idleMs`. */
  onIdle: (seen: IdleSeen) => void;
  /** Injectable clock (milliseconds). */
  now?: () => number;
};

/**
 * Starts watching at once (the request is about to be sent).
 * Contract: `onIdle` runs at most once, never after `dispose`. Bytes that belong to an event not
 * parsed yet (or to SSE comments, which some servers send as keep-alives) count as progress until
 * a parsed chunk turns out empty; then only the last chunk that carried something counts.
 */
export function createStreamWatch(options: StreamWatchOptions): StreamWatch {
  const now = options.now ?? (() => performance.now());
  const { idleMs } = options;
  let lastProgressAt = now();
  let lastByteAt = lastProgressAt;
  let rawBytes = 0;
  let bytesAtLastChunk = 0;
  let sawBytes = false;
  let sawProgress = false;
  let done = false;
  let timer: NodeJS.Timeout | undefined;

  // One timer, re-armed only when it fires: per-byte bookkeeping stays two assignments.
  const schedule = (delay: number) => {
    timer = setTimeout(check, Math.max(1, Math.ceil(delay)));
  };
  function check(): void {
    if (done) return;
    const pending = rawBytes > bytesAtLastChunk;
    const last = pending ? Math.max(lastProgressAt, lastByteAt) : lastProgressAt;
    const left = last + idleMs - now();
    if (left > 0) return schedule(left);
    done = true;
    options.onIdle(!sawBytes ? 'nothing' : sawProgress ? 'answer' : 'empty');
  }
  schedule(idleMs);

  return {
    bytes(count) {
      if (count <= 0) return;
      rawBytes += count;
      sawBytes = true;
      lastByteAt = now();
    },
    chunk(progress) {
      bytesAtLastChunk = rawBytes;
      if (!progress) return;
      sawProgress = true;
      lastProgressAt = now();
    },
    dispose() {
      done = true;
      clearTimeout(timer);
    },
  };
}
