// The person's edit is seen and told (issue 13 §3): an edit with `review` is re-checked and shown on the
// card (its diff, what changed) and runs only on the next approve; the model's result says it was edited.
import { afterEach, describe, expect, it } from 'vitest';
import { describeChanges, editedResult } from '../../src/gate/edited-call';
import type { ApprovalRequest } from '../../src/protocol';
import { createEditFileTool } from '../../src/tools/fs/edit-file';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

/** Resolves with the pending request `id` once `test` holds for it. */
const pendingWhere = (id: string, test: (r: ApprovalRequest) => boolean) =>
  h.until(() => h.broker.pending().find((r) => r.id === id && test(r)));

describe('describeChanges', () => {
  const cases: [string, unknown, unknown, (string | RegExp)[]][] = [
    [
      'a short argument',
      { path: 'a.txt', content: 'x' },
      { path: 'b.txt', content: 'x' },
      ['path: "a.txt" → "b.txt"'],
    ],
    ['an added flag', { command: 'ls' }, { command: 'ls', timeout_ms: 5 }, ['timeout_ms: (none) → 5']],
    [
      'a file content: the differing lines, not the whole text',
      { content: 'one\ntwo\nthree\nfour\n' },
      { content: 'one\nTWO\nthree\nfour\n' },
      [/^content: the person's version differs at line 2 \(\+1 −1\):\n {2}- two\n {2}\+ TWO$/],
    ],
    [
      'an edit_file edit',
      { path: 'a', edits: [{ old_string: 'x', new_string: 'y' }] },
      { path: 'a', edits: [{ old_string: 'x', new_string: 'z' }] },
      ['edits[0].new_string: "y" → "z"'],
    ],
    ['nothing changed', { a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, []],
  ];
  it.each(cases)('%s', (_name, proposed, final, expected) => {
    const changes = describeChanges(proposed, final);
    expect(changes).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(changes[i]).toMatch(e));
  });

  it('the result for the model shortens long text and says to keep the edit', () => {
    const long = 'x'.repeat(5000);
    const result = editedResult({ path: 'a', content: long }, ['content: …']);
    expect(JSON.stringify(result).length).toBeLessThan(1000);
    expect(result.note).toMatch(/do not undo/);
  });
});

describe('an edit with review', () => {
  it('write_file: the card shows the edited diff and waits; the next approve runs the edit and the model is told', async () => {
    h = createGateHarness();
    h.write('a.txt', 'one\ntwo\n');
    const result = h.call('write_file', { path: 'a.txt', content: 'one\nTWO\n' });
    const request = await h.nextRequest();
    expect(
      h.gate.decide(request.id, { kind: 'edit', args: { path: 'a.txt', content: 'one\n2\n' }, review: true }),
    ).toEqual({ ok: true });
    const staged = await pendingWhere(request.id, (r) => r.edited !== undefined);
    expect(staged.preview).toMatchObject({ kind: 'diff', before: 'one\ntwo\n', after: 'one\n2\n' });
    expect(staged.args).toEqual({ path: 'a.txt', content: 'one\n2\n' });
    expect(staged.edited?.proposed).toEqual({ path: 'a.txt', content: 'one\nTWO\n' });
    expect(staged.edited?.changes[0]).toMatch(
      /^content: the person's version differs at line 2 \(\+1 −1\):\n {2}- TWO\n {2}\+ 2/,
    );
    expect(staged.grantOptions).toEqual([]);
    expect(h.ran()).toEqual([]);
    expect(h.read('a.txt')).toBe('one\ntwo\n');
    h.gate.decide(request.id, { kind: 'approve' });
    const envelope = await result;
    expect(envelope).toMatchObject({
      status: 'executed',
      edited: { by: 'user', args: { path: 'a.txt', content: 'one\n2\n' } },
    });
    expect(envelope.edited?.changes[0]).toMatch(/\+ 2/);
    expect(h.read('a.txt')).toBe('one\n2\n');
    expect(h.lastOutcome('write_file')).toMatchObject({
      editedArgs: { content: 'one\n2\n' },
      approver: 'human',
    });
  });

  it("edit_file: the staged card diffs the file with the person's edits", async () => {
    h = createGateHarness({ tools: [createEditFileTool()] });
    h.write('a.ts', 'let x = 1;\nlet y = 2;\n');
    const result = h.call('edit_file', {
      path: 'a.ts',
      edits: [{ old_string: 'x = 1', new_string: 'x = 10' }],
    });
    const request = await h.nextRequest();
    const mine = { path: 'a.ts', edits: [{ old_string: 'x = 1', new_string: 'x = 99' }] };
    h.gate.decide(request.id, { kind: 'edit', args: mine, review: true });
    const staged = await pendingWhere(request.id, (r) => r.edited !== undefined);
    expect(staged.preview).toMatchObject({ after: 'let x = 99;\nlet y = 2;\n' });
    expect(staged.edited?.changes).toEqual(['edits[0].new_string: "x = 10" → "x = 99"']);
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({
      status: 'executed',
      edited: { changes: ['edits[0].new_string: "x = 10" → "x = 99"'] },
    });
    expect(h.read('a.ts')).toBe('let x = 99;\nlet y = 2;\n');
  });

  const refused: [string, string, unknown, RegExp][] = [
    ['arguments the schema refuses', 'write_file', { path: 'a.txt' }, /content/],
    ['a path the fence blocks', 'write_file', { path: '../out.txt', content: 'x' }, /^blocked \(/],
    [
      'an edit_file edit that does not apply',
      'edit_file',
      { path: 'a.txt', edits: [{ old_string: 'nope', new_string: 'x' }] },
      /0 matches/,
    ],
  ];
  it.each(refused)(
    '%s: the card stays pending with the reason, nothing runs',
    async (_name, tool, edited, reason) => {
      h = createGateHarness({ tools: [createEditFileTool()] });
      h.write('a.txt', 'a\n');
      const args =
        tool === 'write_file'
          ? { path: 'a.txt', content: 'b\n' }
          : { path: 'a.txt', edits: [{ old_string: 'a', new_string: 'b' }] };
      const result = h.call(tool, args);
      const request = await h.nextRequest();
      h.gate.decide(request.id, { kind: 'edit', args: edited, review: true });
      const after = await pendingWhere(request.id, (r) => r.editError !== undefined);
      expect(after.editError).toMatch(reason);
      expect(after.edited).toBeUndefined();
      expect(h.read('a.txt')).toBe('a\n');
      h.gate.decide(request.id, { kind: 'reject' });
      expect(await result).toMatchObject({ status: 'rejected' });
      expect(h.read('a.txt')).toBe('a\n');
    },
  );

  it("a staged edit offers no approve-all, and a grant for the model's call does not run it", async () => {
    h = createGateHarness();
    const first = h.call('write_file', { path: 'src/a.txt', content: 'model' });
    const second = h.call('write_file', { path: 'src/b.txt', content: 'model' });
    const [a, b] = await h.waitForPending(2);
    if (!a || !b) throw new Error('two requests expected');
    h.gate.decide(b.id, { kind: 'edit', args: { path: 'src/b.txt', content: 'person' }, review: true });
    await pendingWhere(b.id, (r) => r.edited !== undefined);
    const scope = a.grantOptions.find((g) => g.match.kind === 'tool' && g.agents.kind === 'all');
    if (!scope) throw new Error('a tool scope expected');
    expect(h.gate.decide(b.id, { kind: 'approve_all', scope })).toMatchObject({ ok: false });
    h.gate.decide(a.id, { kind: 'approve_all', scope });
    expect(await first).toMatchObject({ status: 'executed' });
    expect(h.broker.pending().map((r) => r.id)).toEqual([b.id]);
    expect(h.read('src/b.txt')).toBeUndefined();
    h.gate.decide(b.id, { kind: 'approve' });
    expect(await second).toMatchObject({ status: 'executed', edited: { by: 'user' } });
    expect(h.read('src/b.txt')).toBe('person');
  });

  it('an edit sent without review runs at once and still tells the model; an unchanged edit tells nothing', async () => {
    h = createGateHarness();
    const edited = h.call('write_file', { path: 'a.txt', content: 'model' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'edit', args: { path: 'a.txt', content: 'person' } });
    expect(await edited).toMatchObject({
      status: 'executed',
      edited: { changes: ['content: "model" → "person"'] },
    });
    const same = h.call('write_file', { path: 'b.txt', content: 'same' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'edit', args: { path: 'b.txt', content: 'same' }, review: true });
    await pendingWhere(request.id, (r) => r.edited !== undefined);
    h.gate.decide(request.id, { kind: 'approve' });
    const envelope = await same;
    expect(envelope.status).toBe('executed');
    expect(envelope.edited).toBeUndefined();
  });
});
