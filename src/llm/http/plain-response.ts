/**
 * The part of WHATWG `Response` the openai package reads (ok, status, headers, body, text, json),
 * as a plain class: Node 20's global `Response` is undici's, and touching it loads all of undici.
 */
import { type HeadersInput, PlainHeaders } from './plain-headers';

export type PlainResponseInit = {
  status?: number;
  statusText?: string;
  headers?: HeadersInput;
  url?: string;
  redirected?: boolean;
};

export class PlainResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: PlainHeaders;
  readonly url: string;
  readonly redirected: boolean;
  readonly body: ReadableStream<Uint8Array> | null;
  private used = false;

  constructor(body: ReadableStream<Uint8Array> | string | null, init: PlainResponseInit = {}) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = new PlainHeaders(init.headers);
    this.url = init.url ?? '';
    this.redirected = init.redirected ?? false;
    this.body = typeof body === 'string' ? streamOf(body) : body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.used) throw new TypeError('The body of this response was already read.');
    this.used = true;
    if (!this.body) return new ArrayBuffer(0);
    const parts: Uint8Array[] = [];
    let size = 0;
    for await (const part of this.body) {
      parts.push(part);
      size += part.byteLength;
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.byteLength;
    }
    return whole.buffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}
