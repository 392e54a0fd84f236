/**
 * The chunks of a streamed chat completion, read the way the openai package's `Stream` reads them —
 * the same lines (`\n`, `\r\n` or `\r`), the same events (a blank line ends one; `data:` lines joined,
 * comments and other fields skipped, a last event without its blank line dropped), `[DONE]` ending
 * the answer, an `error` object in an event thrown as the package's APIError, unreadable JSON thrown
 * as its SyntaxError, an abort ending the iteration quietly — but a piece of the body at a time. The
 * package walks every byte in JavaScript and passes each event through four async generators: ~20 µs
 * an event, ~200 ms of a 5,000-call answer (10,000 events) spent after the last byte had arrived.
 */
import OpenAI from 'openai';

/** A response as the openai package hands it back: its body and headers. */
export type StreamedResponse = {
  body: AsyncIterable<Uint8Array | ArrayBuffer | string> | null;
  headers: { get(name: string): string | null };
};

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();
// The package decodes each line with one TextDecoder, not streaming: a BOM is dropped per line.
const decoder = new TextDecoder();

/**
 * Yields, for each piece of the body, the chunks of the events it completed (possibly none), in
 * order. `abort` is called when the body is missing, or when the iteration ends before the body
 * did (the package's `Stream` does both). Contract: the chunks, errors and ending of the package's
 * `Stream` over the same bytes.
 */
export async function* chatStreamChunks(
  response: StreamedResponse,
  abort: () => void,
): AsyncGenerator<unknown[]> {
  if (!response.body) {
    abort();
    throw new OpenAI.OpenAIError('Attempted to iterate over a response with no body');
  }
  const lines = new LineSplitter();
  const events = new EventAssembler();
  let done = false;
  let ended = false;
  // The chunks of the events these lines complete; a failing event ends the list, and its error is
  // thrown once the chunks before it were taken (the package yields them first, one by one).
  const take = (list: string[]): { chunks: unknown[]; failed?: { error: unknown } } => {
    const chunks: unknown[] = [];
    for (const line of list) {
      const event = events.line(line);
      if (!event || done) continue;
      if (event.data.startsWith('[DONE]')) {
        done = true;
        continue;
      }
      try {
        chunks.push(chunkOf(event, response.headers));
      } catch (error) {
        return { chunks, failed: { error } };
      }
    }
    return { chunks };
  };
  try {
    for await (const piece of response.body) {
      if (piece == null) continue;
      const { chunks, failed } = take(lines.push(bytesOf(piece)));
      if (chunks.length > 0) yield chunks;
      if (failed) throw failed.error;
    }
    const { chunks, failed } = take(lines.flush());
    if (chunks.length > 0) yield chunks;
    if (failed) throw failed.error;
    ended = true;
  } catch (err) {
    if (isAbortError(err)) {
      ended = true;
      return;
    }
    throw err;
  } finally {
    if (!ended) abort();
  }
}

type SseEvent = { event: string | null; data: string };

/** The package's rule: an event outside `thread.*` is its JSON; an `error` in it is thrown. */
function chunkOf(sse: SseEvent, headers: StreamedResponse['headers']): unknown {
  const data = JSON.parse(sse.data);
  if (sse.event === null || !sse.event.startsWith('thread.')) {
    if (data?.error) throw new OpenAI.APIError(undefined, data.error, undefined, headers as Headers);
    return data;
  }
  return { event: sse.event, data };
}

function bytesOf(piece: Uint8Array | ArrayBuffer | string): Uint8Array {
  if (piece instanceof ArrayBuffer) return new Uint8Array(piece);
  return typeof piece === 'string' ? encoder.encode(piece) : piece;
}

/**
 * Lines of a byte stream, each decoded on its own. A line ends at `\n`, `\r\n` or a lone `\r`; a `\r`
 * that ends the bytes so far waits for the next byte. What is left at the end is the last line.
 * Pieces of a line not ended yet are kept apart and joined once, when it ends: joining each piece
 * onto the rest copied ~n²/2 bytes — a server sending one 64 MiB line in 16 KiB pieces cost minutes
 * of a pegged CPU (~128 GiB copied) before the byte limit stopped it.
 */
class LineSplitter {
  private rest: Uint8Array[] = [];
  private restBytes = 0;

  push(bytes: Uint8Array): string[] {
    if (bytes.length === 0) return [];
    // The rest holds no line ending but perhaps a last `\r`; a piece without any only adds to it.
    const last = this.rest[this.rest.length - 1];
    if (last?.[last.length - 1] !== CR && bytes.indexOf(LF) === -1 && bytes.indexOf(CR) === -1) {
      this.rest.push(bytes);
      this.restBytes += bytes.length;
      return [];
    }
    const buffer =
      this.rest.length === 0 ? bytes : joined([...this.rest, bytes], this.restBytes + bytes.length);
    const end = completeLinesEnd(buffer);
    this.rest = end === buffer.length ? [] : [end === 0 ? buffer : buffer.slice(end)];
    this.restBytes = buffer.length - end;
    return end === 0 ? [] : splitDecoded(buffer.subarray(0, end));
  }

  flush(): string[] {
    if (this.restBytes === 0) return [];
    const last = joined(this.rest, this.restBytes);
    this.rest = [];
    this.restBytes = 0;
    // A pending `\r` ends the last line; otherwise the rest is the last line, without its ending.
    return last[last.length - 1] === CR ? [decoder.decode(last.subarray(0, -1))] : [decoder.decode(last)];
  }
}

/**
 * Where the complete lines of `buffer` end: after its last line ending, except a `\r` that ends the
 * bytes so far (the next byte may make it `\r\n`). 0 when no line is complete.
 */
function completeLinesEnd(buffer: Uint8Array): number {
  // A `\r` as the last byte waits: the search starts before it.
  const from = buffer[buffer.length - 1] === CR ? buffer.length - 2 : buffer.length - 1;
  if (from < 0) return 0;
  return Math.max(buffer.lastIndexOf(LF, from), buffer.lastIndexOf(CR, from)) + 1;
}

const LINE_END = /\r\n|\r|\n/;

/**
 * The lines of `bytes` (which end with a line ending), as if each were decoded on its own: the piece
 * is decoded once (a burst's answer is 10,000 events, twice as many lines) and split at its line
 * endings — bytes a decoder never makes from anything else — and a line after the first drops a
 * leading BOM, as its own decode would have (the first one's was dropped by the decode).
 */
function splitDecoded(bytes: Uint8Array): string[] {
  const lines = decoder.decode(bytes).split(LINE_END);
  lines.pop();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.charCodeAt(0) === 0xfeff) lines[i] = line.slice(1);
  }
  return lines;
}

/** `parts` (of `total` bytes together) as one array; a single part is returned as it is. */
function joined(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Events from lines: a blank line ends one that has an `event` or `data`; `:` lines are comments. */
class EventAssembler {
  private event: string | null = null;
  private data: string[] = [];

  line(line: string): SseEvent | null {
    if (line === '') {
      if (!this.event && this.data.length === 0) return null;
      const sse = {
        event: this.event,
        data: this.data.length === 1 ? (this.data[0] as string) : this.data.join('\n'),
      };
      this.event = null;
      this.data = [];
      return sse;
    }
    // The common line, `data: {…}`, without slicing out its field name.
    if (line.startsWith('data: ')) {
      this.data.push(line.slice(6));
      return null;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}

/** The package's test for an abort (spec fetch, and Expo's). */
function isAbortError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; message?: unknown };
  return (
    ('name' in e && e.name === 'AbortError') ||
    ('message' in e && String(e.message).includes('FetchRequestCanceledException'))
  );
}
