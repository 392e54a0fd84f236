/**
 * Which proxy a model request goes through, from the environment as curl and most tools read it:
 * `https_proxy` / `HTTPS_PROXY` for https:// endpoints, `http_proxy` / `HTTP_PROXY` for http:// ones
 * (the lower-case name wins when both are set), and `no_proxy` / `NO_PROXY` for the hosts that go
 * direct: `*`, a host (`localhost`), a domain and its subdomains (`example.com`, `.example.com`,
 * `*.example.com`), a host with a port (`host:8080`), an IP address or a CIDR range (`10.0.0.0/8`).
 * A proxy is spoken to in plain HTTP (`http://[user:password@]host:port`); for an https:// endpoint
 * the request is tunnelled through it with CONNECT, so TLS still runs end to end.
 */
import { ipaddrLib } from '../../policy/guards/ipaddr-lib';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** The proxy for one request: its URL, the variable it came from, and its address without credentials. */
export type ProxyRoute = { url: URL; from: string; shown: string };

/** The first set variable of `names`, trimmed. */
function first(env: ProxyEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/**
 * The proxy a request to `target` takes, undefined when it goes direct, or an error for a proxy
 * variable warden cannot use (another scheme than http://, no host). Contract: never throws.
 */
export function proxyFor(target: URL, env: ProxyEnv): ProxyRoute | { error: string } | undefined {
  const names = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const set = first(env, names);
  if (!set) return undefined;
  const bypass = first(env, ['no_proxy', 'NO_PROXY']);
  if (bypass && bypassed(target, bypass.value)) return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(set.value) ? set.value : `http://${set.value}`);
  } catch {
    return { error: `${set.name} is not a proxy address (http://host:port)` };
  }
  if (url.protocol !== 'http:')
    return {
      error: `${set.name} names a ${url.protocol.replace(/:$/, '')}:// proxy; warden speaks plain HTTP to a proxy (http://host:port), tunnelling https through it`,
    };
  if (!url.hostname) return { error: `${set.name} names no proxy host` };
  return { url, from: set.name, shown: `${url.hostname}:${url.port || '80'}` };
}

/** Whether `target` is one of the hosts `noProxy` sends direct. */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1] ?? '';
      entryPort = bracketed[2];
    } else {
      const colon = /^([^:]+):(\d+)$/.exec(entry);
      if (colon) {
        entry = colon[1] ?? '';
        entryPort = colon[2];
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    if (entry.includes('/')) {
      if (inRange(host, entry)) return true;
      continue;
    }
    entry = entry.replace(/^\*?\./, '').replace(/\.$/, '');
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

function inRange(host: string, cidr: string): boolean {
  try {
    const ipaddr = ipaddrLib();
    if (!ipaddr.isValid(host)) return false;
    const [range, bits] = ipaddr.parseCIDR(cidr);
    const address = ipaddr.process(host);
    return address.kind() === range.kind() && address.match(range, bits);
  } catch {
    return false;
  }
}
