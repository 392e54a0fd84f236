// The person's edit is told (issue 13 §3), through a real session and the real openai client: the next
// request to the model carries the "edited by the person" result with the final arguments, and the
// transcript's card says the call was edited.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, TranscriptEntry } from '../../src/protocol';
import { lastToolMessage } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });
const staged = (s: SessionHarness, id: string): Promise<ApprovalRequest> =>
  new Promise((resolve) => {
    const check = () => {
      const r = s.session.client.snapshot().pending.find((p) => p.id === id && p.edited);
      if (r) resolve(r);
      return r !== undefined;
    };
    if (check()) return;
    const off = s.session.client.subscribe(() => check() && off());
  });

describe('a person edits a call', () => {
  const cases: [string, string, Record<string, unknown>, unknown, Record<string, string>, string, RegExp][] =
    [
      [
        'write_file: the model gets the changed lines, not the whole file',
        'write_file',
        { path: 'a.txt', content: 'one\ntwo\nthree\n' },
        { path: 'a.txt', content: 'one\nTWO (by hand)\nthree\n' },
        { 'a.txt': 'one\n' },
        'one\nTWO (by hand)\nthree\n',
        /^content: the person's version differs at line 2 \(\+1 −1\):\n {2}- two\n {2}\+ TWO \(by hand\)$/,
      ],
      [
        'edit_file: the model gets the final edits',
        'edit_file',
        { path: 'a.txt', edits: [{ old_string: 'one', new_string: '1' }] },
        { path: 'a.txt', edits: [{ old_string: 'one', new_string: 'uno' }] },
        { 'a.txt': 'one\n' },
        'uno\n',
        /^edits\[0\]\.new_string: "1" → "uno"$/,
      ],
    ];
  it.each(cases)('%s', async (_name, tool, proposed, edited, files, onDisk, change) => {
    h = await startSession([call(tool, proposed), { text: 'ok' }], { files });
    const done = h.session.run('change a.txt');
    const request = await h.nextRequest();
    h.decide(request.id, { kind: 'edit', args: edited, review: true });
    const shown = await staged(h, request.id);
    expect(shown.edited?.changes[0]).toMatch(change);
    expect(readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe('one\n');
    h.decide(request.id, { kind: 'approve' });
    await done;
    expect(readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe(onDisk);
    const next = h.fake.requests[1];
    if (!next) throw new Error('the model was not asked again');
    const result = JSON.parse(String(lastToolMessage(next)?.content));
    expect(result).toMatchObject({ status: 'executed', edited: { by: 'user', args: edited } });
    expect(result.edited.note).toMatch(/Keep their change/);
    expect(result.edited.changes[0]).toMatch(change);
    const card = h.session.client
      .snapshot()
      .transcript.find((e): e is Extract<TranscriptEntry, { kind: 'tool' }> => e.kind === 'tool');
    expect(card?.summary).toMatch(/edited by you$/);
    expect(card?.output).toMatch(/✎ edited by you: /);
  });
});

describe('edit_file and undo', () => {
  it('revert_turn restores what an edit_file turn changed (checkpointed like write_file)', async () => {
    h = await startSession(
      [
        call('edit_file', { path: 'r.txt', edits: [{ old_string: 'old', new_string: 'new' }] }),
        { text: 'edited' },
        call('revert_turn', { turns: 1 }),
        { text: 'reverted' },
      ],
      { files: { 'r.txt': 'old line\n' } },
    );
    const first = h.session.run('change r');
    h.decide((await h.nextRequest()).id, { kind: 'approve' });
    await first;
    expect(readFileSync(join(h.root, 'r.txt'), 'utf8')).toBe('new line\n');
    const second = h.session.run('undo that');
    const request = await h.nextRequest();
    expect(request.tool).toBe('revert_turn');
    h.decide(request.id, { kind: 'approve' });
    await second;
    expect(readFileSync(join(h.root, 'r.txt'), 'utf8')).toBe('old line\n');
  });
});
