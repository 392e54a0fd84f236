import type { Node } from 'web-tree-sitter';
import { expandBraces, type Piece } from './command-brace';
import { childNodes, SUBSTITUTIONS, substitutionsIn } from './command-tree';

/**
 * Brackets the source text of an expansion the guard cannot resolve statically (`$VAR`, `$(…)`),
 * so rules can see it: a NUL can never occur in a real shell word, so the mark is unambiguous.
 */
export const EXPANSION_MARK = '\u0000';

/** True when the word holds an expansion whose value is only known at run time. */
export const isDynamic = (value: string): boolean => value.includes(EXPANSION_MARK);

/** The words one source word becomes (brace expansion can make several) and the substitutions to walk. */
export type WordValue = { values: string[]; substitutions: Node[]; glob: boolean };

const DQ_ESCAPABLE = new Set(['$', '`', '"', '\\', '\n']);

/**
 * Evaluates adjacent syntax nodes that form one shell word: quote removal, `$'…'` decoding,
 * `~` / `$HOME` / `${HOME}` at the start become `~`, other expansions are marked, braces expand.
 */
export function evaluateWord(nodes: readonly Node[]): WordValue {
  const pieces: Piece[] = [];
  const substitutions: Node[] = [];
  appendNodes(nodes, pieces, substitutions);
  const values = expandBraces(pieces) ?? [markDynamic(nodes.map((n) => n.text).join(''))];
  // Pathname expansion happens after quote removal, on unquoted `*`, `?` and `[` only.
  const glob = pieces.some((p) => !p.quoted && /[*?[]/.test(p.text));
  return { values, substitutions, glob };
}

/** Marks an unresolved expansion by its source text. */
export const markDynamic = (text: string): string => `${EXPANSION_MARK}${text}${EXPANSION_MARK}`;

function appendNodes(nodes: readonly Node[], pieces: Piece[], subs: Node[]): void {
  nodes.forEach((node, i) => {
    // `$"…"` (a translated string) arrives as a bare `$` token followed by the string.
    if (node.type === '$' && nodes[i + 1]?.type === 'string') return;
    appendNode(node, pieces, subs);
  });
}

function appendNode(node: Node, pieces: Piece[], subs: Node[]): void {
  switch (node.type) {
    case 'concatenation':
      appendNodes(childNodes(node), pieces, subs);
      return;
    case 'word':
    case 'number':
      appendUnquoted(node.text, pieces);
      return;
    case 'raw_string':
      pieces.push({ text: node.text.slice(1, -1), quoted: true });
      return;
    case 'ansi_c_string':
      pieces.push({ text: decodeAnsiC(node.text.slice(2, -1)), quoted: true });
      return;
    case 'string':
      appendDoubleQuoted(node, pieces, subs);
      return;
    case 'translated_string':
      appendNodes(childNodes(node), pieces, subs);
      return;
    case 'simple_expansion':
    case 'expansion':
      pieces.push({ text: expansionValue(node, atStart(pieces)), quoted: true });
      subs.push(...substitutionsIn(node));
      return;
    case 'command_substitution':
    case 'process_substitution':
      pieces.push({ text: markDynamic(node.text), quoted: true });
      subs.push(node);
      return;
    default:
      if (hasSubstitutionOrExpansion(node)) {
        pieces.push({ text: markDynamic(node.text), quoted: true });
        subs.push(...substitutionsIn(node));
      } else {
        pieces.push({ text: node.text, quoted: false });
      }
  }
}

function appendDoubleQuoted(node: Node, pieces: Piece[], subs: Node[]): void {
  // An empty "" is still a word: `rm -rf ""` has one (empty) operand.
  pieces.push({ text: '', quoted: true });
  for (const child of childNodes(node)) {
    if (child.type === '"') continue;
    if (child.type === '$') pieces.push({ text: '$', quoted: true });
    else if (child.type === 'string_content')
      pieces.push({ text: unescapeDoubleQuoted(child.text), quoted: true });
    else if (child.type === 'simple_expansion' || child.type === 'expansion') {
      pieces.push({ text: expansionValue(child, atStart(pieces)), quoted: true });
      subs.push(...substitutionsIn(child));
    } else if (SUBSTITUTIONS.includes(child.type)) {
      pieces.push({ text: markDynamic(child.text), quoted: true });
      subs.push(child);
    } else {
      pieces.push({ text: markDynamic(child.text), quoted: true });
      subs.push(...substitutionsIn(child));
    }
  }
}

/** Unquoted text: a backslash quotes the next character; backslash-newline disappears; `~` at the start is home. */
function appendUnquoted(text: string, pieces: Piece[]): void {
  let rest = text;
  if (atStart(pieces) && (rest === '~' || rest.startsWith('~/'))) {
    pieces.push({ text: '~', quoted: true });
    rest = rest.slice(1);
  }
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i] as string;
    if (ch === '\\' && i + 1 < rest.length) {
      const next = rest[++i] as string;
      if (next !== '\n') pieces.push({ text: next, quoted: true });
    } else {
      pieces.push({ text: ch, quoted: false });
    }
  }
}

function unescapeDoubleQuoted(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\\' && next !== undefined && DQ_ESCAPABLE.has(next)) {
      if (next !== '\n') out += next;
      i++;
    } else out += ch;
  }
  return out;
}

function expansionValue(node: Node, start: boolean): string {
  const named = node.namedChildren;
  const only = named.length === 1 ? named[0] : undefined;
  // Only a plain $HOME / ${HOME} at the start of a word is the home directory; `${HOME:-/}` is not.
  if (start && only?.type === 'variable_name' && only.text === 'HOME') return '~';
  return markDynamic(node.text);
}

const atStart = (pieces: readonly Piece[]): boolean => pieces.every((p) => p.text === '');

function hasSubstitutionOrExpansion(node: Node): boolean {
  return (
    node.descendantsOfType([...SUBSTITUTIONS, 'simple_expansion', 'expansion', 'arithmetic_expansion'])
      .length > 0
  );
}

const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of a `$'…'` string the way bash does (enough for every escape that names a letter). */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (whole, esc: string) => {
      const head = esc[0] as string;
      if (head === 'x' || head === 'u' || head === 'U')
        return safeCodePoint(Number.parseInt(esc.slice(1), 16), whole);
      if (/^[0-7]/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
      if (head === 'c' && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
      return ANSI_SIMPLE[esc] ?? whole;
    },
  );
}

function safeCodePoint(code: number, fallback: string): string {
  try {
    return String.fromCodePoint(code);
  } catch {
    return fallback;
  }
}
