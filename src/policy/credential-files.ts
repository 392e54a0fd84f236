/**
 * Files that hold secrets by their name: reading one sends its content to the model's provider, so
 * the policy asks first (issue 9 §4). Names, not contents: a file is judged before it is opened.
 */
import { picomatchLib } from './picomatch-lib';

/**
 * Gitignore-like patterns (no `/`: any depth) over project-relative paths, matched ignoring case.
 * Private keys, key stores, token files of package managers and clouds, dotenv files.
 */
export const CREDENTIAL_PATTERNS: readonly string[] = [
  '.env',
  '.env.*',
  '*.env',
  '.envrc',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  '*.pem',
  '*.key',
  '*.p8',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  '*.ppk',
  '*.kdbx',
  '*.tfvars',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.htpasswd',
  '.git-credentials',
  '.dockercfg',
  '.s3cfg',
  'credentials',
  'credentials.json',
  'credentials.yml',
  'credentials.yaml',
  'client_secret*.json',
  'service-account*.json',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  '.docker/config.json',
  '.kube/config',
  '.ssh/**',
  '.gnupg/**',
];

/**
 * Templates committed on purpose, and public halves of key pairs: never secrets by name. `.env.example`
 * is read by every setup guide; asking for it would teach people to approve `.env` without reading.
 */
const NOT_SECRET = [
  '.env.example',
  '.env.sample',
  '.env.template',
  '.env.dist',
  '*.pub',
  '.ssh/known_hosts',
  '.ssh/config',
];

const anyDepth = (p: string): string[] => [p, `**/${p}`];
/** One regular expression for a whole list: this runs on every word of every command (measured: ~40× faster than picomatch's list matcher). */
const oneRegex = (patterns: readonly string[]): RegExp =>
  new RegExp(
    patterns
      .flatMap(anyDepth)
      .map((p) => `(?:${picomatchLib().makeRe(p, { dot: true }).source})`)
      .join('|'),
    'i',
  );
// Built on first use: ~100 globs compiled at import cost start-up ~10 ms (profiled, issue 16).
let secretRe: RegExp | undefined;
let exemptRe: RegExp | undefined;
const secret = (p: string): boolean => (secretRe ??= oneRegex(CREDENTIAL_PATTERNS)).test(p);
const exempt = (p: string): boolean => (exemptRe ??= oneRegex(NOT_SECRET)).test(p);

/**
 * Why an exact-text edit of a credential file is refused, and what to do instead: its answers (no match,
 * two matches, the nearest lines) would tell the model what the file holds without a person seeing it.
 */
export const CREDENTIAL_EDIT =
  'Ask the person to change it, or read it (a person approves that) and send the whole new content with write_file.';

// The two patterns run in tens of microseconds a path, and a session reads the same paths again and
// again (a burst of reads, every word of every command): verdicts are remembered, bounded.
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 4096;

/** Whether a project-relative (or absolute) `/`-separated path names a credential file. Pure. */
export function isCredentialPath(path: string): boolean {
  let verdict = verdicts.get(path);
  if (verdict === undefined) {
    const p = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
    verdict = p !== '' && p !== '.' && secret(p) && !exempt(p);
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(path, verdict);
  }
  return verdict;
}

/**
 * The word of a command that names a credential file (`cat .env`, `--key-file=certs/a.pem`), if any.
 * Option values after `=` are read too. A best effort: `grep -r KEY .` reads `.env` without naming it.
 */
export function credentialWord(words: readonly string[]): string | undefined {
  for (const word of words) {
    const value = word.startsWith('-') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : word;
    if (isCredentialPath(value)) return value;
  }
  return undefined;
}

/**
 * ripgrep globs that keep credential files out of a folder search. Hidden ones (`.env`, `.npmrc`)
 * are skipped by rg already; these cover the visible ones (`server.pem`, `credentials.json`).
 */
export const CREDENTIAL_RG_EXCLUDES: readonly string[] = CREDENTIAL_PATTERNS.map((p) => `--iglob=!${p}`);
