/**
 * Command lines that are only words: letters, digits and `_ . / : , + @ % = -`, parted by spaces
 * (`ls -la`, `touch x`, `npm test`, `git status`, `make CC=gcc`). Nothing in them is syntax to bash —
 * no quote, escape, expansion, glob, brace, tilde, comment, operator, redirection or reserved word —
 * so bash and the grammar both read them as one simple command whose words are the line split at
 * its spaces, and the collector reads them so without the grammar (command-parse.ts).
 * Why a second reader beside tree-sitter-bash: the grammar's load is ~140 ms of the first command
 * a process judges (its module, runtime and language compiled, and the first parse), more than the
 * whole card of a file write; most commands a model runs are of this form, and their words are known
 * without it. test/policy/command/command-plain.test.ts holds this reader to the grammar's, word for word
 * and verdict for verdict.
 */

/**
 * The first word adds no `=` (`A=1 ls` assigns) and no `%` (`%1` names a job), no word may be one
 * of bash's reserved words (`time ls`, `if`, `done`), and the first is no declaration (`export A=1`,
 * `local x`: the grammar reads their assignments): those lines the grammar reads.
 */
const PLAIN_LINE = /^ *[A-Za-z0-9_./:,+@-]+(?: +[A-Za-z0-9_./:,+@%=-]+)* *$/;

const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
]);

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'unset']);

/** The words of a plain command line, or undefined when the line is anything more (the grammar reads it). */
export function plainWords(line: string): string[] | undefined {
  if (!PLAIN_LINE.test(line)) return undefined;
  const words = line.split(' ').filter((w) => w !== '');
  return words.some((w) => RESERVED.has(w)) || DECLARATIONS.has(words[0] as string) ? undefined : words;
}
