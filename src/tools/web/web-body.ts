import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Readable, Transform } from 'node:stream';

// node:zlib loads with the first compressed body, not at start-up; synchronously, so no
// event of the response can come before its listeners.
let zlib: typeof import('node:zlib') | undefined;
const loadZlib = () => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));

/**
 * Reads a response body, decompressed, stopping at `maxBytes` of decoded content (so a small
 * compressed body cannot expand past the cap).
 * Contract: rejects on a socket error, an unknown content-encoding, or abort; never reads past the cap.
 */
export async function readCapped(
  res: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      signal.throwIfAborted();
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      if (total + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - total));
        total = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buf);
      total += buf.length;
    }
  } finally {
    // Stop the transfer: the rest is never read.
    res.destroy();
    if (stream !== res) stream.destroy();
  }
  signal.throwIfAborted();
  return { body: Buffer.concat(chunks, total), truncated };
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const decoder = pickDecoder(encoding);
  if (decoder === 'identity') return res;
  if (!decoder) {
    res.destroy();
    throw new Error(`The server used an unsupported content-encoding (${encoding}).`);
  }
  res.on('error', (err) => decoder.destroy(err));
  // An aborted request ends the response without an error event on some Node versions.
  res.on('aborted', () => decoder.destroy(new Error('The response was cut off.')));
  return res.pipe(decoder);
}

function pickDecoder(encoding: string): Transform | 'identity' | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return 'identity';
    case 'gzip':
    case 'x-gzip':
      return loadZlib().createGunzip();
    case 'deflate':
      return loadZlib().createInflate();
    case 'br':
      return loadZlib().createBrotliDecompress();
    default:
      return undefined;
  }
}
