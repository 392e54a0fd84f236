import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../src/protocol';
import { heldFrom, OutputRelay, safeChunk } from '../../src/session/output-relay';
import { emptyTail, foldTail, publishTail } from '../../src/session/output-tail';

type OutputEvent = Extract<CoreEvent, { type: 'tool_output' }>;

const chunkOf = (callId: string, chunk: string): OutputEvent => ({
  type: 'tool_output',
  agentId: 'main',
  callId,
  chunk,
});

function relay(options: { keepChars?: number } = {}) {
  const sent: OutputEvent[] = [];
  const r = new OutputRelay((e) => sent.push(e), { intervalMs: 50, ...options });
  return { r, sent, text: () => sent.map((e) => e.chunk).join('') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('OutputRelay', () => {
  it.each([
    ['a colour code cut after ESC', ['red \u001b', '[31mRED\u001b[0m done'], 'red RED done'],
    ['a colour code cut inside its parameters', ['a\u001b[3', '1mb\u001b[0', 'mc'], 'abc'],
    ['a title sequence cut before its BEL', ['x\u001b]0;ti', 'tle\u0007y'], 'x␛]0;title␇y'],
    ['a CRLF cut between CR and LF', ['one\r', '\ntwo'], 'one\ntwo'],
    ['an 8-bit CSI cut in two', ['p\u009b3', '1mq'], 'pq'],
  ])('%s never shows half a sequence', (_name, chunks, shown) => {
    const { r, text } = relay();
    for (const c of chunks) r.push(chunkOf('c1', c));
    r.flush();
    expect(text()).toBe(shown);
    expect(text()).not.toMatch(/\u001b|\u009b/);
  });

  it('a sequence that never ends is sent (visibly) once it is longer than any real one', () => {
    const { r, text } = relay();
    r.push(chunkOf('c1', `a\u001b]0;${'x'.repeat(300)}`));
    r.flush();
    expect(text()).toContain('␛]0;xxx');
  });

  it('coalesces a burst into one event per call per interval', () => {
    vi.useFakeTimers();
    const { r, sent } = relay();
    for (let i = 0; i < 100; i++) r.push(chunkOf('c1', `line ${i}\n`));
    r.push(chunkOf('c2', 'other\n'));
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(50);
    expect(sent.map((e) => e.callId)).toEqual(['c1', 'c2']);
    expect(sent[0]?.chunk.split('\n')).toHaveLength(101);
  });

  it('100 MB of output keeps only the newest text and counts the lines left out', () => {
    const { r, sent } = relay({ keepChars: 16 * 1024 });
    const line = `${'x'.repeat(99)}\n`;
    const block = line.repeat(640); // 64 000 characters
    for (let i = 0; i < 1600; i++) r.push(chunkOf('c1', block));
    r.flush();
    expect(sent).toHaveLength(1);
    const event = sent[0] as OutputEvent;
    expect(event.chunk.length).toBeLessThanOrEqual(16 * 1024);
    expect(event.chunk.startsWith('x')).toBe(true);
    const kept = event.chunk.split('\n').length - 1;
    expect((event.skippedLines ?? 0) + kept).toBe(1600 * 640);
  });

  it('end() drops what is pending: the result replaces the live tail', () => {
    const { r, sent } = relay();
    r.push(chunkOf('c1', 'late\n'));
    r.end('c1');
    r.flush();
    expect(sent).toHaveLength(0);
  });

  it.each([
    ['plain', 'abc', 3],
    ['ESC at the end', 'abc\u001b', 3],
    ['whole CSI', 'abc\u001b[1m', 7],
    ['CR at the end', 'abc\r', 3],
    ['ESC before a newline', 'a\u001b[\nb', 5],
  ])('heldFrom: %s', (_name, text, at) => {
    expect(heldFrom(text)).toBe(at);
  });

  it('safeChunk keeps a lone CR and makes every other control visible', () => {
    expect(safeChunk('50%\r60%\u0007\r\n')).toBe('50%\r60%␇\n');
  });
});

describe('foldTail', () => {
  it.each([
    ['complete lines', ['a\nb\n'], ['a', 'b'], 2],
    ['an unfinished line counts and shows', ['a\nb'], ['a', 'b'], 2],
    ['a line printed in pieces', ['ab', 'c\nd'], ['abc', 'd'], 2],
    ['a CR overwrites the line (progress)', ['10%\r20%\r30%'], ['30%'], 1],
    ['a CR at the end of a read still overwrites', ['10%\r', '20%\n'], ['20%'], 1],
    ['only the last five lines are kept', ['1\n2\n3\n4\n5\n6\n7\n'], ['3', '4', '5', '6', '7'], 7],
  ])('%s', (_name, chunks, lines, total) => {
    let tail = emptyTail();
    for (const c of chunks) tail = foldTail(tail, c);
    expect(publishTail(tail)).toEqual({ lines, total });
  });

  it('lines left out by the relay count, and what came before the gap is not shown next to what follows', () => {
    let tail = foldTail(emptyTail(), 'first\nsecond\n');
    tail = foldTail(tail, 'after\n', 100);
    expect(publishTail(tail)).toEqual({ lines: ['after'], total: 103 });
  });

  it('a 1 MB line without a newline stays bounded', () => {
    const tail = foldTail(emptyTail(), 'y'.repeat(1_000_000));
    expect(publishTail(tail).lines[0]?.length).toBeLessThanOrEqual(2000);
  });
});
