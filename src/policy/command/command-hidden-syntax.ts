import type { Node } from 'web-tree-sitter';
import { arithmeticTargets, isLiteralArithmetic, isPlainVariableName } from './command-arith';
import { hiddenEnvironment } from './command-hidden-builtins';

// Syntax where bash runs code the parse tree does not show: found in the source text and the
// syntax tree before any command is judged. Each finding is one sentence for the approval card.

const SCANNED = [
  'for_statement',
  'arithmetic_expansion',
  'compound_statement',
  'c_style_for_statement',
  'subscript',
  'expansion',
  'test_command',
  'heredoc_redirect',
  'array',
];
const MAY_HIDE = /\$\{|\[|\(\(|<<|\$\[|\b(for|select)\b/;
const ARITH_TEST_OPS = /^-(eq|ne|lt|le|gt|ge)$/;
/** What an unquoted here-document body can hide: `$((x))`, `$[x]`, `${!x}`, `${x@P}`, `${a[x]}`, `${s:x}`. */
const HEREDOC_HIDDEN = /\$\(\(|\$\[|\$\{!|\$\{[^}]*@P\}|\$\{#?[A-Za-z_]\w*\[|\$\{#?[A-Za-z_@*]\w*:[^-=?+]/;

/**
 * A backslash-newline anywhere but between words. Bash removes it before reading words, so
 * `r\⏎m -f x` is `rm -f x` and `"$\⏎(rm x)"` is a command substitution; the parser sees neither.
 * Contract: pure; undefined when every line continuation only separates words.
 */
export function hiddenContinuation(source: string): string | undefined {
  for (let nl = source.indexOf('\n'); nl >= 0; nl = source.indexOf('\n', nl + 1)) {
    let start = nl;
    while (start > 0 && source[start - 1] === '\\') start--;
    if ((nl - start) % 2 === 0) continue;
    const before = source[start - 1];
    const after = source[nl + 1];
    const blank = (c: string | undefined): boolean =>
      c === undefined || c === ' ' || c === '\t' || c === '\n';
    if (!blank(before) && !blank(after)) {
      const near = source.slice(Math.max(0, start - 8), nl + 8).replaceAll('\n', '⏎');
      return `A backslash-newline joins text inside a word near "${near}"; bash reads it differently from the parser, so the command cannot be judged.`;
    }
  }
  return undefined;
}

/**
 * Arithmetic contexts that read variables, array subscripts, indirect (`${!x}`) and prompt
 * (`${x@P}`) expansions anywhere in the tree: bash may run code hidden in a variable's value.
 * Contract: pure; returns [] when the tree shows everything bash will run.
 */
export function hiddenSyntax(root: Node): string[] {
  // Every construct scanned below needs one of these in its text; most commands have none.
  if (!MAY_HIDE.test(root.text)) return [];
  const found: string[] = [];
  for (const node of root.descendantsOfType(SCANNED)) {
    if (!node) continue;
    const problem = judgeNode(node);
    if (problem) found.push(problem);
  }
  return found;
}

function judgeNode(node: Node): string | undefined {
  const text = node.text;
  switch (node.type) {
    // `for PATH in tools; do cat a; done` runs tools/cat: the loop assigns its variable like `PATH=tools`.
    case 'for_statement':
      return hiddenEnvironment([node.childForFieldName('variable')?.text ?? '']);
    case 'arithmetic_expansion': {
      const inner = text.startsWith('$((') ? text.slice(3, -2) : text.slice(2, -1);
      return isLiteralArithmetic(inner) ? hiddenEnvironment(arithmeticTargets(inner)) : arithmetic(text);
    }
    case 'compound_statement': {
      if (!text.startsWith('((')) return undefined;
      const inner = text.slice(2, -2);
      return isLiteralArithmetic(inner) ? hiddenEnvironment(arithmeticTargets(inner)) : arithmetic(text);
    }
    case 'c_style_for_statement': {
      const header = /^for\s*\(\(([\s\S]*?)\)\)/.exec(text)?.[1] ?? text;
      return header.split(';').every(isLiteralArithmetic)
        ? hiddenEnvironment(header.split(';').flatMap(arithmeticTargets))
        : arithmetic(`for ((${header}))`);
    }
    case 'subscript': {
      const index = node.childForFieldName('index')?.text ?? '';
      return isPlainVariableName(`a[${index}]`)
        ? undefined
        : `The array subscript [${index}] is evaluated as arithmetic, which can run code hidden in a variable.`;
    }
    case 'expansion':
      return expansion(text);
    case 'test_command':
      return testCommand(node);
    case 'heredoc_redirect': {
      const start = node.children.find((c) => c?.type === 'heredoc_start')?.text ?? '';
      const body = node.children.find((c) => c?.type === 'heredoc_body')?.text ?? '';
      const quoted = /['"\\]/.test(start);
      return !quoted && HEREDOC_HIDDEN.test(body)
        ? 'A here-document expands arithmetic, subscripts or indirect expansions, which can run hidden code.'
        : undefined;
    }
    case 'array':
      return /\[[^\]]*\]=/.test(text) &&
        [...text.matchAll(/\[([^\]]*)\]=/g)].some((m) => !isLiteralArithmetic(m[1] ?? ''))
        ? `The array keys in ${text} are evaluated as arithmetic, which can run code hidden in a variable.`
        : undefined;
    default:
      return undefined;
  }
}

const arithmetic = (text: string): string =>
  `${text} evaluates variables as arithmetic, and bash runs any $(…) hidden in their values; the guard cannot see it.`;

function expansion(text: string): string | undefined {
  const inner = text.slice(2, -1);
  if (inner.startsWith('!') && !/^![A-Za-z_]\w*(?:[*@]|\[[@*]\])$/.test(inner)) {
    return `${text} is an indirect expansion: it reads the variable another variable names, which can run hidden code.`;
  }
  if (/@P$/.test(inner)) return `${text} expands its value as a prompt, running any $(…) inside it.`;
  // `${PATH:=tools}` assigns when PATH is unset or empty, like `PATH=tools`.
  const assigned = /^([A-Za-z_]\w*)(?:\[[^\]]*\])?:?=/.exec(inner)?.[1];
  const env = assigned === undefined ? undefined : hiddenEnvironment([assigned]);
  if (env) return env;
  const substring = /^#?(?:[A-Za-z_]\w*|[@*]|\d)(?:\[[^\]]*\])?:(?![-=?+])([\s\S]*)$/.exec(inner);
  if (substring && !(substring[1] ?? '').split(':').every(isLiteralArithmetic)) {
    return `The offsets of ${text} are evaluated as arithmetic, which can run code hidden in a variable.`;
  }
  return undefined;
}

function testCommand(node: Node): string | undefined {
  for (const b of node.descendantsOfType(['binary_expression', 'unary_expression'])) {
    if (!b) continue;
    const op =
      b.children.find((c) => c?.type === 'test_operator')?.text ??
      b.childForFieldName('operator')?.text ??
      '';
    if (ARITH_TEST_OPS.test(op)) {
      const sides = [b.childForFieldName('left')?.text ?? '', b.childForFieldName('right')?.text ?? ''];
      if (!sides.every(isLiteralArithmetic))
        return `${node.text} compares with ${op}, which evaluates its operands as arithmetic and can run hidden code.`;
    }
    if (op === '-v') {
      const operand = b.namedChildren
        .filter((c) => c && c.type !== 'test_operator')
        .map((c) => c?.text ?? '')
        .join('');
      if (!isPlainVariableName(unquote(operand)))
        return `${node.text} tests a subscript, which bash evaluates as arithmetic and can run hidden code.`;
    }
  }
  return undefined;
}

const unquote = (s: string): string => s.replace(/^(['"])([\s\S]*)\1$/, '$2');
