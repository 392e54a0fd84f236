/** What web_fetch does with a body, decided from its content type (or, when absent, its bytes). */
export type ContentKind = 'html' | 'text' | 'binary';

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/graphql',
  'application/sql',
  'application/x-www-form-urlencoded',
  'application/x-ndjson',
]);

/** The media type without parameters, lowercased; undefined when the header is absent or empty. */
export function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

/** html, text, or binary from the Content-Type header; undefined when the header says nothing. */
export function classifyContentType(contentType: string | undefined): ContentKind | undefined {
  const type = mediaType(contentType);
  if (!type) return undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/')) return 'text';
  if (TEXT_APPLICATION_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
  // application/octet-stream is often mislabelled text; the bytes decide.
  if (type === 'application/octet-stream') return undefined;
  return 'binary';
}

/** Guesses from the first bytes when no useful Content-Type came: NUL bytes mean binary. */
export function sniffContent(body: Buffer): ContentKind {
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  const text = head.toString('utf8').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) return 'html';
  return 'text';
}

/** Decodes with the declared charset (or a BOM, or a <meta charset>), falling back to UTF-8. */
export function decodeBody(body: Buffer, contentType: string | undefined, kind: ContentKind): string {
  const label = charsetOf(contentType) ?? (kind === 'html' ? metaCharset(body) : undefined) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/charset\s*=\s*"?([^";\s]+)"?/i);
  return match?.[1];
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  return head.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1];
}

/**
 * Cuts text to `max` characters at a line break when one is near, and says what was cut.
 * Contract: the note states how many characters the model did not see.
 */
export function capText(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const lineEnd = text.lastIndexOf('\n', max);
  const end = lineEnd > max * 0.8 ? lineEnd : max;
  return { text: text.slice(0, end), cut: text.length - end };
}
