import { lazySchema } from '../../lazy-zod';
import type { SearchProvider, SearchResult } from './search-provider';

/** Where a SearXNG-compatible instance lives and how to talk to it. */
export type SearxngOptions = {
  /** Base URL of the instance, e.g. http://127.0.0.1:8888 (a path prefix is kept). */
  url: string;
  headers?: Record<string, string>;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
};

const responseSchema = lazySchema((z) =>
  z.object({
    results: z
      .array(z.object({ url: z.unknown(), title: z.unknown(), content: z.unknown() }).partial())
      .default([]),
  }),
);

/**
 * A provider for SearXNG's JSON API (`GET {url}/search?q=…&format=json`).
 * The URL is the user's own configuration, so it may sit on a private network: the SSRF guard
 * deliberately does not apply to it (it guards URLs the model chooses, not ones the user typed).
 * Contract: `search` rejects with a one-line message on HTTP errors and malformed answers.
 */
export function createSearxngProvider(options: SearxngOptions): SearchProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.url.endsWith('/') ? options.url : `${options.url}/`;
  return {
    name: 'searxng',
    async search(query, signal): Promise<SearchResult[]> {
      const endpoint = new URL('search', base);
      endpoint.searchParams.set('q', query);
      endpoint.searchParams.set('format', 'json');
      const res = await doFetch(endpoint, {
        headers: { accept: 'application/json', ...options.headers },
        signal,
      });
      if (res.status === 403) {
        throw new Error(
          'SearXNG refused the JSON format (HTTP 403): add "json" to search.formats in its settings.yml.',
        );
      }
      if (!res.ok) throw new Error(`SearXNG answered HTTP ${res.status} ${res.statusText}.`);
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        throw new Error('SearXNG did not answer with JSON.');
      }
      const parsed = responseSchema.safeParse(body);
      if (!parsed.success) throw new Error('SearXNG answered JSON without a results list.');
      return parsed.data.results.flatMap((r) => {
        const url = typeof r.url === 'string' ? r.url : '';
        if (!/^https?:\/\//i.test(url)) return [];
        return [{ url, title: asText(r.title) || url, snippet: asText(r.content) }];
      });
    },
  };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}
