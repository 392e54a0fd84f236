/**
 * The words of a command line, where they are in it and what they say once the shell has removed
 * their quotes — read with the command guard's own bash grammar (tree-sitter-bash) and its word
 * evaluator (src/policy/command/command-words.ts), so the redactor reads a line as the guard does.
 * The grammar loads after the guard's (web-tree-sitter must be initialised once per process, by the
 * guard); until then, or where the grammar cannot read a line, a small quote-aware splitter stands in.
 */
import { createRequire } from 'node:module';
import type { Node, Parser } from 'web-tree-sitter';
import { loadCommandGuard } from '../policy/command/command-guard';
import { EXPANSION_MARK, evaluateWord } from '../policy/command/command-words';

/** One word: its span in the line (UTF-16 offsets) and its value with the quotes removed. */
export type ShellWord = { start: number; end: number; value: string };

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the bash grammar for the redactor, once (after the command guard's, which initialises
 * web-tree-sitter). Contract: never rejects; on failure the splitter stands in and a later call tries again.
 */
export function loadShellWords(): Promise<void> {
  loading ??= loadCommandGuard()
    .then(async () => {
      const { Parser: ParserClass, Language } = await import('web-tree-sitter');
      const bash = await Language.load(
        createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
      );
      const p = new ParserClass();
      p.setLanguage(bash);
      parser = p;
    })
    .catch(() => {
      loading = undefined;
    });
  return loading;
}

/** Whether the grammar is loaded (the splitter stands in until it is). */
export const shellGrammarLoaded = (): boolean => parser !== undefined;

const WORD_TYPES = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'concatenation', 'number']);

/**
 * The words of `line`: each argument, command name, assignment (`NAME=value` as one word) and
 * redirection target. Contract: never throws; uses the splitter when the grammar is not loaded
 * or cannot read the line.
 */
export function shellWords(line: string): ShellWord[] {
  if (!parser) {
    void loadShellWords();
    return splitWords(line);
  }
  try {
    const tree = parser.parse(line);
    if (!tree) return splitWords(line);
    try {
      if (tree.rootNode.hasError) return splitWords(line);
      const words: ShellWord[] = [];
      collect(tree.rootNode, words);
      return words;
    } finally {
      tree.delete();
    }
  } catch {
    return splitWords(line);
  }
}

function collect(node: Node, out: ShellWord[]): void {
  if (node.type === 'variable_assignment') {
    const value = node.childForFieldName('value');
    const name = node.childForFieldName('name')?.text ?? '';
    out.push({ start: node.startIndex, end: node.endIndex, value: `${name}=${value ? valueOf(value) : ''}` });
  } else if (WORD_TYPES.has(node.type)) {
    out.push({ start: node.startIndex, end: node.endIndex, value: valueOf(node) });
  }
  // Words inside substitutions and strings are words too (`echo "$(printf 'x')"`).
  for (const child of node.namedChildren) if (child) collect(child, out);
}

function valueOf(node: Node): string {
  const { values } = evaluateWord([node]);
  // An expansion stays as its source text (`$TOKEN`), marked by the evaluator; unmark it.
  return values.join(' ').replaceAll(EXPANSION_MARK, '');
}

/**
 * The stand-in: words split at unquoted blanks and operators, `'…'`, `"…"` (with `\` escapes),
 * `$'…'` and `\x` read as bash reads them (closely enough to see what a word says).
 */
export function splitWords(line: string): ShellWord[] {
  const words: ShellWord[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /[\s;&|()<>]/.test(line[i] as string)) i++;
    if (i >= line.length) break;
    const start = i;
    let value = '';
    while (i < line.length && !/[\s;&|()<>]/.test(line[i] as string)) {
      const c = line[i] as string;
      if (c === "'") {
        const close = line.indexOf("'", i + 1);
        const end = close === -1 ? line.length : close;
        value += line.slice(i + 1, end);
        i = end + 1;
      } else if (c === '$' && line[i + 1] === "'") {
        const [text, next] = ansiC(line, i + 2);
        value += text;
        i = next;
      } else if (c === '"') {
        i++;
        while (i < line.length && line[i] !== '"') {
          if (line[i] === '\\' && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1] as string)) i++;
          value += line[i];
          i++;
        }
        i++;
      } else if (c === '\\' && i + 1 < line.length) {
        value += line[i + 1];
        i += 2;
      } else {
        value += c;
        i++;
      }
    }
    words.push({ start, end: Math.min(i, line.length), value });
  }
  return words;
}

const ANSI_C: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
};

/** A `$'…'` body from `from`, its escapes decoded (`\n`, `\xHH`, `\'`, …); returns [text, index after the quote]. */
function ansiC(line: string, from: number): [string, number] {
  let text = '';
  let i = from;
  while (i < line.length && line[i] !== "'") {
    if (line[i] === '\\' && i + 1 < line.length) {
      const e = line[i + 1] as string;
      const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(line.slice(i + 2)) : null;
      if (hex) {
        text += String.fromCharCode(Number.parseInt(hex[0], 16));
        i += 2 + hex[0].length;
        continue;
      }
      text += ANSI_C[e] ?? e;
      i += 2;
      continue;
    }
    text += line[i];
    i++;
  }
  return [text, i + 1];
}
