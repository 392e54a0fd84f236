import { sanitizeText } from '../text/sanitize';
import { type ProxyEnv, proxyFor } from './http/proxy-env';

/** Where the OpenAI client sends requests when no base URL is configured. */
const DEFAULT_HOST = 'api.openai.com';

/**
 * The host (and port) of a model endpoint, for the start banner: never the user name or password a
 * URL may carry (`https://user:key@host`), nor its path or query, where keys sometimes hide.
 * Contract: never throws; an unparsable URL reads "(unparsable endpoint URL)".
 */
export function endpointHost(baseUrl: string | undefined): string {
  if (!baseUrl) return DEFAULT_HOST;
  try {
    return sanitizeText(new URL(baseUrl).host) || '(no host)';
  } catch {
    return '(unparsable endpoint URL)';
  }
}

/**
 * The endpoint's host as the banner shows it, with the proxy its requests go through (never the
 * proxy's credentials): `api.example.com via proxy 10.0.0.1:3128 (HTTPS_PROXY)`, or what is wrong
 * with a proxy variable. Contract: never throws.
 */
export function endpointLine(baseUrl: string | undefined, env: ProxyEnv): string {
  const host = endpointHost(baseUrl);
  let url: URL;
  try {
    url = new URL(baseUrl ?? `https://${DEFAULT_HOST}/v1`);
  } catch {
    return host;
  }
  const route = proxyFor(url, env);
  if (!route) return host;
  if ('error' in route) return `${host} (${sanitizeText(route.error)})`;
  return `${host} via proxy ${sanitizeText(route.shown)} (${route.from})`;
}
