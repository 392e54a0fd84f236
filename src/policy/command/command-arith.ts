// Bash evaluates every variable an arithmetic expression reads as another arithmetic expression,
// and an array subscript in that expression runs its `$(…)`: with x='a[$(rm -rf ~)]', `$((x))`,
// `(( x ))`, `let y=x`, `[[ x -eq 1 ]]` and `${s:x}` all run the rm. So an arithmetic context is
// only judged when it reads no variable at all; anything else asks.

/** Special parameters that always expand to a plain number (`$#`, `$?`, `$$`, `$!`, `${#name}`). */
const NUMERIC_PARAMS = /\$[#?$!]|\$\{#[A-Za-z_]\w*\}|\$\{[#?$!]\}/g;
const NUMBERS = /\b\d+#[0-9A-Za-z@_]+|\b0[xX][0-9a-fA-F]+|\b\d+/g;
/** `x=1` (not `x==1`): a plain assignment target is written, not read. */
const ASSIGN_TARGET = /(^|[;,(\s])[A-Za-z_]\w*\s*=(?!=)/g;

/**
 * True when an arithmetic expression reads no variable and runs nothing: numbers, operators,
 * parentheses and plain assignment targets only.
 * Contract: pure; false for anything it cannot be sure of (quotes, `$`, backticks, brackets).
 */
export function isLiteralArithmetic(expr: string): boolean {
  const withoutParams = expr.replace(NUMERIC_PARAMS, '0');
  if (/[$`[\]"'\\{}]/.test(withoutParams)) return false;
  const rest = withoutParams.replace(NUMBERS, ' ').replace(ASSIGN_TARGET, '$1');
  return !/[A-Za-z_@]/.test(rest);
}

/** The variables a literal arithmetic expression assigns (`((PATH = 1))` sets $PATH). */
export function arithmeticTargets(expr: string): string[] {
  return [...expr.matchAll(ASSIGN_TARGET)].map((m) => m[0].slice(m[1]?.length ?? 0).replace(/\s*=$/, ''));
}

/** True when `name` or `name[sub]` names a variable without running anything (a literal subscript). */
export function isPlainVariableName(word: string): boolean {
  const m = /^[A-Za-z_]\w*(?:\[(.*)\])?$/s.exec(word);
  if (!m) return !word.includes('[');
  const sub = m[1];
  return sub === undefined || sub === '@' || sub === '*' || isLiteralArithmetic(sub);
}
