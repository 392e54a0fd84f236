/**
 * Syntax highlighting for diffs and code blocks with highlight.js's grammars (through lowlight),
 * loaded on first use by a dynamic import: the bundle keeps it in a chunk of its own, so start-up
 * never pays for it. Until it has loaded, and for languages it does not know, callers get
 * `undefined` and show the text plain. Colour is the caller's choice (NO_COLOR: do not ask).
 */
import type { TokenKind, TokenSegment } from '../drawer/preview/diff-line';

export type { TokenKind, TokenSegment } from '../drawer/preview/diff-line';

type Engine = {
  highlight: (lang: string, text: string) => { children: HastNode[] };
  registered: (name: string) => boolean;
};
type HastNode = {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
};

/** Lines longer than this stay plain: a grammar's cost grows with the line, and such lines are cut anyway. */
const MAX_LINE = 2000;
/** Highlighted lines kept (a diff view re-renders the same lines on every key). */
const CACHE_LINES = 4000;

let engine: Engine | undefined;
let loading: Promise<boolean> | undefined;
const cache = new Map<string, TokenSegment[] | null>();

/**
 * Starts loading the grammars (once); resolves true when highlighting is available.
 * Contract: never rejects; a failed load leaves everything plain.
 */
export function loadHighlighter(): Promise<boolean> {
  loading ??= import('lowlight')
    .then((m) => {
      engine = m.createLowlight(m.common) as unknown as Engine;
      return true;
    })
    .catch(() => false);
  return loading;
}

/** True once the grammars are loaded. */
export function highlighterReady(): boolean {
  return engine !== undefined;
}

/** Extensions highlight.js does not list as aliases of the grammar that reads them. */
const EXTRA: Record<string, string> = {
  mjs: 'javascript',
  cjs: 'javascript',
  mts: 'typescript',
  cts: 'typescript',
  jsonc: 'json',
  yml: 'yaml',
  h: 'c',
  hpp: 'cpp',
  htm: 'xml',
  html: 'xml',
  svg: 'xml',
};

/**
 * The grammar for a file path (by extension or name) or a code block's language tag; undefined
 * when none is known or the grammars are not loaded yet.
 */
export function languageFor(pathOrLang: string | undefined): string | undefined {
  if (!engine || !pathOrLang) return undefined;
  const base = pathOrLang.split('/').pop()?.toLowerCase() ?? '';
  const ext = base.includes('.') ? (base.split('.').pop() ?? '') : base;
  if (base === 'makefile' || base === 'dockerfile') return engine.registered(base) ? base : undefined;
  const name = EXTRA[ext] ?? ext;
  return name && engine.registered(name) ? name : undefined;
}

const TOKEN_OF: Record<string, TokenKind> = {
  keyword: 'keyword',
  'selector-tag': 'keyword',
  doctag: 'keyword',
  name: 'keyword',
  tag: 'keyword',
  string: 'string',
  regexp: 'string',
  symbol: 'string',
  link: 'string',
  'selector-attr': 'string',
  'selector-pseudo': 'string',
  number: 'number',
  literal: 'number',
  comment: 'comment',
  quote: 'comment',
  title: 'title',
  section: 'title',
  'selector-id': 'title',
  'selector-class': 'title',
  type: 'type',
  built_in: 'type',
  class: 'type',
  attr: 'attr',
  attribute: 'attr',
  property: 'attr',
  meta: 'meta',
  bullet: 'meta',
};

function tokenOf(node: HastNode): TokenKind | undefined {
  const names = node.properties?.className;
  if (!Array.isArray(names)) return undefined;
  for (const n of names) {
    const kind = typeof n === 'string' ? TOKEN_OF[n.replace(/^hljs-/, '')] : undefined;
    if (kind) return kind;
  }
  return undefined;
}

function flatten(nodes: readonly HastNode[], inherited: TokenKind | undefined, out: TokenSegment[]): void {
  for (const node of nodes) {
    if (node.type === 'text' && node.value) {
      const last = out[out.length - 1];
      if (last && last.token === inherited) last.text += node.value;
      else out.push(inherited ? { text: node.value, token: inherited } : { text: node.value });
    } else if (node.children) flatten(node.children, tokenOf(node) ?? inherited, out);
  }
}

/** A frame's time for highlighting: lines not reached by `until` (a `performance.now()` time) are `missed`. */
export type HighlightBudget = { until: number; missed: boolean };

/**
 * Tokens of one line, or undefined (not loaded, unknown language, too long, or the frame's budget
 * spent: the line is then shown plain and `budget.missed` says to draw again). Cached by text.
 */
export function highlightLine(
  lang: string | undefined,
  text: string,
  budget?: HighlightBudget,
): TokenSegment[] | undefined {
  if (!engine || !lang || text.length > MAX_LINE || text.length === 0) return undefined;
  const key = `${lang}\u0000${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  if (budget && performance.now() > budget.until) {
    budget.missed = true;
    return undefined;
  }
  let tokens: TokenSegment[] | null = null;
  try {
    const out: TokenSegment[] = [];
    flatten(engine.highlight(lang, text).children, undefined, out);
    tokens = out;
  } catch {
    tokens = null;
  }
  cache.set(key, tokens);
  if (cache.size > CACHE_LINES) cache.delete(cache.keys().next().value as string);
  return tokens ?? undefined;
}

/**
 * A code block's lines as coloured segments, parsed whole (a comment or string spanning lines
 * stays coloured), or undefined to show it plain: not loaded yet (call `loadHighlighter`),
 * unknown language, or a block too large. `lang`: a language tag or a file name.
 */
export function highlightCode(lang: string | undefined, text: string): TokenSegment[][] | undefined {
  const name = languageFor(lang);
  if (!engine || !name || text.length > 200_000) return undefined;
  const flat: TokenSegment[] = [];
  try {
    flatten(engine.highlight(name, text).children, undefined, flat);
  } catch {
    return undefined;
  }
  const lines: TokenSegment[][] = [[]];
  for (const seg of flat) {
    const parts = seg.text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines[lines.length - 1]?.push(seg.token ? { text: part, token: seg.token } : { text: part });
    });
  }
  return lines;
}

/** The colour of a token: none of them red or green, which mean removed and added in a diff. */
export const TOKEN_COLORS: Record<TokenKind, string> = {
  keyword: 'magenta',
  string: 'yellow',
  number: 'cyan',
  comment: 'gray',
  title: 'blue',
  type: 'cyan',
  attr: 'blue',
  meta: 'gray',
};
