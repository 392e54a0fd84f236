/**
 * The project files a hook command runs: a hook runs on the person's machine, outside the sandbox, so
 * a file of the project it names is as good as the hook itself — the model must not be able to write
 * it (the fence seals these paths) and trust binds their content (project-files.ts). Read from the
 * command's words: each word (quotes taken off, `$CLAUDE_PROJECT_DIR` and `$WARDEN_PROJECT_DIR` put
 * in) that names a path inside the project and contains a `/` or names an existing file there.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

const PROJECT_VARIABLES = /\$\{?(?:CLAUDE_PROJECT_DIR|WARDEN_PROJECT_DIR)\}?/g;
/** A word that can be a file name of the project and a fence pattern as it is (no glob characters). */
const PLAIN_PATH = /^[\w@%+=:,./-]+$/;
const MAX_WORDS = 256;

/** The commands of a config file's `hooks` (either shape), read leniently from parsed JSON. Never throws. */
export function hookCommandsOf(hooks: unknown): string[] {
  if (typeof hooks !== 'object' || hooks === null) return [];
  const out: string[] = [];
  for (const entries of Object.values(hooks as Record<string, unknown>)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as Record<string, unknown>[]) {
      const inner = Array.isArray(entry?.hooks) ? (entry.hooks as Record<string, unknown>[]) : [entry];
      for (const h of inner) if (typeof h?.command === 'string') out.push(h.command);
    }
  }
  return out;
}

/**
 * The project-relative paths (`/`-separated) the commands name, lexically and, where they exist, as
 * their real paths (a link's target is the file that runs). Contract: never throws.
 */
export function hookFilesIn(commands: readonly string[], root: string): string[] {
  const realRoot = safeReal(root) ?? resolve(root);
  const found = new Set<string>();
  for (const command of commands) {
    for (const word of wordsOf(command.replace(PROJECT_VARIABLES, realRoot)).slice(0, MAX_WORDS)) {
      if (word.includes('$') || !PLAIN_PATH.test(word)) continue;
      const absolute = resolve(realRoot, word);
      const lexical = inside(realRoot, absolute);
      if (lexical === undefined) continue;
      const exists = isFile(absolute);
      if (!word.includes('/') && !exists) continue;
      found.add(lexical);
      const real = exists ? safeReal(absolute) : undefined;
      const realRelative = real ? inside(realRoot, real) : undefined;
      if (realRelative) found.add(realRelative);
    }
  }
  return [...found].sort();
}

/** The shell words of a command, quotes removed (an operator ends a word); what it cannot split stays as is. */
function wordsOf(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  const end = () => {
    if (word !== '') words.push(word);
    word = '';
  };
  for (const c of command) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") quote = c;
    else if (/\s|[;&|()<>`]/.test(c)) end();
    else word += c;
  }
  end();
  return words;
}

function inside(root: string, absolute: string): string | undefined {
  const rel = relative(root, absolute);
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return rel.split(sep).join('/');
}

function isFile(path: string): boolean {
  try {
    return !lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function safeReal(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
