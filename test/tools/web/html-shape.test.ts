/**
 * The page-shape budget in front of the DOM, Readability and Turndown: a page that would cost them
 * seconds of the main thread (deep nesting grows worse than its square; many elements times their
 * depth) gets less of them — the body without the article search, or its text without markup — and
 * still says what it says.
 */
import { describe, expect, it } from 'vitest';
import { ARTICLE_BUDGET, BODY_BUDGET, htmlShape, htmlText, within } from '../../../src/tools/web/html-shape';
import { htmlToMarkdown } from '../../../src/tools/web/web-markdown';

const nested = (depth: number, inner = 'x') => `${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}`;
const page = (body: string) => `<html><head><title>T &amp; co</title></head><body>${body}</body></html>`;

describe('htmlShape', () => {
  it('counts elements, the deepest nesting and the sum of depths; void and self-closed elements do not nest', () => {
    expect(htmlShape('<div><p>a<br>b<img src=x></p><span></span><svg><path/><path/></svg></div>')).toEqual({
      elements: 8,
      depth: 3,
      depthSum: 1 + 2 + 3 + 3 + 2 + 2 + 3 + 3,
    });
    // In HTML `<div/>` opens a div (the parser nests what follows); only SVG and MathML close `<x/>`,
    // and not inside their HTML islands (foreignObject, desc, mi …) — each checked against linkedom.
    expect(htmlShape(`${'<div/>'.repeat(5)}x`).depth).toBe(5);
    expect(htmlShape('<svg><g><path/><path/><path/></g></svg>').depth).toBe(3);
    expect(htmlShape('<svg><foreignObject><div/><div/><div/>x').depth).toBe(5);
    expect(htmlShape('<math><mi/><mi/><mi/></math>').depth).toBe(4);
    expect(htmlShape('<math><mrow/><mrow/><mrow/></math>').depth).toBe(2);
    // A script's text holds no elements: its `</div>` closes nothing.
    expect(htmlShape('<div><script>if (a</div>) x</script><div><style></div></style>x')).toEqual({
      elements: 4,
      depth: 3,
      depthSum: 1 + 2 + 2 + 3,
    });
    expect(htmlShape(nested(1000)).depth).toBe(1000);
    expect(htmlShape('no tags at all').elements).toBe(0);
    // An end tag with nothing open does not make the depth negative.
    expect(htmlShape('</div></div><p>x</p>')).toMatchObject({ depth: 1, depthSum: 1 });
  });
});

describe('htmlToMarkdown keeps to the budget', () => {
  it('an ordinary article goes through Readability', () => {
    const article = `<article><h1>Title</h1>${'<p>A sentence of the article, long enough to count as prose, with a <a href="/l">link</a>.</p>'.repeat(20)}</article>`;
    const md = htmlToMarkdown(page(article), 'https://example.test/a/');
    expect(md.extractedBy).toBe('readability');
    expect(md.markdown).toContain('[link](https://example.test/l)');
  });

  it.each([
    ['1 000 nested <div> (11 KB; 22 s in Readability before)', page(nested(1000, 'deep text'))],
    ['200 000 nested <div> (the DOM alone took 96 s)', page(nested(200_000, 'deep text'))],
    [
      '1 000 `<div/>`, which HTML nests (1.4 s at 400 in Readability before)',
      page(`${'<div/>'.repeat(1000)}deep text`),
    ],
    [
      '1 000 divs whose end tags hide in scripts',
      page(`${'<div><script></div></script>'.repeat(1000)}deep text`),
    ],
    ['1 000 `<div/>` in an SVG foreignObject', page(`<svg><foreignObject>${'<div/>'.repeat(1000)}deep text`)],
    ['1 000 `<mi/>` in MathML', page(`<math>${'<mi/>'.repeat(1000)}deep text</math>`)],
    ['60 000 table cells', page(`<table>${'<tr><td>a</td><td>deep text</td></tr>'.repeat(20_000)}</table>`)],
  ])('%s: read as text, the words kept', (_name, html) => {
    const shape = htmlShape(html);
    expect(within(shape, BODY_BUDGET)).toBe(false);
    const md = htmlToMarkdown(html, 'https://example.test/');
    expect(md.extractedBy).toBe('text');
    expect(md.markdown).toContain('deep text');
    expect(md.title).toBe('T & co');
  });

  it('12 000 elements nested 60 deep (4.7 s in Readability before): the body without the article search', () => {
    const html = page(`${nested(60, '<b>deep text</b>')}`.repeat(200));
    const shape = htmlShape(html);
    expect(within(shape, ARTICLE_BUDGET)).toBe(false);
    expect(within(shape, BODY_BUDGET)).toBe(true);
    const md = htmlToMarkdown(html, 'https://example.test/');
    expect(md.extractedBy).toBe('body');
    expect(md.markdown).toContain('**deep text**');
  });
});

describe('htmlText', () => {
  it('drops scripts, styles and comments, breaks lines at blocks and decodes entities', () => {
    const text = htmlText(
      '<h1>Head</h1><script>evil()</script><style>p{}</style><!-- c --><p>a &lt;b&gt; &amp; &#x41;&#66;&nbsp;c</p><div>next</div>',
    );
    expect(text).not.toMatch(/evil|p\{\}|-->|<h1|<script/);
    expect(text).toContain('Head');
    expect(text).toContain('a <b> & AB c');
    expect(text).toMatch(/c\s*\n+\s*next/);
  });

  it('an entity past the last code point stays as written', () => {
    expect(htmlText('&#x110000; &#0;')).toBe('&#x110000; &#0;');
  });
});
