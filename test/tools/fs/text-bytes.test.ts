import { describe, expect, it } from 'vitest';
import { encodeKeepingUnchanged, looksBinary, shownText } from '../../../src/tools/fs/text-bytes';

const latin1 = (s: string) => Buffer.from(s, 'latin1');

describe('encodeKeepingUnchanged', () => {
  it.each([
    // [name, original bytes, transform of the shown text, expected bytes]
    [
      'valid UTF-8 is plain UTF-8',
      Buffer.from('héllo\nworld\n'),
      (t: string) => t.replace('world', 'there'),
      Buffer.from('héllo\nthere\n'),
    ],
    [
      'Latin-1 lines left unchanged keep their bytes',
      latin1('caf\xe9\nold\nna\xefve\n'),
      (t: string) => t.replace('old', 'new'),
      latin1('caf\xe9\nnew\nna\xefve\n'),
    ],
    [
      'CRLF Latin-1 lines keep their bytes',
      latin1('a\xe9\r\nb\r\nc\xe8\r\n'),
      (t: string) => t.replace('b\r\n', 'B\r\n'),
      latin1('a\xe9\r\nB\r\nc\xe8\r\n'),
    ],
    [
      'a last line without newline is kept',
      latin1('x\ny\xff'),
      (t: string) => `top\n${t}`,
      Buffer.concat([Buffer.from('top\n'), latin1('x\ny\xff')]),
    ],
    [
      'an added line is UTF-8 next to kept raw lines',
      latin1('\xe9\n'),
      (t: string) => `${t}é\n`,
      Buffer.concat([latin1('\xe9\n'), Buffer.from('é\n')]),
    ],
    [
      'removing a raw line removes its bytes only',
      latin1('keep\n\xe9gone\nkeep2\xe8\n'),
      (t: string) => t.replace('\uFFFDgone\n', ''),
      latin1('keep\nkeep2\xe8\n'),
    ],
    [
      'a truncated UTF-8 sequence stays as it was',
      Buffer.from([0x61, 0xe2, 0x82, 0x0a, 0x62, 0x0a]),
      (t: string) => t.replace('b', 'c'),
      Buffer.from([0x61, 0xe2, 0x82, 0x0a, 0x63, 0x0a]),
    ],
  ])('%s', (_name, before, change, expected) => {
    const after = change(shownText(before));
    const result = encodeKeepingUnchanged(before, after);
    if (!result.ok) throw new Error(result.reason);
    expect(result.bytes.equals(expected)).toBe(true);
    // The contract: what is written reads back as exactly the text the diff showed.
    expect(shownText(result.bytes)).toBe(after);
  });

  it('refuses a changed line that carries U+FFFD from an undecodable byte', () => {
    const before = latin1('caf\xe9 au lait\nok\n');
    const result = encodeKeepingUnchanged(before, shownText(before).replace('lait', 'miel'));
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('U+FFFD') });
  });

  it('refuses when the line diff would take too long', () => {
    const before = latin1(`\xe9\n${Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')}\n`);
    const after = Array.from({ length: 3000 }, (_, i) => `other ${i}`).join('\n');
    expect(encodeKeepingUnchanged(before, after, 0)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('too large to compare'),
    });
  });
});

describe('looksBinary', () => {
  it.each([
    ['text', Buffer.from('plain text\n'), false],
    ['a NUL in the first byte', Buffer.from([0, 65]), true],
    ['a NUL after 8 KB', Buffer.concat([Buffer.alloc(8193, 'a'), Buffer.from([0])]), true],
    ['a NUL after 5 MB', Buffer.concat([Buffer.alloc(5 * 1024 * 1024, 'a'), Buffer.from([0])]), true],
    ['Latin-1 without NUL', Buffer.from('caf\xe9', 'latin1'), false],
  ])('%s → %s', (_name, bytes, binary) => {
    expect(looksBinary(bytes)).toBe(binary);
  });
});
