/**
 * The words of a command line, where they are in it and what they say once the shell has removed
 * their quotes. The command guard's own bash grammar reads them once it is loaded
 * (src/policy/shell-grammar-words.ts hands its reader in: this layer imports no policy); until then,
 * or where the grammar cannot read a line, a small quote-aware splitter stands in.
 */

/** One word: its span in the line (UTF-16 offsets) and its value with the quotes removed. */
export type ShellWord = { start: number; end: number; value: string };

/** Reads a line into its words, or undefined when it cannot (the splitter is used then). */
export type ShellWordReader = (line: string) => ShellWord[] | undefined;

let reader: ShellWordReader | undefined;

/** Installs the grammar's reader (once the guard's grammar is loaded); `undefined` goes back to the splitter. */
export function useShellWordReader(next: ShellWordReader | undefined): void {
  reader = next;
}

/** Whether the grammar reads command lines (the splitter stands in until it does). */
export const shellGrammarLoaded = (): boolean => reader !== undefined;

/**
 * The words of `line`: each argument, command name, assignment (`NAME=value` as one word) and
 * redirection target, with the words inside them. Contract: never throws.
 */
export function shellWords(line: string): ShellWord[] {
  try {
    return reader?.(line) ?? splitWords(line);
  } catch {
    return splitWords(line);
  }
}

/** Blanks and the operators that end an unquoted word: ` \t\n\r ; & | ( ) < >`. */
function isBreak(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 59 ||
    code === 38 ||
    code === 124 ||
    code === 40 ||
    code === 41 ||
    code === 60 ||
    code === 62
  );
}

/**
 * The stand-in: words split at unquoted blanks and operators, `'…'`, `"…"` (with `\` escapes),
 * `$'…'` and `\x` read as bash reads them (closely enough to see what a word says).
 */
export function splitWords(line: string): ShellWord[] {
  const words: ShellWord[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && isBreak(line.charCodeAt(i))) i++;
    if (i >= line.length) break;
    const start = i;
    let value = '';
    while (i < line.length && !isBreak(line.charCodeAt(i))) {
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
