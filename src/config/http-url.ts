/**
 * The check `z.url({ protocol: /^https?$/ })` (the config's `baseUrl`) makes, without zod, for
 * OPENAI_BASE_URL at start-up (zod loads on first use). Same steps as zod 4's URL check:
 * trimmed; `http://` or `https://` spelt out (so `http:example.com` is refused); parsed by WHATWG
 * URL; scheme http or https. Contract: accepts exactly what that schema accepts (a test compares
 * them on a corpus).
 */
export function isHttpUrl(text: string): boolean {
  const trimmed = text.trim();
  if (!/^https?:\/\//i.test(trimmed)) return false;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return false;
  }
  return /^https?$/.test(url.protocol.endsWith(':') ? url.protocol.slice(0, -1) : url.protocol);
}
