/**
 * marked's lexer, behind a function: the first frame draws no model text, so the bundle loads
 * marked (~50 kB, and its rules built at import) when the first text is drawn or the idle warm-up
 * asks for it (scripts/side-modules.mjs swaps this file for a synchronous load of
 * dist/chunks/marked.cjs).
 */
import { lexer } from 'marked';

/** marked's `lexer`, exactly as the package exports it. */
export function markedLexer(): typeof lexer {
  return lexer;
}
