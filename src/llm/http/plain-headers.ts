/**
 * The part of WHATWG `Headers` the openai package and warden's model transport use, as a plain
 * class. Node 20's global `Headers` is undici's: touching it loads all of undici (~45 ms and ~8 MiB
 * before the first model request, measured), which a model transport over node:http never needs.
 * Names are case-insensitive (kept lower-case); several values of one name read back joined by ", ".
 */
export type HeadersInput =
  | Iterable<readonly [string, string]>
  | Record<string, string | readonly string[] | undefined>
  | { forEach(each: (value: string, name: string) => void): void };

export class PlainHeaders {
  private readonly map = new Map<string, string[]>();

  constructor(init?: HeadersInput | null) {
    if (!init) return;
    if (init instanceof PlainHeaders) {
      for (const [name, list] of init.map) this.map.set(name, [...list]);
    } else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value);
    } else if (typeof (init as { forEach?: unknown }).forEach === 'function') {
      (init as { forEach(each: (value: string, name: string) => void): void }).forEach((value, name) =>
        this.append(name, value),
      );
    } else {
      for (const [name, value] of Object.entries(init as Record<string, unknown>)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) this.append(name, String(one));
      }
    }
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const list = this.map.get(key);
    if (list) list.push(String(value));
    else this.map.set(key, [String(value)]);
  }

  set(name: string, value: string): void {
    this.map.set(checkedName(name), [String(value)]);
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase())?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.map.get('set-cookie') ?? [])];
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }

  forEach(each: (value: string, name: string, headers: PlainHeaders) => void): void {
    for (const [name, value] of this.entries()) each(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.map.keys()].sort()) yield [name, this.get(name) ?? ''];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A header name as HTTP allows it (a token); anything else would be a request-splitting hole. */
function checkedName(name: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new TypeError(`Invalid header name: ${name}`);
  return name.toLowerCase();
}
