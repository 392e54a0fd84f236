/**
 * The command guard's bash grammar (tree-sitter-bash) and word evaluator (command/command-words.ts)
 * as the redactor's reader of command lines (src/audit/shell-words.ts): the audit reads a line's
 * words as the guard reads them. Loaded after the guard, whose load initialises web-tree-sitter
 * (once per process: a second init would replace the module under the guard's parser).
 */
import { createRequire } from 'node:module';
import type { Node, Parser } from 'web-tree-sitter';
import { type ShellWord, useShellWordReader } from '../audit/shell-words';
import { loadCommandGuard } from './command/command-guard';
import { EXPANSION_MARK, evaluateWord } from './command/command-words';
import { withBaselineWasm } from '../v8-heap';

let loading: Promise<void> | undefined;

/**
 * Loads the grammar for the redactor (once) and installs its reader. Contract: never rejects; on
 * failure the redactor keeps its splitter and a later call tries again.
 */
export function loadShellGrammarWords(): Promise<void> {
  loading ??= loadCommandGuard()
    .then(async () => {
      const { Parser: ParserClass, Language } = await import('web-tree-sitter');
      // The guard's own language: a second copy compiled its wasm again (~0.4 s of CPU, tens of MiB).
      const bash =
        (await import('./command/command-judge')).loadedBashLanguage() ??
        (await withBaselineWasm(() =>
          Language.load(createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
        ));
      const parser = new ParserClass();
      parser.setLanguage(bash);
      useShellWordReader((line) => readWords(parser, line));
    })
    .catch(() => {
      loading = undefined;
    });
  return loading;
}

const WORD_TYPES = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'concatenation', 'number']);

/** The words of `line`, or undefined when the grammar cannot read it. */
function readWords(parser: Parser, line: string): ShellWord[] | undefined {
  const tree = parser.parse(line);
  if (!tree) return undefined;
  try {
    if (tree.rootNode.hasError) return undefined;
    const words: ShellWord[] = [];
    collect(tree.rootNode, words);
    return words;
  } finally {
    tree.delete();
  }
}

/**
 * Collects the words under `node`. The pieces of a concatenation (`'a'\''b'`: two quoted strings and
 * an escaped quote) are not words of their own — bash passes them as one — so they are not
 * collected, but the substitutions inside them are, with their words (`echo "$(printf 'x')"`).
 */
function collect(node: Node, out: ShellWord[], piece = false): void {
  if (node.type === 'variable_assignment') {
    const value = node.childForFieldName('value');
    const name = node.childForFieldName('name')?.text ?? '';
    out.push({ start: node.startIndex, end: node.endIndex, value: `${name}=${value ? valueOf(value) : ''}` });
  } else if (WORD_TYPES.has(node.type) && !piece) {
    out.push({ start: node.startIndex, end: node.endIndex, value: valueOf(node) });
  }
  const inner = node.type === 'concatenation' || (piece && !SUBSTITUTIONS.has(node.type));
  for (const child of node.namedChildren) if (child) collect(child, out, inner);
}

const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

function valueOf(node: Node): string {
  const { values } = evaluateWord([node]);
  // An expansion stays as its source text (`$TOKEN`), marked by the evaluator; unmark it.
  return values.join(' ').replaceAll(EXPANSION_MARK, '');
}
