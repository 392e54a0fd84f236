/**
 * The hosts a sandboxed command may reach through warden's proxy (src/tools/exec/network/): the
 * entries a card or the person's `sandbox.network` names, and whether a host a command asks the
 * proxy for is one of them. Pure; the proxy, the tool's schema, the facts and the config all use it,
 * so an entry means the same thing everywhere.
 *
 * An entry is a host name (`registry.npmjs.org`), a wildcard (`*.github.com`: the name and every
 * name under it, as web_fetch's domain rules read it) or an IP address (`127.0.0.1`, `[::1]`), each
 * with an optional port (`example.com:8443`). Without a port an entry covers 80 and 443 only: a
 * domain approved for its web traffic opens nothing else on that host.
 * A name is always resolved and refused when any address is not public (the SSRF guard's rule); only
 * an address the person named themselves is reached as it is, loopback or private included — so no
 * host service is reachable unless a card (or the person's own config) names its address and port.
 */
import { domainToASCII } from 'node:url';
import { ipaddrLib } from './guards/ipaddr-lib';

/** The ports an entry without one covers. */
export const DEFAULT_PORTS: readonly number[] = [80, 443];
/** Entries a call or a config may name. */
export const MAX_NETWORK_ENTRIES = 32;

export type NetworkEntry = {
  /** The entry as it is shown and compared: lowercase ASCII (punycode), `*.` for a wildcard, `:port`. */
  text: string;
  kind: 'name' | 'wildcard' | 'address';
  /** The name (without `*.`), or the address in its canonical form (IPv6 without brackets). */
  host: string;
  port?: number;
};

export type EntryVerdict = { ok: true; entry: NetworkEntry } | { ok: false; error: string };

/** A host a command asked the proxy for, in the form entries are compared with. */
export type RequestHost = { kind: 'name' | 'address'; host: string };

/**
 * Reads one entry. Contract: never throws; a malformed entry, `localhost`, a bare `*` or a top-level
 * wildcard (`*.com`), an unreachable address (unspecified, broadcast, multicast) are errors.
 */
