/**
 * Secrets known by the name they are given: flags (`--token x`), headers (`-H X-Api-Key:x`),
 * assignments (`API_KEY=x`, `password = x`), JSON and YAML keys, and the few programs that
 * take a password in a flag that does not say so (`mysql -pX`, `sshpass -p X`). Which names
 * hold secrets is secret-names.ts; a reference (`$TOKEN`) or code (`getToken()`) is left alone.
 */
import { isSecretName } from './secret-names';
import { typedAfterRefusedMarker } from './secret-provider-marked';
import { refusedByProviderRule } from './secret-provider-named';
import {
  isReference,
  looksLikeCode,
  looksRandom,
  redactedMark,
  replaceValue,
  type SecretRule,
  VALUE,
} from './secret-values';

const ASSIGNED = new RegExp(`=(${VALUE})`, 'g');

/**
 * A value under a secret name that stays: a reference or stand-in (`$TOKEN`, `<your token>`), or one
 * the reference's rule for the provider the name says refused (secret-provider-named.ts), or one typed
 * after a provider's marker whose rule refused it (secret-provider-marked.ts).
 */
export const keptUnder = (name: string, value: string): boolean =>
  isReference(value) || refusedByProviderRule(name, value) || typedAfterRefusedMarker(name, value);

/**
 * `NAME=value` with a secret name: the value replaced. A value that is not replaced may hold the
 * next assignment (`--from-literal=password=x`): it is read the same way, as if after an `=`.
 */
function redactAssignments(text: string): string {
  return text.replace(ASSIGNED, (m, value: string, at: number) => {
    const named = assignedName(text, at);
    if (named !== undefined && isSecretName(named.name) && !keptUnder(named.name, value)) {
      const kind =
        named.before === '?' || named.before === '&' || named.before === '#' ? 'param' : 'assignment';
      return `=${replaceValue(value, kind)}`;
    }
    return value.includes('=') ? `=${redactAssignments(value)}` : m;
  });
}

