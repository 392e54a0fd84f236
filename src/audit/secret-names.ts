/**
 * Which names (object keys, env variables, query parameters, flags, headers) hold secrets.
 * Names are split into words (camelCase, snake_case, kebab-case, dots) and judged by the LAST
 * word, so `OPENAI_API_KEY`, `x-api-key`, `privateKey` and `accessToken` match while `keyboard`,
 * `monkey`, `keys`, `maxTokens`, `tokenCount` and `PWD` (the working directory) do not.
 * Short words that are also ordinary (`pass`, `pwd`, `pw`) count only after another word:
 * `DB_PASS`, `MYSQL_PWD`, `SMTP_PW` match; `PWD`, `OLDPWD`, `pass` do not.
 */

/** Whole last words that name a secret. */
const SECRET_WORDS = new Set([
  'token',
  'key',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'authorization',
  'auth',
  'cookie',
  'cookies',
  'credential',
  'credentials',
]);

/** Glued compounds (`apikey`) where the secret word is only a suffix of the last word. */
const SECRET_COMPOUNDS = new Set([
  'apikey',
  'privatekey',
  'accesskey',
  'secretkey',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'setcookie',
]);

/** Last words that name a secret only after another word (`DB_PASS`, not `pass` or `PWD`). */
const QUALIFIED_WORDS = new Set(['pass', 'pwd', 'pw', 'passcode']);

/** Whole names (as lower-case words) whose last word alone says nothing: Rails' `SECRET_KEY_BASE`, a GCP service account's `private_key_id`. */
const SECRET_PHRASES = new Set(['secret key base', 'private key id']);

/** Suffixes that are safe to match inside one word (`dbpassword`, `accesstoken`, `clientsecret`). */
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'passwd'];

/** Splits `OPENAI_API_KEY`, `apiKey`, `APIKey`, `x-api-key` into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/**
 * Every name `isSecretName` accepts holds one of these, in any case: each word of the lists above
 * contains one (`token`, `key`, `secret`, `pass`, `auth`, `cookie`, `credential`, `pw`), and a name's
 * words are pieces of the name itself. So text without a match names no secret, and the rules that
 * redact by name (`byName`) need not look at it — most JSON and argument text of a burst of calls.
 */
export const SECRET_NAME_HINT = /token|key|secret|pass|auth|cookie|credential|pw/i;

/** Names repeat (the same argument keys on every record), so verdicts are memoised. */
const verdicts = new Map<string, boolean>();
const MAX_MEMO = 4096;

/** True when a value stored under `name` should be treated as a secret. */
export function isSecretName(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = judgeName(name);
    if (verdicts.size >= MAX_MEMO) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

/** Words that say the value is meant to be seen (`DOTENV_PUBLIC_KEY`, Stripe's `publishableKey`). */
const PUBLIC_WORDS = new Set(['public', 'publishable', 'pub']);

/**
 * Words before the secret word that say the value is deliberately not a real one — a test's
 * `fakeToken`, `dummy_password`, `mockApiKey`, `invalidSecret`, `nonMatchingToken` (the negative
 * case of a detector's test). `test`, `example` and `sample` are not among them: CI and docs give
 * real credentials such names (`TEST_API_KEY`), and the peers' corpora hold them as secrets.
 */
const STAND_IN_NAME = /(?:^| )(?:fake|dummy|mock|bogus|invalid|(?:non|not) ?matching|mismatched)(?: |$)/;

/** Whether `name` says its value is a stand-in (see STAND_IN_NAME); its last word is not read. */
export function namesStandIn(name: string): boolean {
  const words = nameWords(name);
  return STAND_IN_NAME.test(words.slice(0, -1).join(' '));
}

/** Last words of a password's name (`DB_PASSWORD`, `SMTP_PASS`, `MYSQL_PWD`, `passphrase`). */
const PASSWORD_WORD = /pass|pw/;

/**
 * Whether `name` ends in a password's word: a password has no provider's form, so no provider's
 * rule speaks for it (secret-provider-named.ts, secret-provider-marked.ts).
 */
export function namesPassword(name: string): boolean {
  const last = nameWords(name).at(-1);
  return last === undefined || PASSWORD_WORD.test(last);
}

function judgeName(name: string): boolean {
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (words.slice(0, -1).some((w) => PUBLIC_WORDS.has(w))) return false;
  if (STAND_IN_NAME.test(words.slice(0, -1).join(' '))) return false;
  if (SECRET_WORDS.has(last) || SECRET_COMPOUNDS.has(last)) return true;
  if (words.length >= 2 && QUALIFIED_WORDS.has(last)) return true;
  if (words.length >= 3 && SECRET_PHRASES.has(words.slice(-3).join(' '))) return true;
  return SECRET_SUFFIXES.some((suffix) => last.length > suffix.length && last.endsWith(suffix));
}
