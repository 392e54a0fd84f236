/**
 * Where the proxy connects for a host it allowed: an address entry the person named is reached as
 * it is; a name is resolved once, every address it has must be public unicast (the SSRF guard's
 * rule, as web_fetch applies it), and the connection goes to the address that was checked — so a
 * name that resolves to this machine, a private network or the metadata service is refused, and
 * DNS rebinding between the check and the connect cannot happen.
 */
import type { NetworkEntry, RequestHost } from '../../../policy/network-hosts';
import { checkAddress } from '../../../policy/guards/ssrf-guard';
import type { ResolvedAddress, Resolver } from '../../web/web-http';

export type Dial =
  | { ok: true; address: ResolvedAddress }
  | { ok: false; rule: 'ssrf-address' | 'network-unresolved'; reason: string };

/** How long a name may take to resolve. */
export const RESOLVE_TIMEOUT_MS = 10_000;

/** The address to connect to for `host`, which `entry` allowed. Contract: never rejects. */
export async function dialAddress(
  entry: NetworkEntry,
  host: RequestHost,
  lookup: Resolver,
  timeoutMs = RESOLVE_TIMEOUT_MS,
): Promise<Dial> {
  // Only an address entry matches an address (matchingEntry), and the person named it themselves.
  if (entry.kind === 'address' && host.kind === 'address')
    return { ok: true, address: { address: host.host, family: host.host.includes(':') ? 6 : 4 } };
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout(lookup(host.host), timeoutMs, `${host.host} did not resolve in time`);
  } catch (err) {
    return {
      ok: false,
      rule: 'network-unresolved',
      reason: `${host.host} could not be resolved (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  if (addresses.length === 0)
    return { ok: false, rule: 'network-unresolved', reason: `${host.host} has no addresses` };
  for (const { address } of addresses) {
    const verdict = checkAddress(address);
    if (!verdict.ok)
      return { ok: false, rule: 'ssrf-address', reason: `${host.host} resolves to ${verdict.reason}` };
  }
  return { ok: true, address: addresses[0] as ResolvedAddress };
}

/** The resolver the proxy uses outside tests: every address of the name, in the resolver's order. */
export const systemLookup: Resolver = async (hostname) => {
  const { lookup } = await import('node:dns/promises');
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
