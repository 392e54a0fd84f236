/**
 * Keeps the first and last bytes of a stream and counts what falls in between, so a command's
 * output stays bounded however much it prints.
 */
export class HeadTailBuffer {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(limit: number) {
    this.headLimit = Math.floor(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headLimit) {
      const take = Math.min(this.headLimit - this.head.length, rest.length);
      this.head = Buffer.concat([this.head, rest.subarray(0, take)]);
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Compact now and then rather than per chunk: amortised linear.
    if (this.tailBytes > this.tailLimit * 4) this.compact();
  }

  /** Bytes received in total. */
  get totalBytes(): number {
    return this.total;
  }

  /** Bytes dropped between head and tail. */
  get cutBytes(): number {
    return this.total - this.head.length - Math.min(this.tailBytes, this.tailLimit);
  }

  /** Head, a `... [N bytes cut] ...` marker when something was dropped (ASCII: an output of ASCII stays one byte a character), and tail. */
  text(): string {
    this.compact();
    const tail = Buffer.concat(this.tail);
    const cut = this.cutBytes;
    const marker = cut > 0 ? `\n... [${cut} bytes cut] ...\n` : '';
    return this.head.toString('utf8') + marker + tail.toString('utf8');
  }

  private compact(): void {
    const joined = Buffer.concat(this.tail);
    const kept = joined.subarray(Math.max(0, joined.length - this.tailLimit));
    this.tail = [kept];
    this.tailBytes = kept.length;
  }
}
