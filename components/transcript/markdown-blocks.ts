/**
 * Model text as blocks and styled runs, read from `marked`'s lexer tokens (a maintained CommonMark +
 * GFM parser) instead of a hand-written one. Pure: the component only draws what this returns.
 * Every leaf string is sanitised here (model output may carry escape sequences), and partial
 * markdown while a message streams (an open fence, a lone `**`) parses like any other text.
 */
import type { Token, Tokens } from 'marked';
import { markedLexer } from './markdown-lexer';
import { sanitizeText } from '../../src/text/sanitize';

/** A piece of inline text with its style; nested emphasis is flattened into the flags. */
export type Run = {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  /** Link text; the (sanitised) target is shown after it unless it is the same text. */
  href?: string;
};

export type ListItem = { marker: string; blocks: Block[] };
export type Align = 'left' | 'right' | 'center';

export type Block =
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'list'; ordered: boolean; items: ListItem[] }
  | { kind: 'table'; header: string[]; rows: string[][]; align: Align[] }
  | { kind: 'rule' };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** Sanitised display text with the five HTML entities marked leaves in place read back. */
function clean(text: string): string {
  return sanitizeText(text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? ''));
}

/** Runs of inline tokens, each carrying the style of the tokens around it. */
export function inlineRuns(tokens: readonly Token[] | undefined, style: Omit<Run, 'text'> = {}): Run[] {
  const runs: Run[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        runs.push(...inlineRuns(token.tokens, { ...style, bold: true }));
        break;
      case 'em':
        runs.push(...inlineRuns(token.tokens, { ...style, italic: true }));
        break;
      case 'del':
        runs.push(...inlineRuns(token.tokens, { ...style, strike: true }));
        break;
      case 'codespan':
        runs.push({ ...style, code: true, text: clean(token.text) });
        break;
      case 'br':
        runs.push({ ...style, text: '\n' });
        break;
      case 'link': {
        const href = clean(token.href);
        const inner = inlineRuns(token.tokens, style);
        runs.push(...inner);
        if (inner.map((r) => r.text).join('') !== href) runs.push({ text: ` (${href})`, href });
        break;
      }
      case 'image':
        runs.push({ ...style, text: `[image: ${clean(token.text)}] (${clean(token.href)})` });
        break;
      default: {
        // text (possibly with nested tokens), escape, html, and anything a later marked adds.
        const nested = 'tokens' in token && Array.isArray(token.tokens) ? token.tokens : undefined;
        if (nested && nested.length > 0) runs.push(...inlineRuns(nested, style));
        else if ('text' in token && typeof token.text === 'string')
          runs.push({ ...style, text: token.type === 'escape' ? token.text : clean(token.text) });
      }
    }
  }
  return runs;
}

/** The plain text of runs (table cells, comparisons). */
export function runsText(runs: readonly Run[]): string {
  return runs.map((r) => r.text).join('');
}

function listItem(item: Tokens.ListItem, marker: string): ListItem {
  const blocks = toBlocks(item.tokens);
  return { marker: item.task ? `${marker} [${item.checked ? 'x' : ' '}]` : marker, blocks };
}

/** Block tokens as blocks; `space` tokens (blank lines) are dropped, the view spaces blocks itself. */
export function toBlocks(tokens: readonly Token[]): Block[] {
  const blocks: Block[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'def':
        break;
      case 'heading':
        blocks.push({ kind: 'heading', level: token.depth, runs: inlineRuns(token.tokens) });
        break;
      case 'code':
        blocks.push({
          kind: 'code',
          lang: clean((token.lang ?? '').split(/\s/)[0] ?? ''),
          text: clean(token.text),
        });
        break;
      case 'blockquote':
        blocks.push({ kind: 'quote', blocks: toBlocks(token.tokens ?? []) });
        break;
      case 'list': {
        const start = typeof token.start === 'number' ? token.start : 1;
        const items = (token.items as Tokens.ListItem[]).map((item, i) =>
          listItem(item, token.ordered ? `${start + i}.` : '•'),
        );
        blocks.push({ kind: 'list', ordered: token.ordered, items });
        break;
      }
      case 'table': {
        const t = token as Tokens.Table;
        blocks.push({
          kind: 'table',
          header: t.header.map((cell) => runsText(inlineRuns(cell.tokens))),
          rows: t.rows.map((row) => row.map((cell) => runsText(inlineRuns(cell.tokens)))),
          align: t.align.map((a) => a ?? 'left'),
        });
        break;
      }
      case 'hr':
        blocks.push({ kind: 'rule' });
        break;
      case 'checkbox':
        // marked ≥ 16 puts a task item's box in its tokens; listItem writes it into the marker.
        break;
      default: {
        // paragraph, text (tight list items), html, and whatever a later marked adds: their text.
        const nested = 'tokens' in token && Array.isArray(token.tokens) ? token.tokens : undefined;
        const runs = nested
          ? inlineRuns(nested)
          : [{ text: clean('text' in token ? String(token.text) : '') }];
        const prev = blocks[blocks.length - 1];
        // Two text tokens in a row (a tight item's lines) read as one paragraph.
        if (token.type === 'text' && prev?.kind === 'paragraph') prev.runs.push({ text: '\n' }, ...runs);
        else blocks.push({ kind: 'paragraph', runs });
      }
    }
  }
  return blocks;
}

const CACHE_MAX = 256;
const cache = new Map<string, Block[]>();

/**
 * The blocks of `text`, memoised by text (a re-render or a reprint costs a map lookup).
 * Contract: never throws; if the lexer does, the text is one plain paragraph.
 */
export function parseMarkdown(text: string): Block[] {
  const hit = cache.get(text);
  if (hit) return hit;
  let blocks: Block[];
  try {
    blocks = toBlocks(markedLexer()(text.replace(/\r\n/g, '\n'), { gfm: true }));
  } catch {
    blocks = [{ kind: 'paragraph', runs: [{ text: clean(text) }] }];
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(text, blocks);
  return blocks;
}
