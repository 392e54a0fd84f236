import { showUrl } from '../../text/url-host';
import { lazySchema } from '../../lazy-zod';
import { checkUrl, normalizeHostname } from '../../policy/guards/ssrf-guard';
import { defineTool, type ToolDefinition, type ToolOutput } from '../types';
import { capText, classifyContentType, decodeBody, mediaType, sniffContent } from './web-content';
import { type FetchedResponse, guardedFetch, type Resolver } from './web-http';
import { createRateLimiter } from './web-rate-limit';
import { formatBytes } from '../../text/bytes';

/** Injected effects and limits for web_fetch; every field has a safe default. */
export type WebFetchEffects = {
  /** Resolves a name to all its addresses (default: dns.promises.lookup with all: true). */
  lookup?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  maxOutputChars?: number;
  rateLimit?: { max: number; windowMs: number };
  now?: () => number;
  userAgent?: string;
  /**
   * TEST ONLY. Lets an address the SSRF guard refuses through for one resolved host name, so a
   * test can stand up a "public" server on 127.0.0.1. Never set outside tests; the default refuses.
   */
  allowAddress?: (hostname: string, address: string) => boolean;
};

export const WEB_FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  maxOutputChars: 8_000,
  rateLimit: { max: 30, windowMs: 60_000 },
} as const;

export const webFetchSchema = lazySchema((z) =>
  z.object({
    url: z.string().min(1).max(8_192),
  }),
);

const ACCEPT =
  'text/html, application/xhtml+xml, text/markdown;q=0.9, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1';

/**
 * web_fetch: reads one public web page as markdown (HTML) or as is (other text).
 * Contract: never throws; SSRF refusals, limits, timeouts and HTTP errors come back as `ok: false`.
 */
export function createWebFetchTool(effects: WebFetchEffects = {}): ToolDefinition<typeof webFetchSchema> {
  const limits = { ...WEB_FETCH_DEFAULTS, ...stripUndefined(effects) };
  const lookup = effects.lookup ?? defaultLookup;
  const limiter = createRateLimiter(limits.rateLimit.max, limits.rateLimit.windowMs, effects.now);
  const headers = {
    'user-agent': effects.userAgent ?? 'warden (terminal coding agent)',
    accept: ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  return defineTool({
    name: 'web_fetch',
    // The host the lookup really uses, and a warning when it only looks like another.
    summary: (args) => showUrl(args.url),
    description: `Fetch a public http(s) URL as markdown or text (up to ${limits.maxOutputChars} characters).`,
    schema: webFetchSchema,
    kind: 'network',
    hookAlias: { name: 'WebFetch' },
    guarded: { url: 'url' },
    async execute(args, ctx): Promise<ToolOutput> {
      // A URL refused on sight costs no network, so it costs no slot either.
      const first = checkUrl(args.url);
      if (!first.ok) return blocked(first.ruleId, first.reason);
      const slot = limiter.take();
      if (!slot.ok) {
        const seconds = Math.ceil(slot.retryAfterMs / 1000);
        return {
          ok: false,
          error: `Rate limit: web_fetch allows ${limits.rateLimit.max} requests per ${limits.rateLimit.windowMs / 1000} s; try again in ${seconds} s.`,
        };
      }
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new Error(`web_fetch timed out after ${limits.timeoutMs / 1000} s.`)),
        limits.timeoutMs,
      );
      const onCancel = () => controller.abort(new Error('web_fetch was cancelled.'));
      if (ctx.signal.aborted) onCancel();
      ctx.signal.addEventListener('abort', onCancel, { once: true });
      try {
        const result = await guardedFetch(args.url, {
          lookup,
          allowAddress: effects.allowAddress,
          maxRedirects: limits.maxRedirects,
          maxBytes: limits.maxBytes,
          signal: controller.signal,
          headers,
          inspect: (contentType, h) =>
            classifyContentType(contentType) === 'binary'
              ? binaryRefusal(contentType, h['content-length'])
              : undefined,
        });
        if (result.kind === 'blocked') return blocked(result.ruleId, result.reason);
        if (result.kind === 'error') return { ok: false, error: result.error };
        return render(result.response, limits.maxOutputChars, limits.maxBytes);
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onCancel);
      }
    },
  });
}

/**
 * The domain a policy rule for web_fetch matches: the URL's hostname, lowercased, without a
 * trailing dot. Contract: never throws; '' when the arguments hold no parseable URL.
 */
export function webFetchDomain(args: unknown): string {
  const url = typeof args === 'object' && args !== null ? (args as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return '';
  try {
    return normalizeHostname(new URL(url).hostname);
  } catch {
    return '';
  }
}

async function render(response: FetchedResponse, maxChars: number, maxBytes: number): Promise<ToolOutput> {
  const { url, status, statusText, contentType, body } = response;
  const kind = classifyContentType(contentType) ?? sniffContent(body);
  if (kind === 'binary')
    return { ok: false, error: binaryRefusal(contentType ?? 'unlabelled binary data', String(body.length)) };
  const text = decodeBody(body, contentType, kind);
  // The HTML stack (a DOM, Readability, Turndown) is loaded on first use: it is most of the bundle.
  const page =
    kind === 'html'
      ? (await import('./web-markdown')).htmlToMarkdown(text, url.href)
      : { title: undefined, markdown: text };
  if (status >= 400) {
    const excerpt = capText(page.markdown.trim(), 500).text;
    return {
      ok: false,
      error: `HTTP ${status} ${statusText} from ${url.href}${excerpt ? `\n\n${excerpt}` : ''}`,
      data: { status },
    };
  }
  const head = [
    page.title ? `# ${page.title}` : undefined,
    `URL: ${url.href}${response.redirects.length > 0 ? ` (redirected from ${response.redirects[0]})` : ''}`,
    `Content-Type: ${mediaType(contentType) ?? 'unknown'}`,
  ].filter((line): line is string => line !== undefined);
  const capped = capText(page.markdown, maxChars);
  const notes: string[] = [];
  if (capped.cut > 0) notes.push(`[Cut: ${capped.cut} more characters not shown.]`);
  if (response.truncated)
    notes.push(`[Stopped reading at ${formatBytes(maxBytes)}; the rest of the response was not fetched.]`);
  const output = [head.join('\n'), capped.text, ...notes].join('\n\n');
  return {
    ok: true,
    output,
    data: {
      url: url.href,
      status,
      contentType: mediaType(contentType),
      redirects: response.redirects,
      cutChars: capped.cut,
      truncatedBody: response.truncated,
    },
  };
}

function blocked(ruleId: string, reason: string): ToolOutput {
  return {
    ok: false,
    error: `Blocked by the SSRF guard (${ruleId}): ${reason}`,
    data: { blocked: true, ruleId },
  };
}

function binaryRefusal(contentType: string | undefined, length: string | string[] | undefined): string {
  const size = typeof length === 'string' && /^\d+$/.test(length) ? `, ${formatBytes(Number(length))}` : '';
  return `Refused: the response is binary (${mediaType(contentType) ?? contentType}${size}); web_fetch reads only HTML and text.`;
}

const defaultLookup: Resolver = async (hostname) => {
  // node:dns loads with the first fetch, not on the way to the first screen.
  const { lookup } = await import('node:dns/promises');
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