/** Where an assignment's name may start: the start, a blank, or one of `?&#=;:"'\`(,`. */
const BEFORE_NAME = /[\s?&#=;:"'`(,]/;

/**
 * The name the `=` at `end` assigns (`API_KEY` in `API_KEY=x`, `token` in `?token=x`) and the
 * character before it ('' at the start), when the characters before `end` are one: a letter or `_`
 * first, then letters, digits, `_`, `.`, `-`, at the start or after BEFORE_NAME. Otherwise undefined.
 */
function assignedName(text: string, end: number): { name: string; before: string } | undefined {
  let start = end;
  while (start > 0 && /[A-Za-z0-9_.-]/.test(text[start - 1] as string)) start--;
  const name = text.slice(start, end);
  if (!/^[A-Za-z_]/.test(name)) return undefined;
  const before = start > 0 ? (text[start - 1] as string) : '';
  return before === '' || BEFORE_NAME.test(before) ? { name, before } : undefined;
}

export const NAMED_RULES: readonly SecretRule[] = [
  {
    // First, so the flag rule below never reads `-pSECRET` as a flag named like a password.
    // Programs whose password flag is `-p` glued (mysql -pSECRET) or plain (sshpass -p SECRET,
    // docker login -p SECRET), and openssl's `pass:SECRET`.
    trigger: /mysql|mariadb|sshpass|docker|podman|pass:/,
    apply: (t) =>
      t
        .replace(
          /\b((?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n;|&]{0,512}?\s-p)([^\s"';|&]+)/g,
          (m, head: string, value: string) => (isReference(value) ? m : `${head}${redactedMark('password')}`),
        )
        .replace(
          /\b((?:sshpass|(?:docker|podman) login\b[^\n;|&]{0,512}?)\s-p\s+)([^\s;|&]+)/g,
          (m, head: string, value: string) =>
            isReference(value) ? m : `${head}${replaceValue(value, 'password')}`,
        )
        .replace(
          /(^|\s)(-pass(?:in|out)?\s+)?pass:([^\s;|&]+)/g,
          (m, pre: string, flag: string | undefined, value: string) =>
            isReference(value) ? m : `${pre}${flag ?? ''}pass:${redactedMark('password')}`,
        ),
  },
  {
    // curl -u user:pass, --user=user:pass, however the word is quoted (`kevin:'pw'`, `"{id}":"{pw}"`):
    // keep the user, hide the password; `-u TOKEN:` (an API key as the user, no password) hides the user.
    trigger: /(^|\s)(-u|--user)\b/,
    apply: (t) =>
      t.replace(
        /(^|\s)(-u|--user)(\s+|=)((?:"[^"\n]*"|'[^'\n]*'|[^\s"'])+)/g,
        (m, pre: string, flag: string, gap: string, word: string) => {
          // Quotes and the backslashes of a quote written inside quotes (`'\''`) are not the word's.
          const bare = word.replace(/["'\\]/g, '');
          const colon = bare.indexOf(':');
          if (colon < 0) return m;
          const user = bare.slice(0, colon);
          const pass = bare.slice(colon + 1);
          if (pass === '')
            return looksRandom(user, 10) && !isReference(user)
              ? `${pre}${flag}${gap}${redactedMark('password')}:`
              : m;
          return isReference(pass) ? m : `${pre}${flag}${gap}${user}:${redactedMark('password')}`;
        },
      ),
  },
  {
    // --token abc, --api-key=abc, -password abc
    trigger: /(^|\s)-/,
    byName: true,
    apply: (t) =>
      t.replace(
        new RegExp(`(^|\\s)(--?[A-Za-z][A-Za-z0-9_-]*)(=|\\s+)(${VALUE})`, 'g'),
        (m, pre: string, flag: string, gap: string, value: string) =>
          isSecretName(flag) && !keptUnder(flag, value) && !value.startsWith('-')
            ? `${pre}${flag}${gap}${replaceValue(value, 'flag')}`
            : m,
      ),
  },
  {
    // Unquoted headers: -H X-Api-Key:abc, --header=Authorization:token (quoted ones below).
    trigger: /(^|\s)(-H|--header)\b/,
    byName: true,
    apply: (t) =>
      t.replace(
        /(^|\s)(-H|--header)(\s+|=)([A-Za-z][A-Za-z0-9_-]*)(:[ \t]*)([^\s"'][^\s"']*)/g,
        (m, pre: string, flag: string, gap: string, name: string, colon: string, value: string) =>
          isSecretName(name) && !keptUnder(name, value)
            ? `${pre}${flag}${gap}${name}${colon}${redactedMark('key')}`
            : m,
      ),
  },
  {
    // API_KEY=abc in commands and .env text; ?token=abc&x=1; ;AccountKey=abc; //host/:_authToken=abc;
    // an OAuth fragment (#access_token=abc) and a flag's value (--from-literal=password=abc).
    trigger: /=/,
    byName: true,
    // The `=` and its value are found first and the name read back (assignedName): a pattern that
    // began at the name was tried at every word of every text.
    apply: (t) => redactAssignments(t),
  },
  {
    // INI and TOML lines with spaces around `=` (~/.aws/credentials, .pypirc, my.cnf). Code
    // (`token = getToken()`, `password = self.password`) is left alone.
    trigger: /[ \t]=|=[ \t]/,
    byName: true,
    apply: (t) =>
      t.replace(
        new RegExp(`(^|\\n)([ \\t]*)([A-Za-z_][A-Za-z0-9_.-]*)([ \\t]*=[ \\t]*)(${VALUE})`, 'g'),
        (m, pre: string, indent: string, name: string, eq: string, value: string) =>
          isSecretName(name) && !keptUnder(name, value) && !looksLikeCode(value)
            ? `${pre}${indent}${name}${eq}${replaceValue(value, 'key')}`
            : m,
      ),
  },
  {
    // "password": "x" inside JSON text, also when the JSON is escaped inside a shell string. An
    // escaped quote inside the value (`"a\"b"`) does not end it (the rest was kept: red-team finding).
    trigger: /["']\s*:/,
    byName: true,
    apply: (t) =>
      t.replace(
        /(\\?["'])([A-Za-z_][\w.-]*)\1(\s*:\s*)\1((?:\\.|(?!\1)[^\n\\])*?)\1/g,
        (m, q: string, name: string, colon: string, value: string) =>
          isSecretName(name) && !keptUnder(name, value)
            ? `${q}${name}${q}${colon}${q}${redactedMark('key')}${q}`
            : m,
      ),
  },
  {
    // Headers inside quotes: -H "X-Api-Key: abc", -H 'Cookie: a=b; c=d'.
    trigger: /["'][A-Za-z][\w-]*:/,
    byName: true,
    apply: (t) =>
      t.replace(
        /(["'])([A-Za-z][A-Za-z0-9_-]*)(:[ \t]*)([^"'\n]+)(?=\1)/g,
        (m, q: string, name: string, colon: string, value: string) =>
          isSecretName(name) && !keptUnder(name, value) ? `${q}${name}${colon}${redactedMark('key')}` : m,
      ),
  },
  {
    // YAML or header lines: `password: hunter2`, `Authorization: token abc`. Code such as
    // `token: string;` or `token: getToken(),` is left alone. Also a list item (`- password: x`),
    // a dotted or symbol key (`db.password: x`, `:rubygems_api_key: x`) and `password : x` — each
    // was written in the clear (red-team finding). A block scalar's `|` is secret-code.ts's.
    trigger: /(^|\n)[ \t]*(?:-[ \t]+)*:?[A-Za-z][\w.-]*[ \t]*:[ \t]/,
    byName: true,
    apply: (t) =>
      t.replace(
        /(^|\n)([ \t]*(?:-[ \t]+)*:?)([A-Za-z][A-Za-z0-9_.-]*)([ \t]*:[ \t]+)([^\n]+)/g,
        (m, pre: string, indent: string, name: string, colon: string, rest: string) => {
          // Judged in code, not in the regex, so a long line cannot make the regex backtrack.
          const value = rest.trimEnd();
          // Code ends so also inside a quoted argument (`printf '%s' '… })'`).
          if (!isSecretName(name) || keptUnder(name, value) || /[;,(){[]["'`]*$/.test(value)) return m;
          if (/^[|>][-+0-9]*$/.test(value)) return m;
          return `${pre}${indent}${name}${colon}${replaceValue(value, 'key')}${rest.slice(value.length)}`;
        },
      ),
  },
  {
    // A multi-word secret name followed by a random-looking value as the next word:
    // `aws configure set aws_secret_access_key wJalr…`, `set-secret api_token 9f8e…`.
    trigger: /[A-Za-z0-9][_-][A-Za-z0-9]+[ \t]+[A-Za-z0-9+/=_.~-]{12}/,
    byName: true,
    apply: (t) =>
      t.replace(
        /(^|[\s"'])([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+)([ \t]+)([A-Za-z0-9+/=_.~-]{12,})(?=$|[\s"';|&])/g,
        (m, pre: string, name: string, gap: string, value: string) =>
          isSecretName(name) && looksRandom(value) && !value.startsWith('-')
            ? `${pre}${name}${gap}${redactedMark('key')}`
            : m,
      ),
  },
];
