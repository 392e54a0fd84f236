// The person's edit is seen (issue 13 §3): the editors send an edit for review, the card then shows the
// edited call (its diff, what changed) and only the next `y` sends the approve; several Backspaces in one
// read erase in the JSON editor.
import type { Key } from 'ink';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { editorFromText, editorKey, editorText } from '../../../../components/drawer/forms/args-editor-state';
import { typedPieces } from '../../../../components/widgets/text-field-state';
import type { ApprovalRequest } from '../../../../src/protocol';
import { makeRequest } from '../../../helpers/fake-core';
import { KEY, NO_KEY, press, waitUntil } from '../../../helpers/ink';
import { renderDrawer } from '../approval-drawer-harness';

afterEach(() => cleanup());

const k = (patch: Partial<Key> = {}): Key => ({ ...NO_KEY, ...patch });

describe('typed chunks', () => {
  const cases: [string, string, ReturnType<typeof typedPieces>][] = [
    ['three DELs', '\x7f\x7f\x7f', [{ kind: 'erase' }, { kind: 'erase' }, { kind: 'erase' }]],
    [
      'text then DEL then text',
      'ab\x7fc',
      [{ kind: 'text', text: 'ab' }, { kind: 'erase' }, { kind: 'text', text: 'c' }],
    ],
    [
      'BS erases too, other controls vanish',
      '\bx\u0007\u001b',
      [{ kind: 'erase' }, { kind: 'text', text: 'x' }],
    ],
    ['line breaks are text', 'a\nb', [{ kind: 'text', text: 'a\nb' }]],
  ];
  it.each(cases)('%s', (_name, chunk, pieces) => expect(typedPieces(chunk)).toEqual(pieces));
});

describe('args editor: several keys in one read', () => {
  const cases: [string, string, number, string, string][] = [
    ['three Backspaces in one chunk erase three characters', '{"a": "xyz"}', 10, '\x7f\x7f\x7f', '{"a": ""}'],
    ['Backspaces across a line break join the lines', 'ab\ncd', 4, '\x7f\x7f\x7f', 'ad'],
    ['typing and erasing in one chunk', '""', 1, 'abc\x7fd', '"abd"'],
    ['no DEL character is ever inserted', 'x', 1, '\x7f\x7f', ''],
  ];
  it.each(cases)('%s', (_name, text, offset, chunk, expected) => {
    let s = editorFromText(text);
    // Move the cursor `offset` characters right (across lines).
    for (let i = 0; i < offset; i++) s = editorKey(s, '', k({ rightArrow: true }));
    s = editorKey(s, chunk, k());
    expect(editorText(s)).toBe(expected);
    expect(editorText(s)).not.toContain('\x7f');
  });
});

const writeRequest = (over: Partial<ApprovalRequest> = {}) =>
  makeRequest({
    id: 'req-1',
    tool: 'write_file',
    args: { path: 'src/a.ts', content: 'one\ntwo\n' },
    preview: { kind: 'diff', path: 'src/a.ts', before: 'one\n', after: 'one\ntwo\n', isNew: false },
    ...over,
  });

/** The request as the core shows it after accepting the edit for review. */
const staged = (content: string, changes: string[]) =>
  writeRequest({
    args: { path: 'src/a.ts', content },
    argsHash: 'edited-hash',
    preview: { kind: 'diff', path: 'src/a.ts', before: 'one\n', after: content, isNew: false },
    revision: 1,
    grantOptions: [],
    edited: { proposed: { path: 'src/a.ts', content: 'one\ntwo\n' }, changes },
  });

describe('the card after an edit', () => {
  it('e, a chunk of Backspaces, Ctrl+S: the edit goes for review; the card shows it and y sends the approve', async () => {
    const d = renderDrawer([writeRequest()]);
    await d.ready();
    await press(d.stdin, 'e');
    await d.frame('Edit arguments (JSON)');
    // The content line: `  "content": "one\ntwo\n"`; end of line, then before the closing quote.
    await press(d.stdin, KEY.down, KEY.down, KEY.ctrl('e'), KEY.left);
    d.stdin.write('\x7f\x7f\x7f\x7f\x7f');
    await d.frame('"content": "one\\n"');
    await press(d.stdin, KEY.ctrl('s'));
    await waitUntil(() =>
      expect(d.core.sentOf('decide').map((c) => c.decision)).toEqual([
        { kind: 'edit', args: { path: 'src/a.ts', content: 'one\n' }, review: true },
      ]),
    );
    // Nothing more is sent until the core answers with the staged card.
    await press(d.stdin, 'y');
    expect(d.core.sentOf('decide')).toHaveLength(1);
    const next = staged('one\nthree\n', [
      "content: the person's version differs at line 2 (+1 −1):\n  - two\n  + three",
    ]);
    d.rerender({ pending: [next] });
    const f = await d.frame('edited by you');
    expect(f).toContain('this is your version · y runs it');
    expect(f).toContain("content: the person's version differs at line 2 (+1 −1):");
    expect(f).toMatch(/\+.*three/);
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide').map((c) => c.decision)).toEqual([
        { kind: 'edit', args: { path: 'src/a.ts', content: 'one\n' }, review: true },
        { kind: 'approve' },
      ]),
    );
  });

  it('a command edit shows the changed argument, and no approve-all is offered', async () => {
    const request = makeRequest({
      id: 'req-c',
      tool: 'execute_command',
      args: { command: 'npm test -- --watch=false' },
      preview: {
        kind: 'command',
        command: 'npm test -- --watch=false',
        cwd: '.',
        timeoutMs: 60_000,
        sandboxed: true,
        parts: ['npm test -- --watch=false'],
        notes: [],
      },
      grantOptions: [],
      revision: 1,
      edited: {
        proposed: { command: 'npm test' },
        changes: ['command: "npm test" → "npm test -- --watch=false"'],
      },
    });
    const d = renderDrawer([request]);
    const f = await d.ready('edited by you');
    expect(f).toContain('command: "npm test" → "npm test -- --watch=false"');
    expect(f).toContain('no approve-all scope');
  });

  it('a refused edit says why and the card takes a new decision', async () => {
    const d = renderDrawer([writeRequest()]);
    await d.ready();
    await press(d.stdin, 'e');
    await d.frame('Edit arguments (JSON)');
    await press(d.stdin, KEY.ctrl('s'));
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(1));
    d.rerender({
      pending: [writeRequest({ editError: 'blocked (path-fence): outside the project', revision: 1 })],
    });
    await d.frame('refused: blocked (path-fence)');
    await press(d.stdin, 'n');
    await d.frame(/reason/i);
  });
});
