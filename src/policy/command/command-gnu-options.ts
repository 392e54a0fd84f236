// Reading options the way GNU getopt_long (and git's parse-options) do, so that an abbreviation
// cannot walk past a check: `sort --o=x` is `sort --output=x`, `git grep --open=vi` is
// `--open-files-in-pager`. Ambiguous prefixes make the program refuse to run, so treating every
// prefix as the dangerous option can only make the guard stricter, never blind.

/** The long option a word names (`--out=x` → `out`), or undefined when it is not a long option. */
export function longName(word: string): string | undefined {
  if (!word.startsWith('--') || word.length === 2) return undefined;
  const at = word.indexOf('=');
  return at < 0 ? word.slice(2) : word.slice(2, at);
}

/** True when the word is `--<prefix of full>` or `--<prefix of full>=…` (`minLength` letters at least). */
export function isLong(word: string, full: string, minLength = 1): boolean {
  const name = longName(word);
  return name !== undefined && name.length >= minLength && full.startsWith(name);
}

/** True when any word before `--` abbreviates one of the long options. */
export function hasLong(argv: readonly string[], ...fulls: string[]): boolean {
  return optionWords(argv).some((w) => fulls.some((f) => isLong(w, f)));
}

/** The value of `--opt=value` or `--opt value` for an abbreviated long option, if present. */
export function longValue(argv: readonly string[], full: string): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as string;
    if (w === '--') return undefined;
    if (!isLong(w, full)) continue;
    const at = w.indexOf('=');
    return at >= 0 ? w.slice(at + 1) : argv[i + 1];
  }
  return undefined;
}

/**
 * True when a short-option cluster before `--` holds the letter, read like getopt: in `-k1o` the
 * `1o` is the value of `-k` when `withArg` lists `k`, so `o` is not an option there.
 */
export function hasShort(argv: readonly string[], letter: string, withArg = ''): boolean {
  return optionWords(argv).some((w) => clusterHas(w, letter, withArg));
}

/** The value of a short option (`-ofile` or `-o file`) in a cluster, if present. */
export function shortValue(argv: readonly string[], letter: string, withArg = ''): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as string;
    if (w === '--') return undefined;
    if (!isCluster(w)) continue;
    for (let k = 1; k < w.length; k++) {
      const l = w[k] as string;
      if (l === letter) return k + 1 < w.length ? w.slice(k + 1) : argv[i + 1];
      if (withArg.includes(l)) break;
    }
  }
  return undefined;
}

const isCluster = (w: string): boolean => w.length > 1 && w.startsWith('-') && !w.startsWith('--');

function clusterHas(word: string, letter: string, withArg: string): boolean {
  if (!isCluster(word)) return false;
  for (let k = 1; k < word.length; k++) {
    const l = word[k] as string;
    if (l === letter) return true;
    if (withArg.includes(l)) return false;
  }
  return false;
}

/** The words before the first `--` (after the program name). */
function optionWords(argv: readonly string[]): string[] {
  const rest = argv.slice(1);
  const end = rest.indexOf('--');
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * Operands of a GNU command: words that are not options, skipping the values of options that take
 * one (`short` letters, `long` names — matched by prefix). Everything after `--` is an operand.
 */
export function operands(argv: readonly string[], short = '', long: readonly string[] = []): string[] {
  const out: string[] = [];
  let ended = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as string;
    if (ended || w === '-' || !w.startsWith('-')) {
      out.push(w);
      continue;
    }
    if (w === '--') {
      ended = true;
      continue;
    }
    if (w.startsWith('--')) {
      if (!w.includes('=') && long.some((l) => isLong(w, l, 2))) i++;
      continue;
    }
    for (let k = 1; k < w.length; k++) {
      if (!short.includes(w[k] as string)) continue;
      if (k === w.length - 1) i++;
      break;
    }
  }
  return out;
}
