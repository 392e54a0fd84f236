/**
 * Values that open with a provider's own marker (`dapi` of Databricks' tokens, `hf_` of Hugging
 * Face's) but that the provider's rule refused, and whose rest is typed along the digits or the
 * alphabet (`DATABRICKS_TOKEN=dapi123456789012345678a9bc01234defg5`: a `g` where Databricks writes
 * only hex). That rule's test writes such a value to fail it; a generated token has the marker and
 * the provider's form, so the rule would have found it. Both guards hold at once: a random value
 * after the marker (a newer format, a typo in a real token) stays a secret under a secret name, and a
 * typed value in the provider's exact form is the rule's finding and hidden (secret-typed.ts says
 * why typed values are no proof alone). Never under a password's name.
 */
import data from './rules/gitleaks.json';
import { currentFindings } from './secret-gitleaks';
import { namesPassword } from './secret-names';
import { isTypedRun } from './secret-typed';

/**
 * A rule whose value group opens with a literal marker (`\b(dapi[a-f0-9]{32}…`, `(?:hf_[a-z]…`)
 * followed by a class, an escape or a group; the marker counts when it is one of the rule's keywords
 * (gitleaks' own word for what the text must hold), which leaves out `sk-` of OpenAI's rule (its
 * keyword is the marker in the middle) and words that only open a name.
 */
const MARKED = /^(?:\\b)?\((?:\?:)?([A-Za-z0-9_-]{3,})(?=[[\\(])/;

const MARKERS: string[] = (data.rules as { js: string; keywords: string[] }[]).flatMap((rule) => {
  const marker = MARKED.exec(rule.js)?.[1];
  const lower = marker?.toLowerCase();
  return marker !== undefined && rule.keywords.some((k) => lower?.startsWith(k.toLowerCase()))
    ? [marker]
    : [];
});

/**
 * Whether `value`, under the secret name `name`, opens with a provider's marker, is typed along
 * after it, and no rule found it in the text being redacted (read with that text's findings,
 * secret-gitleaks.ts currentFindings). Contract: never throws.
 */
export function typedAfterRefusedMarker(name: string, value: string): boolean {
  const bare = value.replace(/^["'`]|["'`]$/g, '');
  const marker = MARKERS.find((m) => bare.startsWith(m));
  if (marker === undefined || !isTypedRun(bare.slice(marker.length))) return false;
  return (
    !namesPassword(name) &&
    !currentFindings().hits.some((h) => bare.includes(h.secret) || h.secret.includes(bare))
  );
}

/** The markers read from the rules, for tests. */
export const providerMarkers = (): readonly string[] => MARKERS;
