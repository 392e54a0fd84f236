import { describe, expect, it } from 'vitest';
import { createTurnAssembler } from '../../src/llm/turn-assembler';

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  choices: [{ index: 0, delta, finish_reason: null }],
  ...extra,
});
const ids = () => {
  let n = 0;
  return () => `gen_${n++}`;
};

describe('createTurnAssembler', () => {
  it('joins text and returns each piece', () => {
    const a = createTurnAssembler(ids());
    expect(a.push(chunk({ role: 'assistant', content: '' })).text).toBe('');
    expect(a.push(chunk({ content: 'Hel' })).text).toBe('Hel');
    a.push(chunk({ content: 'lo' }));
    a.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    expect(a.finish()).toEqual({ text: 'Hello', toolCalls: [], usage: undefined, finishReason: 'stop' });
    expect(a.chunks).toBe(4);
  });

  it('keeps the first name when a server repeats it on every piece', () => {
    const a = createTurnAssembler(ids());
    a.push(
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'read_file', arguments: '{"pa' } }] }),
    );
    a.push(chunk({ tool_calls: [{ index: 0, function: { name: 'read_file', arguments: 'th":"a"}' } }] }));
    expect(a.finish().toolCalls).toEqual([
      { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
    ]);
  });

  it('tells each call’s name once, with the chunk that brought it, before its arguments end', () => {
    const a = createTurnAssembler(ids());
    expect(
      a.push(
        chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'execute_command', arguments: '' } }] }),
      ).named,
    ).toEqual(['execute_command']);
    expect(
      a.push(chunk({ tool_calls: [{ index: 0, function: { name: 'execute_command', arguments: '{"co' } }] }))
        .named,
    ).toEqual([]);
    expect(
      a.push(
        chunk({
          tool_calls: [
            { index: 0, function: { arguments: 'mmand":"ls"}' } },
            { index: 1, id: 'c2', function: { name: 'read_file', arguments: '{}' } },
          ],
        }),
      ).named,
    ).toEqual(['read_file']);
    expect(a.push(chunk({ content: 'done' })).named).toEqual([]);
  });

  it('generates ids, turns empty arguments into {} and accepts object arguments', () => {
    const a = createTurnAssembler(ids());
    a.push(chunk({ tool_calls: [{ index: 0, function: { name: 'list_dir' } }] }));
    a.push(chunk({ tool_calls: [{ index: 1, function: { name: 'read_file', arguments: { path: 'x' } } }] }));
    expect(a.finish().toolCalls).toEqual([
      { id: 'gen_0', type: 'function', function: { name: 'list_dir', arguments: '{}' } },
      { id: 'gen_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
    ]);
  });

  it('reads usage from a final chunk without choices, and ignores other choices and junk', () => {
    const a = createTurnAssembler(ids());
    a.push(null);
    a.push('junk');
    a.push({ choices: [{ index: 1, delta: { content: 'other choice' } }] });
    a.push({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });
    expect(a.finish()).toMatchObject({ text: '', usage: { promptTokens: 10, completionTokens: 2 } });
  });

  it('leaves usage undefined when the server sends null usage', () => {
    const a = createTurnAssembler(ids());
    a.push(chunk({ content: 'x' }, { usage: null }));
    expect(a.finish().usage).toBeUndefined();
  });
});
