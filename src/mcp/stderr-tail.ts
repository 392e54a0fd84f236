/** Keeps the last `maxChars` characters of a stream, cut at a line start when possible. */
export type StderrTail = { push(chunk: Buffer | string): void; text(): string; clear(): void };

/** Contract: memory stays bounded by `maxChars` however much the server writes. */
export function createStderrTail(maxChars = 4_000): StderrTail {
  let buffer = '';
  return {
    push(chunk) {
      buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (buffer.length > maxChars) {
        const cut = buffer.slice(buffer.length - maxChars);
        const lineStart = cut.indexOf('\n');
        buffer = lineStart >= 0 && lineStart < cut.length - 1 ? cut.slice(lineStart + 1) : cut;
      }
    },
    text: () => buffer,
    clear() {
      buffer = '';
    },
  };
}
