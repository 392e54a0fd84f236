/**
 * Values under a name that says their provider (`TELEGRAM_BOT_TOKEN`, `SUMO_ACCESS_KEY`), where
 * gitleaks has a rule for exactly that: its semi-generic rules (`[\w.-]{0,50}?(?:telegr)…`, made by
 * its GenerateSemiGenericRegex) read a value of the provider's form under the provider's name. When
 * that rule and gitleaks' generic one have both read the value and neither found it, the reference
 * has said it is no credential of that provider — a generated one has the provider's form, and a
 * value of any other long random form is the generic rule's — so warden's own name rules defer to
 * it. Never under a password's name (a password has no provider's form), and never for a value the
 * generic rule cannot read whole (GENERIC_READS) unless it has the provider's own form.
 */
import data from './rules/gitleaks.json';
import { currentFindings } from './secret-gitleaks';
import { namesPassword } from './secret-names';

/** How a semi-generic rule's expression begins: up to 50 name characters, then the provider's name. */
const SEMI_GENERIC_HEAD = '[\\w.-]{0,50}?(?:';

/** gitleaks lets at most this many name characters follow the provider's (`[ \t\w.-]{0,20}`). */
const AFTER_PROVIDER = 20;

/** The group that opens at `from` (just after its `(`), to its closing `)`; escapes and classes skipped. */
function groupAt(source: string, from: number): string | undefined {
  let depth = 1;
  let inClass = false;
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return source.slice(from, i);
  }
  return undefined;
}

/**
 * A semi-generic rule's provider name: the group after its head, which some rules nest once more
 * (`[\w.-]{0,50}?(?:[\w.-]{0,50}?(?:(?:[Ss]umo|SUMO))(?:[ \t\w.-]{0,20})…)`, a name given case-sensitively).
 */
function providerOf(js: string): string | undefined {
  if (!js.startsWith(SEMI_GENERIC_HEAD)) return undefined;
  const group = groupAt(js, SEMI_GENERIC_HEAD.length);
  return group?.startsWith(SEMI_GENERIC_HEAD) ? providerOf(group) : group;
}

/** Where a semi-generic rule's value group opens: after the separator and up to five quotes or blanks. */
const VALUE_HEAD = '[\\x60\'"\\s=]{0,5}(';

/**
 * A rule's value group with its lengths loosened (`[0-9]{5,16}:A[\w-]{34}` → `[0-9]+:A[\w-]+`),
 * anchored: the provider's own form of any length.
 */
function formOf(js: string): RegExp | undefined {
  const at = js.lastIndexOf(VALUE_HEAD);
  const group = at < 0 ? undefined : groupAt(js, at + VALUE_HEAD.length);
  if (group === undefined) return undefined;
  const loose = group.replace(/\{0,\d*\}/g, '*').replace(/\{\d+(?:,\d*)?\}/g, '+');
  try {
    return new RegExp(`^(?:${loose})$`);
  } catch {
    return undefined;
  }
}

/** Each semi-generic rule's provider name, and the form of the values it reads. */
const PROVIDERS = (data.rules as { id: string; js: string }[]).flatMap((r) => {
  const provider = r.id.startsWith('generic') ? undefined : providerOf(r.js);
  return provider === undefined ? [] : [{ name: new RegExp(provider, 'g'), form: formOf(r.js) }];
});

/**
 * The providers `name` says, of those gitleaks has a semi-generic rule for, close enough to its end
 * for that rule to read the value after it (at most AFTER_PROVIDER name characters follow the
 * provider's): the forms of the values their rules read.
 */
function providersNamed(name: string): (RegExp | undefined)[] {
  return PROVIDERS.filter(({ name: provider }) => {
    provider.lastIndex = 0;
    for (let m = provider.exec(name); m !== null; m = provider.exec(name)) {
      if (name.length - (m.index + m[0].length) <= AFTER_PROVIDER) return true;
      if (m[0] === '') provider.lastIndex++;
    }
    return false;
  }).map((p) => p.form);
}

/** Names repeat on every record: whether one may defer to a provider's rule is judged once. */
const verdicts = new Map<string, (RegExp | undefined)[]>();

/** The forms of the providers `name` says (none under a password's name). */
function providerForms(name: string): (RegExp | undefined)[] {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = namesPassword(name) ? [] : providersNamed(name);
    if (verdicts.size >= 4096) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

/**
 * Whether gitleaks' rule for the provider `name` says (`sumo` in `SUMO_ACCESS_KEY`) read `value` and
 * refused it, as its generic rule did: no finding of the text being redacted holds it. Read with the
 * findings of that text (secret-gitleaks.ts currentFindings). Contract: never throws.
 */
export function refusedByProviderRule(name: string, value: string): boolean {
  const forms = providerForms(name);
  if (forms.length === 0) return false;
  const bare = value.replace(/^["'`]|["'`]$/g, '');
  if (!GENERIC_READS.test(bare) && !forms.some((form) => form?.test(bare))) return false;
  return !currentFindings().hits.some((h) => bare.includes(h.secret) || h.secret.includes(bare));
}

/**
 * A value gitleaks' generic rule reads whole (its value's characters: `[\w.=-]`, or base64), so its
 * refusal means something (too short, too plain, an identifier). One it cannot read (`1234:AAq7…`,
 * with a colon) was never judged by it: warden's name rules still hide it, unless it has the named
 * provider's own form but for its lengths (`3234:Aad…` under `telegram_api_token`, four digits where
 * Telegram's bot ids have 5 – 16) — that rule read it and found no credential of its provider.
 */
const GENERIC_READS = /^(?:[\w.=-]+|[A-Za-z0-9][A-Za-z0-9+/]*={0,3})$/;
