/**
 * The SSRF guard: a hard guard for every URL and every resolved address a network tool touches.
 * It allows, rather than blocks: an address passes only when it is plain public unicast, so a
 * range nobody thought of is refused by default.
 */
import type ipaddr from 'ipaddr.js';
import { ipaddrLib } from './ipaddr-lib';

export type SsrfRuleId = 'ssrf-url' | 'ssrf-scheme' | 'ssrf-address';

export type SsrfRefusal = { ok: false; ruleId: SsrfRuleId; reason: string };
export type UrlVerdict = { ok: true; url: URL } | SsrfRefusal;
export type AddressVerdict = { ok: true; address: string; family: 4 | 6 } | SsrfRefusal;

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/**
 * Checks a URL before any name is resolved: scheme, credentials, and host names or literals
 * that can only mean this machine or a private network.
 * Contract: never throws; returns the parsed URL to use (not the input string) when allowed.
 */
export function checkUrl(input: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('ssrf-url', `"${clip(input)}" is not a valid absolute URL.`);
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    return refuse(
      'ssrf-scheme',
      `The ${url.protocol} scheme is not allowed; only http and https URLs can be fetched.`,
    );
  }
  // Credentials leak into logs and hide the real host from a reader (http://trusted.com@10.0.0.1/).
  if (url.username !== '' || url.password !== '') {
    return refuse('ssrf-url', 'URLs with a user name or password are not allowed.');
  }
  const host = normalizeHostname(url.hostname);
  if (host === '') return refuse('ssrf-url', 'The URL has no host.');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return refuse(
      'ssrf-address',
      `${host} always means this machine (RFC 6761), which web tools may not reach.`,
    );
  }
  // WHATWG parsing has already turned 2130706433, 0x7f.1, 0177.0.0.1 … into dotted decimal.
  const literal = hostLiteral(host);
  if (literal !== undefined) {
    const verdict = checkAddress(literal);
    if (!verdict.ok) return verdict;
  }
  return { ok: true, url };
}

/**
 * Checks one IP address (as a resolver returns it, or any legacy IPv4 spelling).
 * Contract: never throws; anything that is not public unicast, or cannot be parsed, is refused.
 */
export function checkAddress(input: string): AddressVerdict {
  const parsed = parseAddress(input);
  if (!parsed) return refuse('ssrf-address', `"${clip(input)}" is not an IP address the guard can check.`);
  const problem = describeRefused(parsed);
  if (problem) return refuse('ssrf-address', `${input} is ${problem}, which web tools may not reach.`);
  return { ok: true, address: parsed.toString(), family: parsed.kind() === 'ipv4' ? 4 : 6 };
}

/** Lowercase, without a trailing dot or IPv6 brackets: the form every comparison uses. */
export function normalizeHostname(hostname: string): string {
  let host = hostname.toLowerCase();
  while (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

/** The address inside a hostname that is an IP literal, or undefined for a name. */
function hostLiteral(host: string): string | undefined {
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return ipaddrLib().IPv4.isValidFourPartDecimal(host) ? host : undefined;
}

function parseAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = input.trim().replace(/^\[(.*)\]$/, '$1');
  const lib = ipaddrLib();
  if (lib.isValid(text)) return lib.parse(text);
  // Short legacy forms (0x7f.1, 127.1) that ipaddr.js does not read: let WHATWG normalise them.
  try {
    const host = new URL(`http://${text}/`).hostname;
    return lib.IPv4.isValidFourPartDecimal(host) ? lib.IPv4.parse(host) : undefined;
  } catch {
    return undefined;
  }
}

/** Why an address is refused, or undefined when it is public unicast. */
function describeRefused(addr: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  if (addr.kind() === 'ipv4') return describeV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedV4(v6, range);
  if (embedded === 'opaque')
    return `an IPv6 address (${range}) whose embedded IPv4 address cannot be located`;
  if (embedded.length > 0) {
    for (const v4 of embedded) {
      const problem = describeV4(v4);
      if (problem) return `an IPv6 address (${range}) embedding ${v4.toString()}, ${problem}`;
    }
    // NAT64/6to4/Teredo to a public IPv4 host is ordinary traffic on IPv6-only networks.
    return undefined;
  }
  if (range !== 'unicast') return `a ${RANGE_NAMES[range] ?? range} address`;
  // ::/8 is reserved; ::a.b.c.d (IPv4-compatible, deprecated) must not reach 127.0.0.1 either.
  if (v6.parts[0] !== undefined && v6.parts[0] < 0x100) return 'a reserved IPv6 address (::/8)';
  return undefined;
}

function describeV4(addr: ipaddr.IPv4): string | undefined {
  const range = addr.range();
  return range === 'unicast' ? undefined : `a ${RANGE_NAMES[range] ?? range} address`;
}

/**
 * The IPv4 addresses an IPv6 address carries (mapped, translated, NAT64, 6to4, Teredo);
 * 'opaque' when it carries one at a position that depends on local configuration.
 */
function embeddedV4(addr: ipaddr.IPv6, range: string): ipaddr.IPv4[] | 'opaque' {
  const p = addr.parts;
  const v4 = (hi: number, lo: number) => new (ipaddrLib().IPv4)([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const at = (i: number) => p[i] ?? 0;
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(at(6), at(7))];
    case 'rfc6052':
      // Only the well-known 64:ff9b::/96 puts the address last; the local-use /48 may put it anywhere.
      return at(2) === 0 && at(3) === 0 && at(4) === 0 && at(5) === 0 ? [v4(at(6), at(7))] : 'opaque';
    case '6to4':
      return [v4(at(1), at(2))];
    case 'teredo':
      // Server in bits 32–63; client in the last 32 bits, inverted.
      return [v4(at(2), at(3)), v4(at(6) ^ 0xffff, at(7) ^ 0xffff)];
    default:
      return [];
  }
}

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private-network',
  reserved: 'reserved',
  uniqueLocal: 'unique-local (private IPv6)',
  deprecatedSiteLocal: 'site-local',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT relay',
  discard: 'discard-only',
  benchmarking: 'benchmarking',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHID',
  droneRemoteIdProtocolEntityTags: 'DRIP',
  segmentRouting: 'segment-routing',
};

function refuse(ruleId: SsrfRuleId, reason: string): SsrfRefusal {
  return { ok: false, ruleId, reason };
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
