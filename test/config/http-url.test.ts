import { describe, expect, it } from 'vitest';
import { isHttpUrl } from '../../src/config/http-url';
import { ConfigFileSchema } from '../../src/config/schema';

// OPENAI_BASE_URL is checked at start-up without zod (issue 16); the config file's baseUrl with zod.
// Both must accept exactly the same strings.
const CORPUS = [
  'http://127.0.0.1:9/v1',
  'https://api.openai.com/v1',
  'HTTPS://API.EXAMPLE.COM',
  '  https://padded.example/v1  ',
  'https://[::1]:8080/v1',
  'http://user:pass@host/x',
  'https://host/path?q=1#frag',
  'http:example.com',
  'https:/path',
  'http:/',
  'http://',
  'https://',
  'ftp://example.com',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'not a url',
  '',
  ' ',
  'example.com',
  '//example.com',
  'http://exa mple.com',
  'http://example.com:99999',
  'http://\texample.com',
  'https://例え.jp/v1',
  'httpx://example.com',
  'http2://example.com',
  'http://%zz',
  'http://[::1',
];

describe('isHttpUrl (OPENAI_BASE_URL at start-up)', () => {
  it.each(CORPUS)('agrees with the config schema on %j', (text) => {
    const byZod = ConfigFileSchema.shape.baseUrl.safeParse(text).success;
    expect(isHttpUrl(text)).toBe(byZod);
  });

  it('the corpus holds both answers', () => {
    const answers = new Set(CORPUS.map(isHttpUrl));
    expect(answers).toEqual(new Set([true, false]));
  });
});
