/**
 * The guarded HTTP client behind web_fetch: every hop is checked by the SSRF guard, the name is
 * resolved once, every address is checked, and the socket connects to the address that was
 * checked (a custom `lookup`), so DNS rebinding between check and connect cannot happen.
 */
import type http from 'node:http';
import { createRequire } from 'node:module';
import { isIP, type LookupFunction } from 'node:net';
import { checkAddress, checkUrl, normalizeHostname } from '../../policy/guards/ssrf-guard';
import { readCapped } from './web-body';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type GuardedFetchOptions = {
  lookup: Resolver;
  /** Test-only escape hatch: lets a refused address through for one host name. */
  allowAddress?: (hostname: string, address: string) => boolean;
  maxRedirects: number;
  maxBytes: number;
  signal: AbortSignal;
  headers: Record<string, string>;
  /** Looks at the final response's headers; a returned message refuses the body unread. */
  inspect?: (contentType: string | undefined, headers: http.IncomingHttpHeaders) => string | undefined;
};

export type FetchedResponse = {
  url: URL;
  status: number;
  statusText: string;
  contentType: string | undefined;
  body: Buffer;
  /** True when reading stopped at `maxBytes`. */
  truncated: boolean;
  /** Every URL before the final one, in order. */
  redirects: string[];
};

export type GuardedFetchResult =
  | { kind: 'ok'; response: FetchedResponse }
  | { kind: 'blocked'; ruleId: string; reason: string }
  | { kind: 'error'; error: string };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a URL, following redirects by hand and checking each hop.
 * Contract: never throws; refusals come back as `blocked` with the guard's rule, failures as `error`.
 */
export async function guardedFetch(input: string, options: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const redirects: string[] = [];
  let target = input;
  for (;;) {
    const verdict = checkUrl(target);
    if (!verdict.ok) return { kind: 'blocked', ruleId: verdict.ruleId, reason: verdict.reason };
    const url = verdict.url;
    const resolved = await resolveChecked(url, options);
    if (resolved.kind !== 'ok') return resolved;
    const hop = await requestOnce(url, resolved.address, options);
    if (hop.kind !== 'response') return hop;
    const { res } = hop;
    const location = res.headers.location;
    if (REDIRECT_STATUSES.has(res.statusCode ?? 0) && location) {
      res.resume();
      if (redirects.length >= options.maxRedirects) {
        return {
          kind: 'error',
          error: `Too many redirects (limit ${options.maxRedirects}); the last one pointed to ${location}.`,
        };
      }
      redirects.push(url.href);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { kind: 'error', error: `The server redirected to an invalid location: ${location}` };
      }
      // The policy judged the first host only (domain rules); another host needs its own call.
      if (next.hostname !== url.hostname) {
        const verdict = checkUrl(next.href);
        if (!verdict.ok) return { kind: 'blocked', ruleId: verdict.ruleId, reason: verdict.reason };
        const checked = await resolveChecked(verdict.url, options);
        if (checked.kind !== 'ok') return checked;
        return {
          kind: 'error',
          error: `The page redirected to another host: ${next.href}. Call web_fetch with that URL if you need it, so the policy can judge that host.`,
        };
      }
      target = next.href;
      continue;
    }
    return readResponse(url, res, redirects, options);
  }
}

async function readResponse(
  url: URL,
  res: http.IncomingMessage,
  redirects: string[],
  options: GuardedFetchOptions,
): Promise<GuardedFetchResult> {
  const contentType = res.headers['content-type'];
  const refusal = options.inspect?.(contentType, res.headers);
  if (refusal) {
    res.destroy();
    return { kind: 'error', error: refusal };
  }
  try {
    const { body, truncated } = await readCapped(res, options.maxBytes, options.signal);
    const response = {
      url,
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      contentType,
      body,
      truncated,
      redirects,
    };
    return { kind: 'ok', response };
  } catch (err) {
    return { kind: 'error', error: describeError(err, options.signal) };
  }
}

type Checked =
  | { kind: 'ok'; address: ResolvedAddress }
  | { kind: 'blocked'; ruleId: string; reason: string }
  | { kind: 'error'; error: string };

/** Resolves once and checks every address; one refused address refuses the name. */
async function resolveChecked(url: URL, options: GuardedFetchOptions): Promise<Checked> {
  const host = normalizeHostname(url.hostname);
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    // checkUrl has already refused any literal that is not public; this only re-reads it.
    const direct = checkAddress(literal);
    if (!direct.ok) return { kind: 'blocked', ruleId: direct.ruleId, reason: direct.reason };
    return { kind: 'ok', address: { address: direct.address, family: direct.family } };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await abortable(options.lookup(host), options.signal);
  } catch (err) {
    return { kind: 'error', error: `Could not resolve ${host}: ${describeError(err, options.signal)}` };
  }
  if (addresses.length === 0) return { kind: 'error', error: `${host} has no addresses.` };
  for (const { address } of addresses) {
    const verdict = checkAddress(address);
    if (!verdict.ok && !options.allowAddress?.(host, address)) {
      return { kind: 'blocked', ruleId: verdict.ruleId, reason: `${host} resolves to ${verdict.reason}` };
    }
  }
  const first = addresses[0] as ResolvedAddress;
  return { kind: 'ok', address: first };
}

type Hop = { kind: 'response'; res: http.IncomingMessage } | { kind: 'error'; error: string };

function requestOnce(url: URL, pinned: ResolvedAddress, options: GuardedFetchOptions): Promise<Hop> {
  // Hands the socket the checked address; Host and SNI stay the name from the URL.
  const lookup = ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
  // node:http and node:https (TLS: ~15 ms) load with the first web request, not at start-up.
  const load = createRequire(import.meta.url);
  const client = (url.protocol === 'https:' ? load('node:https') : load('node:http')) as typeof http;
  return new Promise((resolve) => {
    const req = client.request(url, {
      method: 'GET',
      headers: options.headers,
      lookup,
      signal: options.signal,
      agent: false,
    });
    req.on('response', (res) => resolve({ kind: 'response', res }));
    req.on('error', (err) =>
      resolve({ kind: 'error', error: `${url.host}: ${describeError(err, options.signal)}` }),
    );
    req.end();
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A one-line description; the abort reason (timeout or cancel) wins over the socket's complaint. */
export function describeError(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof Error ? reason.message : String(reason);
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
