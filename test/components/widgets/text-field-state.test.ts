import type { Key } from 'ink';
import { NO_KEY } from '../../helpers/ink';
import { describe, expect, it } from 'vitest';
import {
  charAt,
  type FieldState,
  fieldAt,
  fieldKey,
  typeChunk,
} from '../../../components/widgets/text-field-state';

const k = (partial: Partial<Key> = {}): Key => ({ ...NO_KEY, ...partial });

/** "ab|c" is the value "abc" with the cursor before "c". */
const at = (marked: string): FieldState => ({ value: marked.replace('|', ''), cursor: marked.indexOf('|') });
const show = (s: FieldState) => `${s.value.slice(0, s.cursor)}|${s.value.slice(s.cursor)}`;

type Press = readonly [input: string, key: Key];

/** What Ink 6.8's useInput hands a handler for each raw key (see ink/build/parse-keypress.js). */
const INK = {
  backspaceKey: ['', k({ delete: true })], // "\x7f", what most terminals send for Backspace
  ctrlH: ['', k({ backspace: true })], // "\b"
  deleteKey: ['', k({ delete: true })], // "\x1b[3~"
  altBackspace: ['', k({ delete: true, meta: true })], // "\x1b\x7f"
  enter: ['\r', k({ return: true })],
  altEnter: ['\r', k({ return: true, meta: true })],
  ctrlJ: ['\n', k()],
  left: ['', k({ leftArrow: true })],
  right: ['', k({ rightArrow: true })],
  home: ['', k({ home: true })],
  end: ['', k({ end: true })],
  up: ['', k({ upArrow: true })],
  down: ['', k({ downArrow: true })],
  tab: ['', k({ tab: true })],
  shiftTab: ['', k({ tab: true, shift: true })],
  escape: ['', k({ escape: true, meta: true })],
  pageUp: ['', k({ pageUp: true })],
  ctrl: (letter: string): Press => [letter, k({ ctrl: true })],
  alt: (letter: string): Press => [letter, k({ meta: true })],
} as const;

type Row = [what: string, before: string, press: Press, after: string];

describe('fieldKey: editing', () => {
  const rows: Row[] = [
    ['types at the end', 'ab|', ['c', k()], 'abc|'],
    ['types in the middle', 'a|c', ['b', k()], 'ab|c'],
    ['a shifted capital types', '|', ['A', k({ shift: true })], 'A|'],
    ['a multi-character chunk inserts whole', 'x|y', ['hello', k()], 'xhello|y'],
    ['Backspace (Ink: key.delete) erases left', 'ab|c', INK.backspaceKey, 'a|c'],
    ['Ctrl+H / BS (Ink: key.backspace) erases left', 'ab|c', INK.ctrlH, 'a|c'],
    ['forward Delete looks like Backspace to Ink, so it erases left', 'ab|c', INK.deleteKey, 'a|c'],
    ['Backspace at the start does nothing', '|abc', INK.backspaceKey, '|abc'],
    ['Backspace erases a whole emoji', 'a😀|', INK.backspaceKey, 'a|'],
    ['← moves left', 'ab|', INK.left, 'a|b'],
    ['← stops at the start', '|ab', INK.left, '|ab'],
    ['→ moves right', 'a|b', INK.right, 'ab|'],
    ['→ stops at the end', 'ab|', INK.right, 'ab|'],
    ['← steps over an emoji', 'a😀|', INK.left, 'a|😀'],
    ['→ steps over an emoji', 'a|😀b', INK.right, 'a😀|b'],
    ['Home goes to the start', 'ab|c', INK.home, '|abc'],
    ['End goes to the end', 'a|bc', INK.end, 'abc|'],
    ['Ctrl+A goes to the start', 'ab|c', INK.ctrl('a'), '|abc'],
    ['Ctrl+E goes to the end', 'a|bc', INK.ctrl('e'), 'abc|'],
    ['Ctrl+U deletes to the start', 'one two| three', INK.ctrl('u'), '| three'],
    ['Ctrl+W deletes the previous word', 'one two|', INK.ctrl('w'), 'one |'],
    ['Ctrl+W takes trailing spaces with the word', 'one two  |x', INK.ctrl('w'), 'one |x'],
    ['Alt+Backspace deletes the previous word too', 'one two|', INK.altBackspace, 'one |'],
    ['Ctrl+W at the start does nothing', '|one', INK.ctrl('w'), '|one'],
    ['Ctrl+W treats punctuation as part of a word', 'ls src/a.ts|', INK.ctrl('w'), 'ls |'],
    ['a lone "\\n" (Ctrl+J) inserts a line break, as before', 'a|b', INK.ctrlJ, 'a\n|b'],
    ['a paste keeps its line breaks as "\\n"', 'x|', ['one\r\ntwo\rthree', k()], 'xone\ntwo\nthree|'],
    ['a paste whose breaks are not only at the end stays text', '|', ['one\ntwo\n', k()], 'one\ntwo\n|'],
    ['DEL inside a chunk erases (fast typing)', 'ab|', ['\u007fx', k()], 'ax|'],
    ['BS inside a chunk erases', 'ab|', ['c\b\bd', k()], 'ad|'],
    ['other control characters in a chunk are dropped', '|', ['a\u0001b\u001bc', k()], 'abc|'],
    ['a tab inside a paste is kept', '|', ['a\tb', k()], 'a\tb|'],
  ];
  it.each(rows)('%s', (_what, before, [input, key], after) => {
    const result = fieldKey(at(before), input, key);
    expect(result.kind).toBe('edit');
    if (result.kind === 'edit') expect(show(result.state)).toBe(after);
  });
});

