/** What every redaction rule shares: the marker it leaves and how it judges and replaces a value. */

/** The marker every redaction leaves: `[REDACTED:<kind>]`. */
export const redactedMark = (kind: string): string => `[REDACTED:${kind}]`;

/** The start of every marker; text holding it was redacted already. */
export const MARK = '[REDACTED:';

/** One redaction rule: a cheap literal trigger, then the rewrite. */
export type SecretRule = {
  /** Cheap pre-check so most strings skip the rule entirely (case-sensitive unless flagged `i`). */
  trigger: RegExp;
  apply: (text: string) => string;
  /**
   * The rule rewrites a value only after a name `isSecretName` accepts, so text without
   * SECRET_NAME_HINT (secret-names.ts) passes it unchanged and skips it.
   */
  byName?: true;
};

/**
 * A value that names a secret without holding it (`$TOKEN`, `%PW%`, `{{ token }}`), or stands in
 * for one — a placeholder (`xxxxxxxx`, `********`), a template (`<your token>`, `{SumoAccessKey}`,
 * `[PASSWORD]`), an ellipsis — stays readable (gitleaks' allowlists and entropy floors agree).
 */
export function isReference(value: string): boolean {
  let verdict = references.get(value);
  if (verdict === undefined) {
    verdict = judgeReference(value);
    if (references.size >= 4096) references.clear();
    references.set(value, verdict);
  }
  return verdict;
}

/** Values are judged by several rules of one text, and again on the next record: verdicts are kept. */
const references = new Map<string, boolean>();

