/**
 * Secrets known by their name in the forms configuration and source code give them beyond shell
 * and `.env` lines (secret-named.ts): a quoted literal after a secret name in any language
 * (`const apiKey = "x"`, `password: "x",`, `'password' => 'x'`, `$env:API_TOKEN = "x"`), a YAML
 * block scalar (`password: |` and the lines under it), XML (`<password>x</password>`, NuGet's
 * `<add key="ClearTextPassword" value="x"/>`), `.netrc` (`machine h login u password x`) and SQL
 * (`IDENTIFIED BY 'x'`, `PASSWORD 'x'`). Red-team findings: each of these was written in the clear.
 */
import { keptUnder } from './secret-named';
import { isSecretName } from './secret-names';
import { isReference, MARK, redactedMark, type SecretRule } from './secret-values';

/** `key` alone is too common in code (`key: 'Enter'`, `key="row-1"`) to hide every literal after it. */
const secretCodeName = (name: string): boolean => isSecretName(name) && name.toLowerCase() !== 'key';

/** The identifier that ends right before `at` (a call's parenthesis), or ''. */
function calleeBefore(text: string, at: number): string {
  let start = at;
  while (start > 0 && /[\w$]/.test(text[start - 1] as string)) start--;
  return text.slice(start, at);
}

/** `setPassword`, `password`, `with_api_key`: a setter of a secret (or its bare name), never a getter. */
function setterOfSecret(callee: string): boolean {
  const name = /^(?:set|with|use)?_?([A-Za-z]\w*)$/.exec(callee)?.[1];
  if (name === undefined || /^(?:get|read|load|fetch|has|find|delete|remove|is)[A-Z_]/.test(callee))
    return false;
  return secretCodeName(name);
}

/** The text after a YAML block scalar's header that belongs to it: lines indented past `indent`, and blank lines. */
function blockEnd(text: string, from: number, indent: number): number {
  let at = from;
  while (at < text.length && text[at] === '\n') {
    const next = text.indexOf('\n', at + 1);
    const end = next === -1 ? text.length : next;
    const line = text.slice(at + 1, end);
    const own = line.length - line.trimStart().length;
    if (line.trim() !== '' && own <= indent) break;
    at = end;
  }
  return at;
}

/** Characters of a name in code (`api_key`, `db.password`, `x-token`). */
const NAME_CHAR = /[\w.-]/;

/**
 * The name an assignment's operator at `end` follows — `name`, `"name"`, `'name'`, `$name`, `@name`,
 * `:name` — when it is one: it starts with a letter or `_` and stands at the start of the text or
 * after a character that cannot be part of a name (nor a `$` that is not its sigil). Otherwise undefined.
 */
function literalName(text: string, end: number): string | undefined {
  let nameEnd = end;
  const quote = text[end - 1];
  const quoted = quote === '"' || quote === "'";
  if (quoted) nameEnd--;
  let start = nameEnd;
  while (start > 0 && NAME_CHAR.test(text[start - 1] as string)) start--;
  const name = text.slice(start, nameEnd);
  if (!/^[A-Za-z_]/.test(name)) return undefined;
  let before = start - 1;
  if (quoted) {
    if (text[before] !== quote) return undefined;
    before--;
  }
  if (before < 0) return name;
  const ch = text[before] as string;
  // `$name`: a sigil, which must itself stand where a name may start.
  if (ch === '$') return before === 0 || !/[\w.$-]/.test(text[before - 1] as string) ? name : undefined;
  return NAME_CHAR.test(ch) ? undefined : name;
}

/** A backquoted value with blanks is a shell command substitution (`KEY=\`vault read …\``), not a literal. */
const notALiteral = (value: string, quote: string): boolean => quote === '`' && /\s/.test(value);