export function parseNetworkEntry(input: string): EntryVerdict {
  const text = input.trim();
  if (text === '' || text.length > 300) return bad(input, 'expected a host name, *.domain or an IP address');
  if (/[/@?#\s\\]/.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    return bad(input, 'name the host only (registry.npmjs.org), not a URL');
  const split = splitPort(text);
  if (!split.ok) return bad(input, split.error);
  const { host: rawHost, port } = split;
  if (port !== undefined && !(/^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535))
    return bad(input, 'expected a port from 1 to 65535 after the colon');
  const wildcard = rawHost.startsWith('*.');
  const address = wildcard ? undefined : addressOf(rawHost);
  if (address !== undefined) {
    const range = ipaddrLib().parse(address).range();
    if (range === 'unspecified' || range === 'broadcast' || range === 'multicast')
      return bad(input, `${address} is ${range === 'unspecified' ? 'no host' : `a ${range} address`}`);
    const shown = address.includes(':') ? `[${address}]` : address;
    return ok({ text: withPort(shown, port), kind: 'address', host: address, ...portOf(port) });
  }
  const name = asciiName(wildcard ? rawHost.slice(2) : rawHost);
  if (name === undefined) return bad(input, 'expected a host name, *.domain or an IP address');
  if (name === 'localhost' || name.endsWith('.localhost'))
    return bad(input, 'localhost always means this machine; name its address and port (127.0.0.1:8080)');
  if (wildcard && name.split('.').length < 2)
    return bad(input, `*.${name} would cover a whole top-level domain; name the domain (*.example.com)`);
  const shown = wildcard ? `*.${name}` : name;
  return ok({
    text: withPort(shown, port),
    kind: wildcard ? 'wildcard' : 'name',
    host: name,
    ...portOf(port),
  });
}

/**
 * Reads a host as a command gave it to the proxy (a CONNECT target's host, a URL's hostname): an
 * address in its canonical form (legacy IPv4 spellings and IPv4-mapped IPv6 become dotted IPv4), or a
 * lowercase ASCII name. Contract: never throws; undefined for what is neither.
 */
export function requestHost(input: string): RequestHost | undefined {
  const address = addressOf(input);
  if (address !== undefined) return { kind: 'address', host: address };
  const name = asciiName(input);
  return name === undefined ? undefined : { kind: 'name', host: name };
}

/**
 * A CONNECT request's target (`host:port`, `[v6]:port`): its host and port, or undefined when it is
 * not one (no port, a port out of range, no host). Contract: never throws.
 */
export function connectTarget(authority: string): { host: RequestHost; port: number } | undefined {
  if (authority.length > 300) return undefined;
  const split = splitPort(authority);
  if (!split.ok || split.port === undefined || !/^[0-9]{1,5}$/.test(split.port)) return undefined;
  const port = Number(split.port);
  if (port < 1 || port > 65535) return undefined;
  const host = requestHost(split.host);
  return host ? { host, port } : undefined;
}

/**
 * The entry that covers `host` on `port`, if any: a name entry only covers that very name, a
 * wildcard the name and every name under it, an address entry only that address (never a name that
 * resolves to it, and a name entry never an address). Contract: pure.
 */
export function matchingEntry(
  entries: readonly NetworkEntry[],
  host: RequestHost,
  port: number,
): NetworkEntry | undefined {
  for (const entry of entries) {
    if (!(entry.port === undefined ? DEFAULT_PORTS.includes(port) : entry.port === port)) continue;
    if (host.kind === 'address') {
      if (entry.kind === 'address' && entry.host === host.host) return entry;
      continue;
    }
    if (entry.kind === 'name' && entry.host === host.host) return entry;
    if (entry.kind === 'wildcard' && (host.host === entry.host || host.host.endsWith(`.${entry.host}`)))
      return entry;
  }
  return undefined;
}

/**
 * The entries of `texts` (each already valid: the schema checked it), deduplicated.
 * Contract: never throws; an entry that does not parse is left out.
 */
export function networkEntries(texts: readonly string[]): NetworkEntry[] {
  const out: NetworkEntry[] = [];
  for (const text of texts) {
    const v = parseNetworkEntry(text);
    if (v.ok && !out.some((e) => e.text === v.entry.text)) out.push(v.entry);
  }
  return out;
}

/** Whether every entry of `wanted` is one of `allowed` (as written: `*.github.com` covers `*.github.com`, not `api.github.com`). */
export function coveredEntries(
  wanted: readonly NetworkEntry[],
  allowed: readonly NetworkEntry[],
): { covered: NetworkEntry[]; unlisted: NetworkEntry[] } {
  const covered: NetworkEntry[] = [];
  const unlisted: NetworkEntry[] = [];
  for (const entry of wanted) {
    const hit = allowed.some((a) => a.text === entry.text || coversEntry(a, entry));
    (hit ? covered : unlisted).push(entry);
  }
  return { covered, unlisted };
}

/** An allowed entry that covers every connection another could: the same ports, and its hosts. */
function coversEntry(allowed: NetworkEntry, entry: NetworkEntry): boolean {
  const ports = allowed.port === undefined ? DEFAULT_PORTS : [allowed.port];
  const wanted = entry.port === undefined ? DEFAULT_PORTS : [entry.port];
  if (!wanted.every((p) => ports.includes(p))) return false;
  if (entry.kind === 'address') return allowed.kind === 'address' && allowed.host === entry.host;
  if (allowed.kind === 'name') return entry.kind === 'name' && entry.host === allowed.host;
  if (allowed.kind !== 'wildcard') return false;
  return entry.host === allowed.host || entry.host.endsWith(`.${allowed.host}`);
}

/**
 * What the card says about an address entry a person must not approve unawares: this machine's
 * own services, a private network, the cloud's metadata service. Undefined for a name (the proxy
 * refuses any name that resolves to such an address) and for a public address.
 */
export function entryWarning(entry: NetworkEntry): string | undefined {
  if (entry.kind !== 'address') return undefined;
  const range = ipaddrLib().parse(entry.host).range();
  if (range === 'loopback') return 'this machine: a service running here';
  if (range === 'linkLocal')
    return entry.host === '169.254.169.254'
      ? 'the cloud metadata service (instance credentials)'
      : 'a link-local address';
  if (range === 'unicast') return undefined;
  return 'a private-network address';
}

function splitPort(text: string): { ok: true; host: string; port?: string } | { ok: false; error: string } {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return { ok: false, error: 'an IPv6 address in brackets needs its ]' };
    const rest = text.slice(close + 1);
    if (rest === '') return { ok: true, host: text.slice(1, close) };
    if (!rest.startsWith(':')) return { ok: false, error: 'expected :port after the ]' };
    return { ok: true, host: text.slice(1, close), port: rest.slice(1) };
  }
  // A bare IPv6 address has several colons and no port.
  const colons = text.split(':').length - 1;
  if (colons !== 1) return { ok: true, host: text };
  const at = text.lastIndexOf(':');
  return { ok: true, host: text.slice(0, at), port: text.slice(at + 1) };
}

function portOf(port: string | undefined): { port?: number } {
  return port === undefined ? {} : { port: Number(port) };
}

function withPort(host: string, port: string | undefined): string {
  return port === undefined ? host : `${host}:${Number(port)}`;
}

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4), or undefined for anything else. */
function addressOf(input: string): string | undefined {
  const text = input.replace(/^\[(.*)\]$/, '$1');
  const lib = ipaddrLib();
  if (text.includes(':')) {
    if (!lib.IPv6.isValid(text)) return undefined;
    const parsed = lib.IPv6.parse(text);
    return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : parsed.toString();
  }
  // WHATWG reads the legacy spellings (0x7f.1, 2130706433) as a browser or curl would.
  if (!/^[0-9a-fx.]+$/i.test(text)) return undefined;
  try {
    const host = new URL(`http://${text}/`).hostname;
    return lib.IPv4.isValidFourPartDecimal(host) ? lib.IPv4.parse(host).toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A host name as lowercase ASCII (punycode) without a trailing dot, or undefined when it is none. */
function asciiName(input: string): string | undefined {
  let name = input.toLowerCase();
  while (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name.length > 253) return undefined;
  const ascii = /^[a-z0-9._-]+$/.test(name) ? name : domainToASCII(name);
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (!labels.every((l) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l))) return undefined;
  // All digits and dots is an address spelling, not a name (checked above as one).
  if (labels.every((l) => /^[0-9]+$/.test(l))) return undefined;
  return ascii;
}

function ok(entry: NetworkEntry): EntryVerdict {
  return { ok: true, entry };
}

function bad(input: string, why: string): EntryVerdict {
  const shown = input.length > 80 ? `${input.slice(0, 80)}…` : input;
  return { ok: false, error: `${JSON.stringify(shown)}: ${why}` };
}
