/**
 * What a command rule (`"command": "git log *"`) and a command-prefix grant cover.
 * Loosening is exact: an allow rule covers a command only when every part is a plain simple
 * command — literal words, written as the rule reads them, no substitution, expansion, glob,
 * assignment or wrapper — that the rule matches, writing nothing the rule does not name.
 * Tightening is broad: an ask or deny rule catches a command when any one part matches.
 */
import { destructiveReason } from './command/command-destructive';
import type { CommandPart, CommandVerdict } from './command/command-types';

/** A parsed command pattern: literal leading words, whether more may follow (`*`), write targets it names. */
export type CommandPattern = { tokens: string[]; open: boolean; writes?: string[] };

/** `>`, `>>`, `>|`, `2>`, `&>`, `&>>`, optionally glued to their target (`>out.txt`). */
const REDIRECT = /^(?:\d*|&)>>?\|?/;

/**
 * Splits `git diff *` into the tokens `git diff` and whether more arguments may follow; redirections
 * in the pattern (`npm test > out.txt`) name write targets instead of words.
 */
export function parseCommandPrefix(prefix: string): CommandPattern {
  const words: string[] = [];
  const writes: string[] = [];
  const raw = prefix.trim().split(/\s+/);
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i] as string;
    const op = REDIRECT.exec(word);
    if (!op) {
      words.push(word);
      continue;
    }
    const glued = word.slice(op[0].length);
    const target = glued || raw[++i];
    if (target) writes.push(target);
  }
  const open = words[words.length - 1] === '*';
  const tokens = open ? words.slice(0, -1) : words;
  return writes.length > 0 ? { tokens, open, writes } : { tokens, open };
}

/** Whole-token prefix match of one part's argv. */
export function argvMatchesPrefix(
  argv: readonly string[],
  prefix: { tokens: string[]; open: boolean },
): boolean {
  if (argv.length < prefix.tokens.length) return false;
  if (!prefix.open && argv.length !== prefix.tokens.length) return false;
  for (let i = 0; i < prefix.tokens.length; i++) if (prefix.tokens[i] !== argv[i]) return false;
  return true;
}

/** Characters a bare (unquoted) word may hold and still mean exactly itself to bash. */
const BARE = /^[A-Za-z0-9_@%+=:,./-]$/;
/** Inside double quotes these still expand or escape. */
const LIVE_IN_DOUBLE = /[$`\\!]/;
const MARK = '\u0000';

/**
 * The words of a part's source text when every one is literal (bare safe characters, single quotes,
 * double quotes without expansions); undefined when bash would expand, glob or escape anything
 * (`$x`, `*`, `~`, `{a,b}`, `\`), or when the text holds more than words (`;`, `|`, `(`, `<`, `#`).
 */
export function literalWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) return undefined;
      const body = text.slice(i + 1, end);
      if (ch === '"' && LIVE_IN_DOUBLE.test(body)) return undefined;
      word += body;
      inWord = true;
      i = end;
    } else if (BARE.test(ch)) {
      word += ch;
      inWord = true;
    } else if (ch === '~' && /[A-Za-z0-9_.-]$/.test(word)) {
      // `HEAD~1`: bash expands a tilde only at a word's start or after `=` / `:`.
      word += ch;
    } else {
      return undefined;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * Whether a part is a plain simple command: its source text is literal words and those words are
 * exactly the argv the guard judged. Assignments (`FOO=1 git log`), wrappers (`env`, `timeout`,
 * `xargs`), substitutions and expansions all make the two differ, or mark a word as dynamic.
 */
export function isPlainPart(part: CommandPart): boolean {
  if (part.argv.length === 0 || part.argv.some((w) => w.includes(MARK))) return false;
  const words = literalWords(part.text);
  if (!words || words.length !== part.argv.length) return false;
  for (let i = 0; i < words.length; i++) if (words[i] !== part.argv[i]) return false;
  return true;
}

/** Streams, not files: writing them changes nothing. */
const HARMLESS = /^\/dev\/(null|stdout|stderr|fd\/[12])$/;

/** A write target the pattern names: a redirection in the pattern, a word, or the value of `--opt=target`. */
function names(pattern: CommandPattern, target: string): boolean {
  if (HARMLESS.test(target)) return true;
  if (pattern.writes?.includes(target)) return true;
  return pattern.tokens.some((t) => t === target || t.endsWith(`=${target}`));
}

/** One part as an allow rule or a grant sees it: plain, matched, and writing only what the pattern names. */
export function partCoveredBy(part: CommandPart, pattern: CommandPattern): boolean {
  if (!argvMatchesPrefix(part.argv, pattern) || !isPlainPart(part)) return false;
  // A trailing `*` covers further operands, not words that make the program destroy (`find *` never
  // covers `find . -delete`); a rule whose own words destroy (`rm *`) was written for that.
  if (part.destructive && pattern.open && destructiveReason(pattern.tokens) === undefined) return false;
  for (const target of part.writes ?? []) if (!names(pattern, target)) return false;
  return true;
}

/** Loosening: every part of a fully judged command is covered. Contract: false for anything but `ok`. */
export function commandCoveredBy(verdict: CommandVerdict | undefined, pattern: CommandPattern): boolean {
  if (!verdict || verdict.kind !== 'ok' || verdict.parts.length === 0) return false;
  return verdict.parts.every((p) => partCoveredBy(p, pattern));
}

/** Tightening: any one part's argv (after unwrapping) or literal words match, whatever the verdict. */
export function commandHitBy(verdict: CommandVerdict | undefined, pattern: CommandPattern): boolean {
  if (!verdict) return false;
  return verdict.parts.some((p) => {
    if (argvMatchesPrefix(p.argv, pattern)) return true;
    const words = literalWords(p.text);
    return words !== undefined && argvMatchesPrefix(words, pattern);
  });
}
