// The search backend contract, apart from web-search.ts so a provider (web-searxng.ts) does not
// import the tool that uses it.

/** One search hit as the model reads it. */
export type SearchResult = { title: string; url: string; snippet: string };

/** A web search backend. Contract: rejects with a one-line message; honours `signal`. */
export type SearchProvider = {
  name: string;
  search(query: string, signal: AbortSignal): Promise<SearchResult[]>;
};
