import { isSecretName } from './secret-names';

/** The marker every redaction leaves: `[REDACTED:<kind>]`. */
export const redactedMark = (kind: string): string => `[REDACTED:${kind}]`;

type Rule = {
  /** Cheap pre-check so most strings skip the regex entirely. */
  trigger: RegExp;
  apply: (text: string) => string;
};

const MARK = '[REDACTED:';

/** A value that names a secret without holding it (`$TOKEN`, `%PW%`, `{{ token }}`) stays readable. */
function isReference(value: string): boolean {
  const bare = value.replace(/^["']/, '').replace(/^(bearer|basic|token|digest)\s+/i, '');
  return bare === '' || /^(\$|%|\{\{)/.test(bare) || value.includes(MARK);
}

/** Keeps the quotes of a quoted value and replaces what is inside. */
function replaceValue(value: string, kind: string): string {
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
  const closes = quote !== '' && value.length > 1 && value.endsWith(quote);
  return `${quote}${redactedMark(kind)}${closes ? quote : ''}`;
}

/** A known token shape, optionally with a check that the body looks random (has a digit). */
function shape(kind: string, trigger: RegExp, pattern: RegExp, needsDigit = false): Rule {
  return {
    trigger,
    apply: (text) => text.replace(pattern, (m) => (needsDigit && !/\d/.test(m) ? m : redactedMark(kind))),
  };
}

const VALUE = `"[^"\\n]*"?|'[^'\\n]*'?|[^\\s&;"'\`)]+`;

/** Ordered: framed secrets (PEM, Bearer, URL passwords) first, then token shapes, then names. */
const RULES: Rule[] = [
  {
    trigger: /PRIVATE KEY/,
    apply: (t) =>
      t.replace(
        /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
        redactedMark('private_key'),
      ),
  },
  {
    trigger: /bearer/i,
    apply: (t) =>
      t.replace(/\b(bearer)(\s+)([A-Za-z0-9._~+/-]+=*)/gi, (m, word: string, gap: string, token: string) =>
        token.length >= 8 && (/[0-9._~+/=-]/.test(token) || token.length >= 24)
          ? `${word}${gap}${redactedMark('bearer')}`
          : m,
      ),
  },
  {
    trigger: /basic/i,
    apply: (t) => t.replace(/\b(authorization\s*:\s*basic\s+)([A-Za-z0-9+/]{6,}=*)/gi, `$1${redactedMark('basic')}`),
  },
  {
    trigger: /:\/\//,
    apply: (t) =>
      t.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/?#@[\]]*):([^\s/?#@]+)@/gi, (m, scheme: string, user: string, pass: string) =>
        isReference(pass) ? m : `${scheme}${user}:${redactedMark('password')}@`,
      ),
  },
  shape('anthropic', /sk-ant-/, /(?<![\w-])sk-ant-[A-Za-z0-9_-]{16,}/g),
  shape('openai', /sk-/, /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, true),
  shape('github', /gh[pousr]_/, /(?<!\w)gh[pousr]_[A-Za-z0-9]{30,}/g),
  shape('github', /github_pat_/, /(?<!\w)github_pat_[A-Za-z0-9_]{30,}/g),
  shape('gitlab', /glpat-/, /(?<![\w-])glpat-[A-Za-z0-9_-]{20,}/g),
  shape('aws', /A[SKBC][IC]A/, /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g),
  shape('slack', /xox[abprs]-/, /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/g),
  shape('google', /AIza/, /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g),
  shape('stripe', /_live_|_test_/, /(?<!\w)(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g),
  shape('npm', /npm_/, /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g),
  shape('huggingface', /hf_/, /(?<!\w)hf_[A-Za-z0-9]{30,}(?!\w)/g, true),
  shape('jwt', /eyJ/, /(?<![\w-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g),
  {
    // curl -u user:pass, --user=user:pass: keep the user, hide the password.
    trigger: /(^|\s)(-u|--user)\b/,
    apply: (t) =>
      t.replace(
        /(^|\s)(-u|--user)(\s+|=)(["']?)([^\s:"']*):([^\s"']+)\4/g,
        (m, pre: string, flag: string, gap: string, q: string, user: string, pass: string) =>
          isReference(pass) ? m : `${pre}${flag}${gap}${q}${user}:${redactedMark('password')}${q}`,
      ),
  },
  {
    // --token abc, --api-key=abc, -password abc
    trigger: /(^|\s)-/,
    apply: (t) =>
      t.replace(
        new RegExp(`(^|\\s)(--?[A-Za-z][A-Za-z0-9_-]*)(=|\\s+)(${VALUE})`, 'g'),
        (m, pre: string, flag: string, gap: string, value: string) =>
          isSecretName(flag) && !isReference(value) && !value.startsWith('-')
            ? `${pre}${flag}${gap}${replaceValue(value, 'flag')}`
            : m,
      ),
  },
  {
    // API_KEY=abc in commands and .env text; ?token=abc&x=1 in query strings.
    trigger: /=/,
    apply: (t) =>
      t.replace(
        new RegExp(`(^|[\\s?&;"'\`(,])([A-Za-z_][A-Za-z0-9_.-]*)=(${VALUE})`, 'g'),
        (m, pre: string, name: string, value: string) =>
          isSecretName(name) && !isReference(value)
            ? `${pre}${name}=${replaceValue(value, pre === '?' || pre === '&' ? 'param' : 'assignment')}`
            : m,
      ),
  },
  {
    // "password": "x" inside JSON text, also when the JSON is escaped inside a shell string.
    trigger: /["']\s*:/,
    apply: (t) =>
      t.replace(
        /(\\?["'])([A-Za-z_][\w.-]*)\1(\s*:\s*)\1((?:(?!\1)[^\n])*?)\1/g,
        (m, q: string, name: string, colon: string, value: string) =>
          isSecretName(name) && !isReference(value) ? `${q}${name}${q}${colon}${q}${redactedMark('key')}${q}` : m,
      ),
  },
  {
    // Headers inside quotes: -H "X-Api-Key: abc", -H 'Cookie: a=b; c=d'.
    trigger: /["'][A-Za-z][\w-]*:/,
    apply: (t) =>
      t.replace(/(["'])([A-Za-z][A-Za-z0-9_-]*)(:[ \t]*)([^"'\n]+)(?=\1)/g, (m, q: string, name: string, colon: string, value: string) =>
        isSecretName(name) && !isReference(value) ? `${q}${name}${colon}${redactedMark('key')}` : m,
      ),
  },
  {
    // YAML or header lines: `password: hunter2`, `Authorization: token abc`. Code such as
    // `token: string;` or `token: getToken(),` is left alone.
    trigger: /(^|\n)[ \t]*[A-Za-z][\w-]*:[ \t]/,
    apply: (t) =>
      t.replace(/(^|\n)([ \t]*)([A-Za-z][A-Za-z0-9_-]*)(:[ \t]+)([^\n]+)/g, (m, pre: string, indent: string, name: string, colon: string, rest: string) => {
        // Judged in code, not in the regex, so a long line cannot make the regex backtrack.
        const value = rest.trimEnd();
        if (!isSecretName(name) || isReference(value) || /[;,(){[]$/.test(value)) return m;
        return `${pre}${indent}${name}${colon}${replaceValue(value, 'key')}${rest.slice(value.length)}`;
      }),
  },
];

/** One pass that rules out most strings (names, ids, hashes, paths) before any rule runs. */
const ANY_TRIGGER = new RegExp(RULES.map((rule) => `(?:${rule.trigger.source})`).join('|'), 'i');

/**
 * Replaces secret-looking substrings of `text` with `[REDACTED:<kind>]`, keeping the command,
 * URL or path around them readable.
 */
export function redactString(text: string): string {
  if (!ANY_TRIGGER.test(text)) return text;
  let out = text;
  for (const rule of RULES) {
    if (rule.trigger.test(out)) out = rule.apply(out);
  }
  return out;
}
