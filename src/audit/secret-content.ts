/**
 * Whether a file's text is credential-file content, whatever the file is called: a private key
 * (PEM, also base64-wrapped as kubeconfig writes it), an npm `_authToken=`, an AWS
 * `aws_secret_access_key`, a GCP service-account key (JSON with `"type": "service_account"` and a
 * `private_key`), or a secret gitleaks' own rules find. For the content check of credential files,
 * which can reuse it as it is: cheap literals first, the rule set only past them.
 */
import { findGitleaks, GITLEAKS_TRIGGER } from './secret-gitleaks';

const PEM_PRIVATE_KEY = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/;
/** `-----BEGIN` in base64 (`LS0tLS1CRUdJTi`), as kubeconfig's `client-key-data` holds it. */
const BASE64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/]{8,}/;
const NPM_TOKEN = /(?:^|\s|:)_(?:authToken|auth|password)\s*=\s*\S/m;
const AWS_SECRET = /\baws_secret_access_key\s*[=:]\s*\S/i;
const GCP_SERVICE_ACCOUNT = /"type"\s*:\s*"service_account"/;
const GCP_PRIVATE_KEY = /"private_key"\s*:\s*"-----BEGIN/;

/** Rules of gitleaks whose finding means the text is a credential file's content. */
const CREDENTIAL_RULES: ReadonlySet<string> = new Set([
  'private-key',
  'npm-access-token',
  'aws-access-token',
  'pypi-upload-token',
]);

/** True when `text` holds a private key, in PEM or base64-wrapped PEM. Contract: never throws. */
export function holdsPrivateKey(text: string): boolean {
  if (PEM_PRIVATE_KEY.test(text)) return true;
  const wrapped = BASE64_PEM.exec(text);
  if (!wrapped) return false;
  return /PRIVATE KEY/.test(Buffer.from(wrapped[0].slice(0, 96), 'base64').toString('latin1'));
}

/**
 * True when `text` is credential-file content (see the module comment). Contract: never throws;
 * reads at most the first 1 MiB of `text`.
 */
export function holdsCredentialContent(text: string): boolean {
  const head = text.length > 1 << 20 ? text.slice(0, 1 << 20) : text;
  if (holdsPrivateKey(head) || NPM_TOKEN.test(head) || AWS_SECRET.test(head)) return true;
  if (GCP_SERVICE_ACCOUNT.test(head) && GCP_PRIVATE_KEY.test(head)) return true;
  if (!GITLEAKS_TRIGGER.test(head)) return false;
  return findGitleaks(head).hits.some((hit) => CREDENTIAL_RULES.has(hit.rule));
}