export const CODE_RULES: readonly SecretRule[] = [
  {
    // YAML block scalars: the secret is on the lines under `password: |` (a kube Secret's
    // stringData, a CI variable); the header's `|` alone was hidden, the value kept.
    trigger: /:[ \t]*[|>]/,
    byName: true,
    apply: (t) => {
      const header = /(^|\n)([ \t]*(?:-[ \t]+)*)([A-Za-z_][\w.-]*)([ \t]*:[ \t]*[|>][-+0-9]*[ \t]*)(?=\n)/g;
      let out = '';
      let at = 0;
      for (let m = header.exec(t); m !== null; m = header.exec(t)) {
        const [whole, pre = '', indent = '', name = '', head = ''] = m;
        if (!isSecretName(name) || m.index < at) continue;
        const start = m.index + whole.length;
        const end = blockEnd(t, start, indent.length);
        if (end === start) continue;
        out += `${t.slice(at, m.index)}${pre}${indent}${name}${head}\n${' '.repeat(indent.length + 2)}${redactedMark('key')}`;
        at = end;
        header.lastIndex = end;
      }
      return at === 0 ? t : out + t.slice(at);
    },
  },
  {
    // A quoted literal after a secret name and `=`, `:`, `:=` or `=>`, in any language. Only a
    // literal: `token = getToken()` and `token: string` are code and stay.
    trigger: /(?:=>|:=|=|:)[ \t]*["'`]/,
    byName: true,
    // The operator and the quoted value are found first and the name read back from them (literalName):
    // a pattern that began at the name was tried at every word of every file redacted.
    apply: (t) =>
      t.replace(
        /[ \t]*(?:=>|:=|=|:)[ \t]*(["'`])([^"'`\n\\]+)\1/g,
        (m, vq: string, value: string, at: number) => {
          const name = literalName(t, at);
          // A backquoted value with blanks is a shell command substitution (`KEY=\`vault read …\``).
          return name !== undefined &&
            secretCodeName(name) &&
            !keptUnder(name, value) &&
            !value.includes(MARK) &&
            !notALiteral(value, vq)
            ? `${m.slice(0, m.length - value.length - 2)}${vq}${redactedMark('key')}${vq}`
            : m;
        },
      ),
  },
  {
    // A secret handed to a setter as its only argument, a literal: `setPassword("x")`,
    // `builder.password('x')`, `withApiKey("x")`, `auth.set_token("x")`. A getter's argument is the
    // secret's name, not the secret (`getSecret("db")`), and stays.
    trigger: /\(\s*["'`]/,
    byName: true,
    // The call's parenthesis is found first and the name read back from it: a pattern that began at
    // the name was tried at every word of every file redacted.
    apply: (t) =>
      t.replace(
        /\((\s*)(["'`])([^"'`\n\\]+)\2(?=\s*\))/g,
        (m, gap: string, q: string, value: string, at: number) =>
          setterOfSecret(calleeBefore(t, at)) && !isReference(value)
            ? `(${gap}${q}${redactedMark('password')}${q}`
            : m,
      ),
  },
  {
    // Programs whose password flag does not say so: redis-cli -a X, mongosh -p X, ssh-keygen -N X,
    // ldapsearch -w X, gh secret set NAME --body X, http -a user:X, npm config set //r/:_authToken X.
    trigger: /redis-cli|mongo|ssh-keygen|ldap[a-z]|gh secret set|(?:^|\s)https?\s|npm config set/,
    apply: (t) =>
      t
        .replace(
          /\b((?:redis-cli\b[^\n;|&]{0,512}?\s-a|mongo(?:sh|dump|restore|import|export)?\b[^\n;|&]{0,512}?\s-p|ssh-keygen\b[^\n;|&]{0,512}?\s-[NP]|ldap[a-z]+\b[^\n;|&]{0,512}?\s-w|gh secret set\b[^\n;|&]{0,512}?\s(?:-b|--body))\s+)([^\s;|&]+)/g,
          (m, head: string, value: string) => (isReference(value) ? m : `${head}${redactedMark('password')}`),
        )
        .replace(
          /\b(https?\s+(?:[^\n;|&]{0,512}?\s)?(?:-a|--auth)[\s=]+["']?[^\s:"']*:)([^\s"';|&]+)/g,
          (m, head: string, value: string) => (isReference(value) ? m : `${head}${redactedMark('password')}`),
        )
        .replace(
          /\b(npm config set\s+\S*(?:_authToken|_auth|_password)\s+)([^\s;|&]+)/g,
          (m, head: string, value: string) => (isReference(value) ? m : `${head}${redactedMark('key')}`),
        ),
  },
  {
    // The password piped in: `echo X | docker login -u me --password-stdin` (CI docs' form).
    trigger: /--password-stdin/,
    apply: (t) =>
      t.replace(
        /\b((?:echo|printf)\s+(?:-n\s+|'%s'\s+|"%s"\s+)?)(["']?)([^\s"'|;&]+)\2(\s*\|\s*[^\n;|&]{0,256}?--password-stdin)/g,
        (m, head: string, q: string, value: string, tail: string) =>
          isReference(value) ? m : `${head}${q}${redactedMark('password')}${q}${tail}`,
      ),
  },
  {
    // ~/.netrc and _netrc: `machine host login user password secret`, on one line or several.
    // The trigger is the entry itself: `default ` alone is in most JavaScript, and every trigger runs
    // on every string redacted.
    trigger: /\b(?:machine\s+\S+|default)\s+(?:login|password|account)\b/,
    apply: (t) =>
      t.replace(
        /(^|\s)(password|passwd)(\s+)([^\s"']+|"[^"\n]*"|'[^'\n]*')/g,
        (m, pre: string, word: string, gap: string, value: string) =>
          isReference(value) ? m : `${pre}${word}${gap}${redactedMark('password')}`,
      ),
  },
  {
    // SQL: CREATE USER … IDENTIFIED BY 'x', ALTER USER … PASSWORD 'x', WITH PASSWORD 'x'.
    trigger: /identified\s+by|password\s+'/i,
    apply: (t) =>
      t.replace(
        /\b(identified\s+by|(?:with\s+)?(?:encrypted\s+)?password)(\s+)'((?:[^'\n]|'')+)'/gi,
        (m, head: string, gap: string, value: string) =>
          isReference(value) ? m : `${head}${gap}'${redactedMark('password')}'`,
      ),
  },
];

/** Runs before secret-named.ts, whose `key="…"` assignment would hide the name that says `value` is secret. */
/** <password>x</password> (Maven settings.xml, web.config). */
const XML_ELEMENT_RULE: SecretRule = {
  trigger: /<[A-Za-z]/,
  byName: true,
  apply: (t) =>
    t.replace(
      /<([A-Za-z_][\w.:-]*)(\s[^<>]*)?>([^<\n]+)<\/\1>/g,
      (m, name: string, attrs: string | undefined, value: string) =>
        isSecretName(name.replace(/^.*:/, '')) && !keptUnder(name.replace(/^.*:/, ''), value.trim())
          ? `<${name}${attrs ?? ''}>${redactedMark('key')}</${name}>`
          : m,
    ),
};

/** NuGet's <add key="ClearTextPassword" value="x"/>; its own trigger, so markup without `key=` skips it. */
const XML_ADD_RULE: SecretRule = {
  trigger: /key=["']/,
  byName: true,
  apply: (t) =>
    t.replace(
      /(\bkey=(["'])([\w.:-]+)\2\s+value=)(["'])([^"'\n]*)\4/g,
      (m, head: string, _q: string, name: string, vq: string, value: string) =>
        isSecretName(name) && !keptUnder(name, value) ? `${head}${vq}${redactedMark('key')}${vq}` : m,
    ),
};

/** Secrets in XML: elements named like a secret, and `<add key=… value=…/>`. */
export const XML_RULES: readonly SecretRule[] = [XML_ELEMENT_RULE, XML_ADD_RULE];
