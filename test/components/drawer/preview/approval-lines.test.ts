import { describe, expect, it } from 'vitest';
import { argsPreviewLines, commandPreviewLines } from '../../../../components/drawer/preview/approval-lines';
import { makeRequest } from '../../../helpers/fake-core';

describe('argsPreviewLines', () => {
  it('puts what the call will do above its arguments', () => {
    const request = makeRequest({
      tool: 'revert_turn',
      args: { turns: 1 },
      preview: { kind: 'json', effects: ['Reverts 1 turn(s):', 'restore /p/a.txt'] },
    });
    const text = argsPreviewLines(request, 80).map((l) => l.text);
    expect(text.slice(0, 3)).toEqual(['Reverts 1 turn(s):', 'restore /p/a.txt', 'arguments']);
    expect(text.join('\n')).toContain('"turns": 1');
  });

  it('names the MCP server and tool and shows only the arguments when there are no effects', () => {
    const request = makeRequest({
      tool: 'mcp__github__create_issue',
      args: { title: 't' },
      preview: { kind: 'json' },
    });
    const text = argsPreviewLines(request, 80).map((l) => l.text);
    expect(text[0]).toBe('MCP server github · tool create_issue');
    expect(text).not.toContain('arguments');
  });
});

describe('commandPreviewLines', () => {
  it('lists every write target right under the command, protected ones flagged (issue 10 §3)', () => {
    const preview = {
      kind: 'command' as const,
      command: 'npm test > out.txt && echo x > package.json; echo y > /tmp/t',
      cwd: '/p',
      timeoutMs: 60_000,
      sandboxed: true,
      parts: ['npm test', 'echo x', 'echo y'],
      notes: [],
      writes: [
        { path: 'out.txt' },
        { path: 'package.json', protected: 'package.json' },
        { path: '/tmp/t', scratch: true as const },
      ],
    };
    const lines = commandPreviewLines(preview, 100);
    expect(lines.slice(1, 4)).toEqual([
      { text: 'writes   out.txt', tone: 'plain' },
      { text: 'writes   package.json (protected)', tone: 'note' },
      { text: 'writes   /tmp/t (sandbox scratch, discarded)', tone: 'plain' },
    ]);
    expect(
      commandPreviewLines({ ...preview, writes: undefined }, 100).some((l) => l.text.startsWith('writes')),
    ).toBe(false);
  });
});

describe('commandPreviewLines: nothing hides below blank lines', () => {
  const preview = (command: string) => ({
    kind: 'command' as const,
    command,
    cwd: '/p',
    timeoutMs: 60_000,
    sandboxed: true,
    parts: [],
    notes: [],
  });

  it('40 blank lines, then the real command: the real command is the third row', () => {
    const text = commandPreviewLines(preview(`echo ok${'\n'.repeat(41)}rm -rf src`), 80).map((l) => l.text);
    expect(text.slice(0, 3)).toEqual(['$ echo ok', '  ⋯ 40 blank lines', '  rm -rf src']);
  });

  it('blank rows made by a long run of spaces fold too; one blank line stays a blank line', () => {
    const spaces = commandPreviewLines(preview(`echo ok${' '.repeat(400)}; rm -rf src`), 40).map(
      (l) => l.text,
    );
    expect(spaces[1]).toMatch(/⋯ \d+ blank lines/);
    expect(spaces[2]?.trim()).toBe('; rm -rf');
    const one = commandPreviewLines(preview('echo a\n\necho b'), 80).map((l) => l.text);
    expect(one.slice(0, 3)).toEqual(['$ echo a', '  ', '  echo b']);
  });

  it('a command that starts with blank lines keeps its $ row', () => {
    const text = commandPreviewLines(preview(`\n\n\n\nrm x`), 80).map((l) => l.text);
    expect(text.slice(0, 3)).toEqual(['$ ', '  ⋯ 3 blank lines', '  rm x']);
  });
});
