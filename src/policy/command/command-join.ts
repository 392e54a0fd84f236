/**
 * The source as bash reads it once it has removed every line continuation — `ec\⏎ho ok` is
 * `echo ok`, `'a\⏎b'` keeps its backslash (single quotes), `"a\⏎b"` is `"ab"` — so a command
 * joined inside a word is judged as what runs instead of refused. Quotes (`'…'`, `"…"`, `$'…'`),
 * escapes, `$$` and comments (which a backslash does not continue) are followed; where that is not
 * enough to know the quoting — a command substitution, a parameter expansion, backquotes, a
 * here-document, before or after joining — it gives up.
 * Contract: pure; undefined when it cannot tell (the caller then refuses, as hiddenContinuation says).
 */
export function joinContinuations(source: string): string | undefined {
  const first = scan(source);
  if (first.unfollowed) return undefined;
  // Joined, `$\⏎(…)` becomes a command substitution whose own quoting this scan does not follow.
  return scan(first.out).unfollowed ? undefined : first.out;
}

type Quote = "'" | '"' | "$'" | undefined;

/** One pass: the text with its continuations removed, and whether it holds quoting not followed here. */
function scan(source: string): { out: string; unfollowed: boolean } {
  let out = '';
  let quote: Quote;
  let comment = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (comment) {
      if (c === '\n') comment = false;
      out += c;
    } else if (quote === "'") {
      if (c === "'") quote = undefined;
      out += c;
    } else if (c === '\\' && next === '\n' && quote !== "$'") {
      i++;
    } else if (c === '\\' && next !== undefined) {
      out += c + next;
      i++;
    } else if (quote === "$'") {
      if (c === "'") quote = undefined;
      out += c;
    } else if (c === '`' || (c === '$' && (next === '(' || next === '{'))) {
      return { out, unfollowed: true };
    } else if (c === '$' && next === '$') {
      out += '$$';
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      out += c;
    } else if (c === '<' && next === '<') {
      return { out, unfollowed: true };
    } else {
      if (c === "'") quote = "'";
      else if (c === '"') quote = '"';
      else if (c === '$' && next === "'") {
        quote = "$'";
        out += c + next;
        i++;
        continue;
      } else if (c === '#' && (out === '' || /[\s;&|()]$/.test(out))) comment = true;
      out += c;
    }
  }
  return { out, unfollowed: false };
}
