import { describe, expect, it } from 'vitest';
import { rawLines, withoutLineEndCR } from '../../src/text/text-lines';

/** What the card split before: the text again with a regex, a final newline adding no line. */
function regexLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

describe('rawLines and withoutLineEndCR', () => {
  it.each([
    { name: 'empty file', text: '' },
    { name: 'one newline', text: '\n' },
    { name: 'one CRLF', text: '\r\n' },
    { name: 'LF lines', text: 'a\nb\n' },
    { name: 'no newline at the end', text: 'a\nb' },
    { name: 'CRLF lines', text: 'a\r\nb\r\n' },
    { name: 'CRLF, no newline at the end', text: 'a\r\nb' },
    { name: 'a lone CR at the very end', text: 'a\nb\r' },
    { name: 'only a CR', text: '\r' },
    { name: 'a CR inside a line', text: 'a\rb\nc\n' },
    { name: 'two CRs before a newline: one is the line end', text: 'a\r\r\nb\n' },
    { name: 'mixed endings', text: 'a\r\nb\nc\r\n\r\nd\r' },
    { name: 'blank lines', text: '\n\n\r\n\n' },
  ])('$name', ({ text }) => {
    const raw = rawLines(text);
    expect(raw).toEqual(text === '' ? [] : text.split('\n').slice(0, text.endsWith('\n') ? -1 : undefined));
    expect(withoutLineEndCR(raw, text)).toEqual(regexLines(text));
  });

  it('gives back the raw lines themselves when the text has no CR', () => {
    const raw = rawLines('a\nb\n');
    expect(withoutLineEndCR(raw, 'a\nb\n')).toBe(raw);
  });

  it('leaves the raw lines untouched', () => {
    const raw = rawLines('a\r\nb\r\n');
    withoutLineEndCR(raw, 'a\r\nb\r\n');
    expect(raw).toEqual(['a\r', 'b\r']);
  });
});
