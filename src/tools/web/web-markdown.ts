import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { ARTICLE_BUDGET, BODY_BUDGET, htmlShape, htmlText, within } from './html-shape';

export type Markdown = { title?: string; markdown: string; extractedBy: 'readability' | 'body' | 'text' };

const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'iframe',
  'svg',
  'canvas',
  'template',
  'form',
  'object',
  'embed',
]);

/**
 * Turns a web page into readable markdown: the article Readability finds, or the whole body when
 * it finds none. Links and images are made absolute against `baseUrl`. A page whose shape would cost
 * Readability or Turndown seconds on the main thread gets less of them (html-shape.ts): the body
 * without the article search, or its text without markup.
 * Contract: never throws for malformed HTML; the worst case is plain text of the body.
 */
export function htmlToMarkdown(html: string, baseUrl: string): Markdown {
  const shape = htmlShape(html);
  if (!within(shape, BODY_BUDGET)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
    return {
      ...(title ? { title: htmlText(title) } : {}),
      markdown: tidy(htmlText(html)),
      extractedBy: 'text',
    };
  }
  const { document } = parseRooted(html);
  absolutise(document, baseUrl);
  const pageTitle = document.title?.trim() || undefined;
  const turndown = createTurndown();
  const article = within(shape, ARTICLE_BUDGET) ? readArticle(document as unknown as Document) : undefined;
  if (article) {
    const markdown = tidy(turndown.turndown(article.content));
    if (markdown !== '') return { title: article.title || pageTitle, markdown, extractedBy: 'readability' };
  }
  // Readability changes the document it reads: the body is taken from a fresh one (unless it never ran).
  const fresh =
    article === undefined && !within(shape, ARTICLE_BUDGET) ? document : parseRooted(html).document;
  if (fresh !== document) absolutise(fresh, baseUrl);
  const body = fresh.body?.innerHTML ?? fresh.documentElement?.innerHTML ?? '';
  return { title: pageTitle, markdown: tidy(turndown.turndown(body)), extractedBy: 'body' };
}

/**
 * linkedom gives a page with no element at all (empty, plain text, only a doctype or a comment — an
 * empty text/html 404 is common) a document without a root, and `document.title` then throws: such
 * a page is parsed again inside <html><body>, so its text is what the model reads, not a crash.
 */
function parseRooted(html: string): ReturnType<typeof parseHTML> {
  const parsed = parseHTML(html);
  return parsed.document.documentElement ? parsed : parseHTML(`<html><body>${html}</body></html>`);
}

function readArticle(document: Document): { title?: string; content: string } | undefined {
  try {
    const article = new Readability(document).parse();
    if (!article?.content || !article.textContent?.trim()) return undefined;
    return { title: article.title?.trim() || undefined, content: article.content };
  } catch {
    return undefined;
  }
}

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  service.remove((node) => DROPPED_ELEMENTS.has(node.nodeName.toLowerCase()));
  return service;
}

type Queryable = {
  querySelectorAll(
    selector: string,
  ): Iterable<{ getAttribute(name: string): string | null; setAttribute(name: string, value: string): void }>;
};

/** Relative links mean nothing to the model once the page is markdown. */
function absolutise(document: Queryable, baseUrl: string): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      try {
        element.setAttribute(attribute, new URL(value, baseUrl).href);
      } catch {
        // An unparseable link stays as written.
      }
    }
  }
}

function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}
