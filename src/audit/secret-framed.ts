/**
 * Secrets known by their frame rather than their shape: PEM private keys, `Bearer`/`Basic`
 * credentials, a URL's password or a token used as a URL's user. Only the secret is replaced;
 * the command and the URL around it stay readable.
 */
import { isReference, looksRandom, redactedMark, type SecretRule } from './secret-values';

export const FRAMED_RULES: readonly SecretRule[] = [
  {
    // Also a key cut off before its END line, and one inside JSON (`\n` escapes). A whole block
    // with almost nothing between its lines (`…`, `xxx`, a doc's example) holds no key: gitleaks
    // asks for 64 characters of body too.
    trigger: /PRIVATE KEY/,
    apply: (t) =>
      t.replace(
        /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----([\s\S]*?)(-----END \1PRIVATE KEY\2-----|$)/g,
        (m, _kind: string, _block: string, body: string, end: string) =>
          end !== '' && body.replace(/\\[nr]|\s/g, '').length < 64 ? m : redactedMark('private_key'),
      ),
  },
  {
    // A private key in base64 (kubeconfig's client-key-data, a CI variable): its PEM header
    // encodes as `LS0tLS1CRUdJTi`; hidden when the whole decodes to a private key (red-team finding).
    trigger: /LS0tLS1CRUdJTi/,
    apply: (t) =>
      t.replace(/LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}/g, (m) =>
        /PRIVATE KEY/.test(Buffer.from(m.slice(0, 64), 'base64').toString('latin1'))
          ? redactedMark('private_key')
          : m,
      ),
  },
  {
    // Signatures that grant access on their own: an Azure SAS `sig=`, an AWS presigned URL's
    // `X-Amz-Signature=` (the names say nothing to secret-names.ts).
    trigger: /[?&](?:sig|x-amz-signature)=/i,
    apply: (t) =>
      t.replace(/([?&](?:sig|x-amz-signature)=)([A-Za-z0-9%+/=_-]{16,})/gi, `$1${redactedMark('param')}`),
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
    // The credential to its end, whatever it is written in: a JWT after `Basic` kept its payload and
    // signature when only base64's letters were taken.
    trigger: /basic/i,
    apply: (t) =>
      t.replace(/\b(authorization\s*:\s*basic\s+)([A-Za-z0-9+/._~-]{6,}=*)/gi, `$1${redactedMark('basic')}`),
  },
  {
    // `Authorization: token ghp_…` (GitHub's form) and other schemes followed by a credential.
    trigger: /authorization/i,
    apply: (t) =>
      t.replace(
        /\b(authorization\s*:\s*(?:token|digest|apikey|sso-key)\s+)([^\s"']{8,})/gi,
        (m, head: string, value: string) => (isReference(value) ? m : `${head}${redactedMark('key')}`),
      ),
  },
  {
    // scheme://user:password@host — keep the user, hide the password. A password that is its user's
    // name (`postgres:postgres`, a documented default), one character repeated (`1111`) or shorter
    // than four characters (`user:abc`: secretlint's floor for a URL's password) is an example.
    trigger: /:\/\//,
    apply: (t) =>
      t.replace(
        /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/?#@[\]]*):([^\s/?#@]+)@/gi,
        (m, scheme: string, user: string, pass: string) =>
          isReference(pass) || pass === user || /^(.)\1{2,}$/.test(pass) || pass.length < 4
            ? m
            : `${scheme}${user}:${redactedMark('password')}@`,
      ),
  },
];

/** scheme://<token>@host — a token as the user (git remotes, Sentry DSNs); `git@`, `alice@` stay. Runs after the shapes, which name the token better. */
export const URL_USER_RULE: SecretRule = {
  trigger: /:\/\//,
  apply: (t) =>
    t.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([A-Za-z0-9._~%-]{16,})@/gi, (m, scheme: string, user: string) =>
      looksRandom(user, 16) && !isReference(user) ? `${scheme}${redactedMark('url_user')}@` : m,
    ),
};
