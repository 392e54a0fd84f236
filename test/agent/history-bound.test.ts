import { describe, expect, it } from 'vitest';
import { boundCall, boundResult, headTail, historyLimits } from '../../src/agent/history-bound';
import type { ToolCallRequest } from '../../src/llm/types';
import type { ToolResultEnvelope } from '../../src/protocol';

const call = (args: string, name = 'write_file'): ToolCallRequest => ({
  id: 'c1',
  type: 'function',
  function: { name, arguments: args },
});
const big = (n: number) => 'x'.repeat(n);
const LIMIT = 16_384;

describe('boundCall', () => {
  it('keeps arguments under the limit as they are (the same object)', () => {
    const c = call(JSON.stringify({ path: 'a.ts', content: big(10_000) }));
    expect(boundCall(c, LIMIT)).toBe(c);
  });

  const executed: ToolResultEnvelope = { status: 'executed', output: 'Wrote a.ts' };
  const blocked: ToolResultEnvelope = { status: 'blocked', by: 'guard', reason: 'too big' };
  it.each([
    [
      'written',
      executed,
      /^\[12 MB of content, not kept in the conversation; written to a\.ts; read the file to see it; sha256 [0-9a-f]{16}\]$/,
    ],
    [
      'blocked',
      blocked,
      /^\[12 MB of content, not kept in the conversation; the call was not run \(blocked\), so a\.ts was not written; sha256 [0-9a-f]{16}\]$/,
    ],
    ['not run yet', undefined, /^\[12 MB of content, not kept in the conversation; sha256 [0-9a-f]{16}\]$/],
  ])('a 12 MB content (%s) becomes a pointer; the path stays', (_name, result, pointer) => {
    const bounded = boundCall(
      call(JSON.stringify({ path: 'a.ts', content: big(12 * 1024 * 1024) })),
      LIMIT,
      result,
    );
    const args = JSON.parse(bounded.function.arguments);
    expect(args.path).toBe('a.ts');
    expect(args.content).toMatch(pointer);
    expect(bounded.function.arguments.length).toBeLessThan(400);
    expect(bounded.id).toBe('c1');
  });

  it.each([
    ['broken JSON', `{"path":"a.ts","content":"${big(50_000)}`],
    [
      'a huge array of short strings',
      JSON.stringify({ path: 'a.ts', items: Array.from({ length: 20_000 }, () => 'abc') }),
    ],
    ['a top-level array', JSON.stringify(Array.from({ length: 20_000 }, () => 'abc'))],
    ['a deep object', JSON.stringify({ a: { b: { c: big(40_000) } } })],
  ])('%s: valid JSON arguments within the limit', (_name, args) => {
    const bounded = boundCall(call(args), LIMIT).function.arguments;
    expect(bounded.length).toBeLessThanOrEqual(LIMIT);
    expect(() => JSON.parse(bounded)).not.toThrow();
    expect(bounded).toContain('not kept in the conversation');
  });

  it('hashes the content, so two different contents give two pointers', () => {
    const a = boundCall(call(JSON.stringify({ content: big(20_000) })), LIMIT).function.arguments;
    const b = boundCall(call(JSON.stringify({ content: `${big(19_999)}y` })), LIMIT).function.arguments;
    expect(a).not.toBe(b);
  });
});

describe('boundResult', () => {
  it('keeps a small result as its JSON', () => {
    const env: ToolResultEnvelope = { status: 'executed', output: 'ok' };
    expect(boundResult(env, 8_000)).toBe(JSON.stringify(env));
  });

  it.each([
    ['plain text', 'line\n'.repeat(200_000)],
    ['quotes and controls that escape to more', '"\u0001\\'.repeat(100_000)],
  ])('a 1 MB output of %s keeps its head, tail and status within the limit', (_name, output) => {
    const json = boundResult({ status: 'executed', by: 'tool', output: `HEAD${output}TAIL` }, 50_000);
    expect(json.length).toBeLessThanOrEqual(50_000);
    const env = JSON.parse(json);
    expect(env.status).toBe('executed');
    expect(env.output).toMatch(/cut from the middle|not kept in the conversation/);
  });

  it('keeps head and tail of readable output', () => {
    const env = JSON.parse(
      boundResult({ status: 'executed', output: `HEAD${'a'.repeat(100_000)}TAIL` }, 20_000),
    );
    expect(env.output.startsWith('HEAD')).toBe(true);
    expect(env.output.endsWith('TAIL')).toBe(true);
  });

  it('replaces huge data with a pointer', () => {
    const env = JSON.parse(
      boundResult(
        { status: 'executed', output: 'ok', data: { rows: Array.from({ length: 50_000 }, (_, i) => i) } },
        20_000,
      ),
    );
    expect(env.data).toMatch(/of data, not kept in the conversation/);
    expect(env.output).toBe('ok');
  });
});

describe('historyLimits and headTail', () => {
  it.each([
    [8_000, { argChars: 2_000, resultChars: 8_000, textChars: 4_000 }],
    [128_000, { argChars: 16_384, resultChars: 112_000, textChars: 56_000 }],
    [1_000_000, { argChars: 16_384, resultChars: 200_000, textChars: 64_000 }],
  ])('a context of %i tokens', (tokens, limits) => {
    expect(historyLimits(tokens)).toEqual(limits);
  });

  it('leaves short text alone and cuts long text in the middle', () => {
    expect(headTail('short', 100)).toBe('short');
    const cut = headTail(`A${'b'.repeat(10_000)}Z`, 1_000);
    expect(cut.length).toBeLessThan(1_200);
    expect(cut).toMatch(/^A.*cut from the middle.*Z$/s);
  });
});
