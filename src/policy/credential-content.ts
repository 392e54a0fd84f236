/**
 * The content half of the credential predicate: a file whose first bytes are a private
 * key, a package manager's auth token, a cloud key file or a netrc login holds credentials whatever it
 * is called (`notes.txt` holding `-----BEGIN OPENSSH PRIVATE KEY-----`). Deliberately narrow: these
 * are the shapes of credential *files*, not every secret-looking line of source code (the audit's
 * redactor handles those in what is shown and recorded).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { holdsCredentialContent } from '../audit/secret-content';

/** Bytes read from the start of a file: key files and token files say what they are at the top. */
export const CONTENT_SNIFF_BYTES = 4096;

/** Each marker with the kind it names, for the card and the result ("holds a private key"). */
const MARKERS: readonly { kind: string; re: RegExp }[] = [
  { kind: 'a private key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'a PuTTY private key', re: /^PuTTY-User-Key-File-\d+:/m },
  { kind: 'a package registry token', re: /(?:^|\s|:)_(?:authToken|auth|password)\s*=\s*\S/m },
  { kind: 'an AWS secret key', re: /^\s*aws_secret_access_key\s*[=:]\s*\S/im },
  {
    kind: 'a cloud service-account key',
    re: /"type"\s*:\s*"(?:service_account|authorized_user)"[\s\S]*"private_key(?:_id)?"\s*:|"private_key"\s*:\s*"-----BEGIN/,
  },
  { kind: 'a netrc login', re: /^\s*machine\s+\S+\s+(?:login\s+\S+\s+)?password\s+\S/m },
  { kind: 'a Kubernetes secret', re: /^kind:\s*Secret\s*$[\s\S]*^data:\s*$/m },
  { kind: 'a git credential', re: /^https?:\/\/[^\s:@/]+:[^\s@/]+@[^\s/]+\/?\s*$/m },
];

/**
 * What kind of credential `text` (a file's first bytes) holds, or undefined: the markers above, then the
 * redactor's own test of credential-file content (base64-wrapped keys as kubeconfig holds them, the
 * token rules of gitleaks that mean a credential file), so both halves agree on what a secret is. Pure.
 */
export function credentialContentKind(text: string): string | undefined {
  for (const m of MARKERS) if (m.re.test(text)) return m.kind;
  return holdsCredentialContent(text) ? 'a credential (by gitleaks’ rules)' : undefined;
}

type Remembered = { dev: number; ino: number; size: number; mtimeMs: number; kind: string | undefined };
// The same files are asked about again and again (every command's scan, every read): a verdict is
// kept while the file's identity, size and time stay the same. Bounded.
const remembered = new Map<string, Remembered>();
const MAX_REMEMBERED = 8192;

/**
 * What kind of credential the regular file at `path` holds by its first bytes, or undefined (also for
 * what cannot be opened, is not a regular file, or is empty). Opened without following a final link is
 * not needed: callers pass real paths. Contract: never throws.
 */
export function fileCredentialKind(path: string): string | undefined {
  let fd: number | undefined;
  try {
    // Non-blocking: a FIFO put (or swapped) there must not hold the main thread until a writer comes.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const s = fstatSync(fd);
    if (!s.isFile() || s.size === 0) return undefined;
    const known = remembered.get(path);
    if (
      known &&
      known.dev === s.dev &&
      known.ino === s.ino &&
      known.size === s.size &&
      known.mtimeMs === s.mtimeMs
    )
      return known.kind;
    const buf = Buffer.alloc(Math.min(CONTENT_SNIFF_BYTES, s.size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    const kind = credentialContentKind(buf.subarray(0, n).toString('latin1'));
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(path, { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, kind });
    return kind;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether a file of this base name is worth opening for the content check inside a folder scan:
 * configuration, text and extension-less files, where key and token files live — not source code,
 * media or archives (a key pasted into source is the redactor's business). Keeps a scan of a large
 * project to the files that can be credential files.
 */
export function mayHoldCredentialContent(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return true;
  return SNIFFED_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

const SNIFFED_EXTENSIONS: ReadonlySet<string> = new Set([
  'txt',
  'json',
  'yaml',
  'yml',
  'conf',
  'cfg',
  'ini',
  'properties',
  'toml',
  'config',
  'xml',
  'dat',
  'cred',
  'creds',
  'token',
  'tokens',
  'auth',
  'bak',
  'old',
  'orig',
  'backup',
  'save',
  'local',
  'prod',
  'production',
  'staging',
  'dev',
]);
