/**
 * How much work a page's HTML is for the DOM, Readability and Turndown, told by one linear scan of its
 * tags — and its text without them, for a page that is too much. Readability's cost grows with every
 * element times its depth (a 12 000-element page nested 60 deep took 4.7 s), and worse than the square
 * of the depth (1 000 nested `<div>`, 11 KB, took 22 s; 20 000 overflowed the stack), all of it on the
 * main thread, where no timeout, key or frame can run (red-team finding): the budget decides, before
 * any of it starts, which of them a page may have.
 */

export type HtmlShape = {
  /** Start tags seen. */
  elements: number;
  /** The deepest element's level (an element in <body> directly is 1 when the scan starts there). */
  depth: number;
  /** The sum of every element's depth: about what Readability's walks cost. */
  depthSum: number;
};

/** Elements that never hold others (no end tag), so they do not nest. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)[^>]*?(\/?)>/g;

/** Elements whose content the parser reads as text up to their end tag (tags in it are not elements). */
const RAW_TEXT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);
/** SVG and MathML: inside them `<x/>` closes itself… */
const FOREIGN = new Set(['svg', 'math']);
/** …except inside these, where the parser reads HTML again (and `<div/>` nests: checked against linkedom). */
const HTML_INSIDE_FOREIGN = new Set([
  'foreignobject',
  'desc',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
]);

/**
 * The shape of `html`'s elements, as far as its tags say. Where the parser's error recovery differs
 * (a `<p>` it closes by itself), the scan counts more nesting, never less: in HTML `<div/>` opens a
 * div that holds the rest (red team, attacking this scan: 400 of them took 1.4 s in Readability).
 */
export function htmlShape(html: string): HtmlShape {
  const shape: HtmlShape = { elements: 0, depth: 0, depthSum: 0 };
  let depth = 0;
  // The open elements that decide what `<x/>` means, innermost last (a few: not every open element).
  const contexts: string[] = [];
  const tags = new RegExp(TAG.source, 'g');
  for (let m = tags.exec(html); m !== null; m = tags.exec(html)) {
    const [, closing, rawName = '', selfClosing] = m;
    const name = rawName.toLowerCase();
    // A script's or a textarea's text is not markup (`<div><script></div></script>` nests the div): the
    // element holds none, and the scan goes on after its end tag.
    if (!closing && RAW_TEXT.has(name)) {
      shape.elements++;
      shape.depthSum += depth + 1;
      shape.depth = Math.max(shape.depth, depth + 1);
      const end = new RegExp(`</${name}\\b[^>]*>`, 'ig');
      end.lastIndex = tags.lastIndex;
      tags.lastIndex = end.exec(html) ? end.lastIndex : html.length;
      continue;
    }
    if (closing) {
      if (!VOID.has(name) && depth > 0) depth--;
      if (contexts.at(-1) === name) contexts.pop();
      continue;
    }
    shape.elements++;
    const leaf =
      VOID.has(name) || (selfClosing && FOREIGN.has(contexts.at(-1) ?? '') && !HTML_INSIDE_FOREIGN.has(name));
    if (leaf) {
      // An element that holds none still sits one level down.
      shape.depthSum += depth + 1;
      shape.depth = Math.max(shape.depth, depth + 1);
      continue;
    }
    if (FOREIGN.has(name) || HTML_INSIDE_FOREIGN.has(name)) contexts.push(name);
    depth++;
    shape.depthSum += depth;
    if (depth > shape.depth) shape.depth = depth;
  }
  return shape;
}

/** Readability (finding the article) only within this: about half a second here at most. */
export const ARTICLE_BUDGET = { depth: 80, depthSum: 60_000 };
/** Turndown over the whole body only within this; beyond, the page's text is read without its markup. */
export const BODY_BUDGET = { depth: 400, elements: 30_000 };

export function within(
  shape: HtmlShape,
  budget: { depth: number; depthSum?: number; elements?: number },
): boolean {
  return (
    shape.depth <= budget.depth &&
    (budget.depthSum === undefined || shape.depthSum <= budget.depthSum) &&
    (budget.elements === undefined || shape.elements <= budget.elements)
  );
}

const DROPPED = /<(script|style|noscript|template|svg|iframe|object)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK =
  /<\/?(?:p|div|br|li|ul|ol|tr|table|h[1-6]|section|article|header|footer|pre|blockquote|hr)\b[^>]*>/gi;
const ENTITY = /&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** A page's text without its markup, in time linear in its length: blocks become line breaks. */
export function htmlText(html: string): string {
  return html
    .replace(DROPPED, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(BLOCK, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(ENTITY, (m, e: string) => {
      const lower = e.toLowerCase();
      if (!lower.startsWith('#')) return NAMED[lower] ?? m;
      const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number(lower.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    })
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n');
}
