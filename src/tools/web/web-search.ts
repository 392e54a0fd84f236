import { lazySchema } from '../../lazy-zod';
import { type AnyTool, defineTool, type ToolDefinition, type ToolOutput } from '../types';
import { createWebFetchTool, type WebFetchEffects } from './web-fetch';
import type { SearchProvider, SearchResult } from './search-provider';
import { createSearxngProvider, type SearxngOptions } from './web-searxng';

export type { SearchProvider, SearchResult } from './search-provider';

/** How the search provider is configured; absent means web_search is not offered. */
export type WebSearchConfig =
  | ({ kind: 'searxng' } & SearxngOptions)
  | { kind: 'provider'; provider: SearchProvider };

export type WebToolsConfig = { fetch?: WebFetchEffects; search?: WebSearchConfig };

export type WebSearchOptions = { maxResults?: number; timeoutMs?: number; maxSnippetChars?: number };

/** The tool's name, for the session that swaps it when the project's search provider changes. */
export const WEB_SEARCH = 'web_search';

export const webSearchSchema = lazySchema((z) =>
  z.object({
    query: z.string().trim().min(1).max(500).describe('What to search the web for.'),
  }),
);

/**
 * web_search: asks the configured provider and lists titles, URLs and snippets.
 * Contract: never throws; provider failures and timeouts come back as `ok: false`.
 */
export function createWebSearchTool(
  provider: SearchProvider,
  options: WebSearchOptions = {},
): ToolDefinition<typeof webSearchSchema> {
  const maxResults = options.maxResults ?? 10;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxSnippet = options.maxSnippetChars ?? 300;
  return defineTool({
    name: WEB_SEARCH,
    summary: (args) => args.query,
    description: `Search the web (via ${provider.name}) and return up to ${maxResults} results with title, URL and snippet. Use web_fetch to read a result.`,
    schema: webSearchSchema,
    kind: 'network',
    hookAlias: { name: 'WebSearch' },
    async execute(args, ctx): Promise<ToolOutput> {
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
      let results: SearchResult[];
      try {
        results = (await provider.search(args.query, signal)).slice(0, maxResults);
      } catch (err) {
        if (ctx.signal.aborted) return { ok: false, error: 'web_search was cancelled.' };
        if (signal.aborted) return { ok: false, error: `web_search timed out after ${timeoutMs / 1000} s.` };
        return { ok: false, error: `web_search failed: ${err instanceof Error ? err.message : String(err)}` };
      }
      if (results.length === 0)
        return { ok: true, output: `No results for "${args.query}".`, data: { results } };
      const lines = results.map((r, i) => {
        const snippet = r.snippet.length > maxSnippet ? `${r.snippet.slice(0, maxSnippet)}…` : r.snippet;
        return `${i + 1}. ${r.title}\n   ${r.url}${snippet ? `\n   ${snippet}` : ''}`;
      });
      return {
        ok: true,
        output: `Results for "${args.query}" (via ${provider.name}):\n\n${lines.join('\n\n')}`,
        data: { results },
      };
    },
  });
}

/** web_search through the configured provider. */
export function createSearchTool(search: WebSearchConfig): AnyTool {
  return createWebSearchTool(search.kind === 'provider' ? search.provider : createSearxngProvider(search));
}

/** The web tools alone (the session takes them from the registry): web_fetch, and web_search with a provider. */
export function createWebTools(config: WebToolsConfig = {}): AnyTool[] {
  return [createWebFetchTool(config.fetch), ...(config.search ? [createSearchTool(config.search)] : [])];
}
