/**
 * Values typed along the alphabet or the digits rather than generated. A generator's characters step
 * by one, up or down (`a` then `b`, `8` then `7`), about once in 18 pairs (36 characters once case is
 * folded), so three in a row come about once in 650 places and eight letters in order about once in
 * 10¹⁰; a person filling in a test key types them (`xoxb-0123456789`, `…9abcdefghQw…` where
 * OpenAI's marker goes).
 * Where each is read, and why only there: a test's fabricated secrets are typed too (the peers' true
 * positives hold `12345678-ABCD-…` in exact forms, this repository's tests `0123456789abcdef…` under
 * secret names), so neither judges a value a provider's exact form or a secret name found — only a
 * value gitleaks' generic rule found by some name (`isTypedRun`), a shape looser than any
 * provider's form found (`holdsAlphabetRun`), or what follows a provider's marker that provider's
 * rule refused (`isTypedRun`, secret-provider-marked.ts).
 */

/** Shorter values are what a person picks as a password or a short test key (`abc123`), and stay secrets. */
const TYPED_MIN_LENGTH = 15;

/** How many letters in order make a run no generator writes. */
const ALPHABET_RUN = 8;

type Runs = { inRuns: number; longestLetters: number };

/**
 * A value of 15 characters or more with at least half of them in runs of three or more that step by
 * one (`abc`, `789012`, `zyx`; case folded, `9` then `0`).
 */
export function isTypedRun(value: string): boolean {
  return value.length >= TYPED_MIN_LENGTH && runsOf(value).inRuns * 2 >= value.length;
}

/** A value of 15 characters or more holding eight letters in alphabetical order (`abcdefgh`, case folded). */
export function holdsAlphabetRun(value: string): boolean {
  return value.length >= TYPED_MIN_LENGTH && runsOf(value).longestLetters >= ALPHABET_RUN;
}

function runsOf(value: string): Runs {
  const text = value.toLowerCase();
  let inRuns = 0;
  let longestLetters = 0;
  let run = 1;
  let direction = 0;
  for (let i = 1; i <= text.length; i++) {
    const step = i < text.length ? stepBetween(text.charCodeAt(i - 1), text.charCodeAt(i)) : 0;
    if (step !== 0 && (run === 1 || step === direction)) {
      run++;
      direction = step;
      continue;
    }
    if (run >= 3) inRuns += run;
    if (run > longestLetters && isLetter(text.charCodeAt(i - 1))) longestLetters = run;
    // A change of direction starts the next run at the pair that just stepped (`cba` after `abc`).
    run = step !== 0 ? 2 : 1;
    direction = step;
  }
  return { inRuns, longestLetters };
}

const isLetter = (code: number): boolean => code >= 97 && code <= 122;

/** +1 or -1 when `b` follows or precedes `a` among a–z or 0–9 (the digits wrap: `9` then `0`), else 0. */
function stepBetween(a: number, b: number): number {
  if (isLetter(a) && isLetter(b)) return b - a === 1 ? 1 : a - b === 1 ? -1 : 0;
  if (a < 48 || a > 57 || b < 48 || b > 57) return 0;
  const d = (b - a + 10) % 10;
  return d === 1 ? 1 : d === 9 ? -1 : 0;
}
