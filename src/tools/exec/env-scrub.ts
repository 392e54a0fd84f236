/** Variables kept whatever their name looks like: a shell needs them. */
const ALWAYS_KEPT = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'PWD',
  'COLORTERM',
]);

// Names that usually hold credentials. Case-insensitive.
const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /_KEY$/i,
  /_KEYS$/i,
  /API_?KEY/i,
  /PRIVATE_KEY/i,
  /TOKEN/i,
  /SECRET/i,
  /PASSWORD/i,
  /PASSWD/i,
  /_PASS$/i,
  /_PAT$/i,
  /CREDENTIAL/i,
  /_AUTH$/i,
  /^AUTH_/i,
  /COOKIE/i,
  /^AWS_/i,
  /^AZURE_/i,
  /^OPENAI_/i,
  /^ANTHROPIC_/i,
  /^GEMINI_/i,
  /^GOOGLE_API/i,
  /^HF_/i,
  /^SSH_AUTH_SOCK$/i,
  /^GPG_AGENT_INFO$/i,
  /^DATABASE_URL$/i,
  /^NETRC$/i,
];

// A URL carrying a password (postgres://user:pass@host) is a secret whatever its name.
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

/** True when a variable looks like it holds a credential. */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  if (ALWAYS_KEPT.has(name)) return false;
  if (SECRET_NAME_PATTERNS.some((pattern) => pattern.test(name))) return true;
  return value !== undefined && URL_WITH_PASSWORD.test(value);
}

/** A copy of `env` without secret-looking variables, and the names removed (never their values). */
export function scrubEnv(env: NodeJS.ProcessEnv): { env: Record<string, string>; removed: string[] } {
  const kept: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretVariable(name, value)) removed.push(name);
    else kept[name] = value;
  }
  return { env: kept, removed: removed.sort() };
}
