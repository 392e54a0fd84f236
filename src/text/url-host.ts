/**
 * A URL as a web card shows it: a non-ASCII host in its punycode form, which is what
 * is really looked up, followed by the host as it reads and a warning when its labels mix scripts —
 * `docs.gіthub.com` with a Cyrillic `і` looks like github.com.
 */
import { domainToUnicode } from 'node:url';

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
  'Devanagari',
  'Georgian',
  'Cherokee',
] as const;
const SCRIPT_RE = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);

/** The scripts the letters of `label` belong to, in the order above. */
function scriptsOf(label: string): string[] {
  return SCRIPT_RE.filter(([, re]) => re.test(label)).map(([name]) => name);
}

/** `url` with its host as punycode, plus a note when the host is not plain ASCII. Never throws. */
export function showUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const ascii = parsed.hostname;
  if (!ascii.split('.').some((l) => l.startsWith('xn--'))) return url;
  const unicode = domainToUnicode(ascii);
  const mixed = unicode.split('.').filter((label) => scriptsOf(label).length > 1);
  const note = mixed.length
    ? `mixed scripts in ${mixed.map((l) => `${l} (${scriptsOf(l).join(' + ')})`).join(', ')}: it only looks like an ASCII name`
    : 'a non-ASCII host';
  return `${parsed.href} ⚠ ${unicode}: ${note}`;
}
