/** Reading a prompt piped into a headless run (`echo "fix the test" | warden --headless`). */

/** What stdin held, or why it cannot be the prompt. */
export type StdinText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Reads `stream` to its end, at most `limitBytes` (more is refused, not cut: half a prompt is a
 * different task). Contract: never rejects; an error on the stream is a reason.
 */
export function readAllStdin(stream: NodeJS.ReadableStream, limitBytes: number): Promise<StdinText> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: StdinText) => {
      if (done) return;
      done = true;
      stream.removeAllListeners('data');
      resolve(result);
    };
    stream.on('data', (chunk: Buffer | string) => {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += piece.length;
      if (size > limitBytes) {
        finish({ ok: false, reason: `the prompt on stdin is over ${Math.round(limitBytes / 1024)} KiB` });
        stream.pause();
        return;
      }
      chunks.push(piece);
    });
    stream.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    stream.on('error', (err: Error) =>
      finish({ ok: false, reason: `stdin could not be read: ${err.message}` }),
    );
  });
}
