/** A run of word text after quote removal; quoted text is never brace-expanded. */
export type Piece = { text: string; quoted: boolean };

type Token = { ch: string; special: boolean };
type Found = { start: number; end: number; alternatives: Token[][] };

/** More words than this from one source word: the guard stops expanding and treats it as unknown. */
const MAX_WORDS = 64;

/**
 * Bash brace expansion over unquoted text (`{rm,-rf,/}` is three words, `a{1..3}` three more),
 * because a guard that reads `{rm,-rf,/}` as one word would wave `rm -rf /` through.
 * Returns undefined when the expansion would produce more than MAX_WORDS words.
 */
export function expandBraces(pieces: readonly Piece[]): string[] | undefined {
  const tokens: Token[] = [];
  for (const piece of pieces) {
    if (piece.quoted) tokens.push({ ch: piece.text, special: false });
    else for (const ch of piece.text) tokens.push({ ch, special: true });
  }
  if (!tokens.some((t) => isSpecial(t, '{'))) return [join(tokens)];
  if (!withinBudget(tokens)) return undefined;
  const out: string[] = [];
  return expandInto(tokens, out) ? out : undefined;
}

function expandInto(tokens: Token[], out: string[]): boolean {
  const found = findBrace(tokens);
  if (!found) {
    out.push(join(tokens));
    return out.length <= MAX_WORDS;
  }
  if (found.alternatives.length > MAX_WORDS) return false;
  const before = tokens.slice(0, found.start);
  const after = tokens.slice(found.end + 1);
  return found.alternatives.every((alt) => expandInto([...before, ...alt, ...after], out));
}

/** Multiplies the alternatives of the top-level groups first, so `{a,b}` × 500 fails fast. */
function withinBudget(tokens: readonly Token[]): boolean {
  let product = 1;
  for (let i = 0; i < tokens.length; i++) {
    if (!isSpecial(tokens[i], '{')) continue;
    const found = matchFrom(tokens, i);
    if (!found) continue;
    product *= found.alternatives.length;
    if (product > MAX_WORDS) return false;
    i = found.end;
  }
  return true;
}

function findBrace(tokens: readonly Token[]): Found | undefined {
  for (let start = 0; start < tokens.length; start++) {
    if (!isSpecial(tokens[start], '{')) continue;
    const found = matchFrom(tokens, start);
    if (found) return found;
  }
  return undefined;
}

function matchFrom(tokens: readonly Token[], start: number): Found | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let j = start + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (isSpecial(t, '{')) depth++;
    else if (isSpecial(t, ',') && depth === 0) commas.push(j);
    else if (isSpecial(t, '}')) {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (commas.length > 0) {
        const bounds = [start, ...commas, j];
        const alternatives = bounds.slice(1).map((end, k) => tokens.slice((bounds[k] as number) + 1, end));
        return { start, end: j, alternatives };
      }
      const sequence = expandSequence(tokens.slice(start + 1, j));
      return sequence ? { start, end: j, alternatives: sequence } : undefined;
    }
  }
  return undefined;
}

/** `{1..5}`, `{10..0..2}`, `{a..e}`; anything else is not an expansion. */
function expandSequence(inner: readonly Token[]): Token[][] | undefined {
  if (!inner.every((t) => t.special)) return undefined;
  const text = join(inner);
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(text);
  const match = numeric ?? letters;
  if (!match) return undefined;
  const from = numeric ? Number(match[1]) : (match[1] as string).charCodeAt(0);
  const to = numeric ? Number(match[2]) : (match[2] as string).charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  // Too many words: report an impossible alternative count so the caller gives up.
  if (count > MAX_WORDS) return Array.from({ length: MAX_WORDS + 1 }, () => []);
  const dir = to >= from ? 1 : -1;
  return Array.from({ length: count }, (_, k) => {
    const n = from + dir * k * step;
    return [{ ch: numeric ? String(n) : String.fromCharCode(n), special: false }];
  });
}

const isSpecial = (t: Token | undefined, ch: string): boolean => t?.special === true && t.ch === ch;
const join = (tokens: readonly Token[]): string => tokens.map((t) => t.ch).join('');