function judgeReference(value: string): boolean {
  const bare = value
    .replace(/^["'`]|["'`]$/g, '')
    .replace(/^(bearer|basic|token|digest)\s+/i, '')
    // openssl's `pass:` form; `env:NAME`, `file:path`, `fd:N` name where the password is.
    .replace(/^pass:/, '')
    .trim();
  return (
    bare === '' ||
    /^(?:env|file|fd):\S/.test(bare) ||
    /^(?:`|\$\()/.test(value.trim()) ||
    /^(\$|%|\{\{|<[a-z_-]+>$)/i.test(bare) ||
    PLACEHOLDER_WORDS.test(bare) ||
    /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(bare) ||
    // Cut with an ellipsis, or its secret part masked (`xoxp-…-####`, `sk_live_…****`).
    /(?:\.\.\.|…|#{4}|\*{4})$/.test(bare) ||
    // Text, not a token: the head of another assignment (`"api_token = "` quoting a line), a label
    // (`token:`), markup (`<xsd:element name=`).
    /\s(?:=|:=|=>|:)$/.test(bare) ||
    /^[A-Za-z_]\w*:$/.test(bare) ||
    /^<[A-Za-z][\w:.-]*\s/.test(bare) ||
    /^(?:<[^<>]*>|\{[^{}]*\}|\[[^[\]]*\])$/.test(bare) ||
    /^[.*…#_-]+$/.test(bare) ||
    isPlaceholder(bare) ||
    isStandIn(unbracketed(bare)) ||
    PLACEHOLDER_WORDS.test(unbracketed(bare)) ||
    isBareUrl(bare) ||
    EMPTY_PEM.test(bare) ||
    value.includes(MARK)
  );
}

/** `<user:password>`'s halves without their brackets: `password>` → `password`. */
const unbracketed = (value: string): string => value.replace(/^[<{[]+|[>}\]]+$/g, '');

/**
 * Words people type where a secret goes in docs and examples, and that no token generator writes:
 * `sk-ant-api02-notarealkey`, `…TokenHere`, `pass:notasecret` (Google's documented p12 password),
 * `AKIAIOSFODNN7EXAMPLE` (AWS's documented key, upper case at the end), `https://user:mypassword@…`.
 * Narrower than gitleaks' stop words on purpose: `fake`, `example`, `dummy` and ascending runs
 * (`12345678-ABCD-…`) are in the peers' own true positives (bench/secrets-corpus.bench.ts).
 */
export function isStandIn(token: string): boolean {
  return STAND_IN_WORDS.test(token) || /EXAMPLE(?:KEY)?$/.test(token);
}

const STAND_IN_WORDS =
  /not_?a_?real|not_?real|notasecret|placeholder|changeme|replace_?me|your_(?:api_?)?(?:key|token|secret|password)|(?:token|key|secret|string)_?here$|^(?:my|your)(?:password|passwd|pass|secret|token)$/i;

/**
 * A URL with no query and no random path (`mongodb://localhost:27017/db`): where, not what. Its user
 * and password, if any, are the URL rules' to judge (secret-framed.ts, which run first): a real
 * password is hidden in place already, an example (`mongodb://mongodb:mongodb@…`) is not one.
 */
function isBareUrl(value: string): boolean {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^\s/?#@]*@)?([^\s/?#@]+)(\/[^\s?#@]*)?$/i.exec(value);
  if (!m) return false;
  return !(m[2] ?? '').split('/').some((segment) => looksRandom(segment, 20));
}

/** A PEM frame with nothing in it but an ellipsis or `x`s (`-----BEGIN PRIVATE KEY-----\n...\n-----END…`). */
const EMPTY_PEM =
  /^-----BEGIN [A-Z ]+-----(?:\\n|\s)*(?:\.\.\.|…|x+)?(?:\\n|\s)*-----END [A-Z ]+-----(?:\\n)?$/;

/**
 * Words written where a secret goes in docs and examples (`-u user:password`, `token=your_token_here`,
 * `not_a_real_token`); gitleaks' stop words and allowlists drop the same. A value that is a
 * command substitution, an UPPER_SNAKE name standing for the value (`access_token=ACCESS_TOKEN`),
 * or one cut with an ellipsis is not a secret either (see isReference).
 */
const PLACEHOLDER_WORDS =
  /^(?:password|passwd|pass|secret|token|test|changeme|example|dummy|y{3,}|x{3,})$|your[_-]|not[_-]a[_-]real|placeholder|put[_-]your|[_-]here$/i;

/** A token whose letters are mostly `x`/`X`: a placeholder even for the preset (`ghp_xxxx…`, `glpat-XXXX…`). */
export function isXPlaceholder(token: string): boolean {
  let xs = 0;
  for (const ch of token) if (ch === 'x' || ch === 'X') xs++;
  return token.length >= 8 && xs * 2 >= token.length;
}

/**
 * A placeholder written where a secret goes (`ghp_xxxxxxxx…`, `AKIAXXXXXXXXXXXXXXXX`, `********`,
 * `glpat-XXXXXXXX-XXXX`): one character makes up at least half of it. A real token's characters
 * are spread out; gitleaks' entropy floors drop these too.
 */
export function isPlaceholder(token: string): boolean {
  if (token.length < 8) return false;
  const counts = new Map<string, number>();
  let most = 0;
  for (const ch of token) {
    const n = (counts.get(ch) ?? 0) + 1;
    counts.set(ch, n);
    if (n > most) most = n;
  }
  return most * 2 >= token.length;
}

/** Keeps the quotes of a quoted value and replaces what is inside. */
export function replaceValue(value: string, kind: string): string {
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
  const closes = quote !== '' && value.length > 1 && value.endsWith(quote);
  return `${quote}${redactedMark(kind)}${closes ? quote : ''}`;
}

/**
 * Code, not a literal: a call, an index, an object, a member path (`self.token`,
 * `process.env.TOKEN`), a comparison or a statement end. A quoted value is a literal.
 */
export function looksLikeCode(value: string): boolean {
  const v = value.trim();
  if (/^["'`]/.test(v)) return false;
  return (
    /[;,]$/.test(v) ||
    /[()[\]{}]/.test(v) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) ||
    /^[=!<>]/.test(v)
  );
}

/** A value that looks random enough to be a credential: long, with letters and digits. */
export function looksRandom(value: string, minLength = 12): boolean {
  return value.length >= minLength && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** A value of any unquoted or quoted shell word (a quoted one may be cut at the end of text). */
export const VALUE = `"[^"\\n]*"?|'[^'\\n]*'?|[^\\s&;"'\`)]+`;
