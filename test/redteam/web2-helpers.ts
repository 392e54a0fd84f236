/**
 * Shared set-up for the second web red-team pass: live servers on 127.0.0.1 only, a "public" name
 * that the test-only allowAddress predicate lets through for 127.0.0.1, and tool contexts whose
 * temp projects are removed afterwards.
 */
import { afterEach } from 'vitest';
import { createWebFetchTool, type WebFetchEffects } from '../../src/tools/web/web-fetch';
import type { Resolver } from '../../src/tools/web/web-http';
import type { ToolContext } from '../../src/tools/types';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';
import { type LocalServer, startServer } from '../tools/web/helpers';

const servers: LocalServer[] = [];
const contexts: TestToolContext[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const c of contexts.splice(0)) c.cleanup();
});

/** A server on 127.0.0.1, closed after the test. */
export async function serve(handler?: Parameters<typeof startServer>[0]): Promise<LocalServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

/** A tool context on a temp project, removed after the test. */
export function ctx(signal?: AbortSignal): ToolContext {
  const made = makeToolContext({ prefix: 'warden-web2-', ...(signal ? { signal } : {}) });
  contexts.push(made);
  return made.ctx;
}

/** A resolver over a fixed table that records every name it was asked; unknown names fail. */
export function table(map: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const found = map[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { asked });
}

/** web_fetch where `public.test` at 127.0.0.1 plays a public host; nothing else is let through. */
export function fetchTool(lookup: Resolver, extra: WebFetchEffects = {}) {
  return createWebFetchTool({
    lookup,
    allowAddress: (host, address) => host === 'public.test' && address === '127.0.0.1',
    rateLimit: { max: 10_000, windowMs: 60_000 },
    ...extra,
  });
}
