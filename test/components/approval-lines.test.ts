import { describe, expect, it } from 'vitest';
import { argsPreviewLines } from '../../components/approval-lines';
import { makeRequest } from '../helpers/fake-core';

describe('argsPreviewLines', () => {
  it('puts what the call will do above its arguments', () => {
    const request = makeRequest({ tool: 'revert_turn', args: { turns: 1 }, preview: { kind: 'json', effects: ['Reverts 1 turn(s):', 'restore /p/a.txt'] } });
    const text = argsPreviewLines(request, 80).map((l) => l.text);
    expect(text.slice(0, 3)).toEqual(['Reverts 1 turn(s):', 'restore /p/a.txt', 'arguments']);
    expect(text.join('\n')).toContain('"turns": 1');
  });

  it('names the MCP server and tool and shows only the arguments when there are no effects', () => {
    const request = makeRequest({ tool: 'mcp__github__create_issue', args: { title: 't' }, preview: { kind: 'json' } });
    const text = argsPreviewLines(request, 80).map((l) => l.text);
    expect(text[0]).toBe('MCP server github · tool create_issue');
    expect(text).not.toContain('arguments');
  });
});