describe('fieldKey: submitting', () => {
  const rows: Row[] = [
    ['Enter submits the value as it is', 'a|bc', INK.enter, 'a|bc'],
    ['Alt+Enter submits too', 'abc|', INK.altEnter, 'abc|'],
    ['text ending in one line break is text and Enter', 'go |', ['/help\r', k()], 'go /help|'],
    ['CRLF at the end counts as one break', '|', ['hi\r\n', k()], 'hi|'],
    ['a bare CRLF chunk is Enter', 'hi|', ['\r\n', k()], 'hi|'],
    ['Backspace typed before the Enter in one chunk applies first', 'ab|', ['\u007fx\r', k()], 'ax|'],
  ];
  it.each(rows)('%s', (_what, before, [input, key], after) => {
    const result = fieldKey(at(before), input, key);
    expect(result.kind).toBe('submit');
    if (result.kind === 'submit') expect(show(result.state)).toBe(after);
  });
});

describe('fieldKey: keys left to other handlers', () => {
  const rows: [string, Press][] = [
    ['↑', INK.up],
    ['↓', INK.down],
    ['Tab', INK.tab],
    ['Shift+Tab', INK.shiftTab],
    ['Esc', INK.escape],
    ['Page Up', INK.pageUp],
    ['Ctrl+C', INK.ctrl('c')],
    ['Ctrl+T (the sidebar chord)', INK.ctrl('t')],
    ['Ctrl+G (the agents chord)', INK.ctrl('g')],
    ['Alt+B', INK.alt('b')],
    ['a key with no text', ['', k()]],
  ];
  it.each(rows)('%s is ignored and types nothing', (_what, [input, key]) => {
    expect(fieldKey(at('ab|c'), input, key)).toEqual({ kind: 'ignore' });
  });
});

describe('helpers', () => {
  it('fieldAt puts the cursor at the end', () => {
    expect(fieldAt('abc')).toEqual({ value: 'abc', cursor: 3 });
  });

  it('charAt is the whole character under the cursor, or empty at the end', () => {
    expect(charAt(at('a|😀'))).toBe('😀');
    expect(charAt(at('ab|'))).toBe('');
  });

  it('typeChunk applies a run of keys left to right', () => {
    expect(show(typeChunk(at('|'), 'abc\u007f\u007fz'))).toBe('az|');
  });
});
