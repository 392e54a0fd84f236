import { sanitizeText } from '../text/sanitize';

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
