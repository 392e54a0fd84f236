/**
 * Syntax highlighting for diffs and code blocks with highlight.js's grammars (through lowlight),
 * loaded on first use by a dynamic import, one grammar at a time (grammars.ts): start-up never pays
 * for it, and a card pays only for its file's language. Until it has loaded, and for languages it does not know, callers get
 * `undefined` and show the text plain. Colour is the caller's choice (NO_COLOR: do not ask).
 */
import type { LanguageFn } from 'highlight.js';
import { GRAMMAR_OF, GRAMMARS } from './grammars';

/** A syntax token class (highlight.js scopes folded to the few a terminal can colour apart). */
export type TokenKind = 'keyword' | 'string' | 'number' | 'comment' | 'title' | 'type' | 'attr' | 'meta';

/** A run of highlighted text (what a highlighter returns for one line). */
export type TokenSegment = { text: string; token?: TokenKind };

type Engine = {
  highlight: (lang: string, text: string) => { children: HastNode[] };
  registered: (name: string) => boolean;
  register: (name: string, grammar: LanguageFn) => void;
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
let core: Promise<Engine> | undefined;
const grammars = new Map<string, Promise<boolean>>();
const cache = new Map<string, TokenSegment[] | null>();

/** The grammar for a file path (by extension or name) or a code block's language tag, loaded or not. */
function grammarName(pathOrLang: string | undefined): string | undefined {
  if (!pathOrLang) return undefined;
  const base = pathOrLang.split('/').pop()?.toLowerCase() ?? '';
  const ext = base.includes('.') ? (base.split('.').pop() ?? '') : base;
  return GRAMMAR_OF[ext];
}

/**
 * Starts loading the engine and the one grammar `pathOrLang` needs (once each); resolves true when
 * it can be highlighted. Contract: never rejects; a failed load, or no grammar, leaves it plain.
 */
export function loadHighlighter(pathOrLang: string | undefined): Promise<boolean> {
  const name = grammarName(pathOrLang);
  const load = name ? GRAMMARS[name] : undefined;
  if (!name || !load) return Promise.resolve(false);
  let loading = grammars.get(name);
  if (!loading) {
    loading = (async () => {
      core ??= import('./lowlight-core').then((m) => m.createLowlight() as unknown as Engine);
      const [ready, grammar] = await Promise.all([core, load()]);
      ready.register(name, grammar.default);
      engine = ready;
      return true;
    })().catch(() => false);
    grammars.set(name, loading);
  }
  return loading;
}

/** True once the grammar `pathOrLang` needs is loaded. */
export function highlighterReady(pathOrLang: string | undefined): boolean {
  return languageFor(pathOrLang) !== undefined;
}

/** The loaded grammar for a file path or a code block's language tag; undefined until it has loaded. */
export function languageFor(pathOrLang: string | undefined): string | undefined {
  const name = grammarName(pathOrLang);
  return name && engine?.registered(name) ? name : undefined;
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
