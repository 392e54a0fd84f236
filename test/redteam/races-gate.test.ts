/**
 * Red team, races: between the card a person approves and the write. The card shows a diff of the file
 * as it was; a concurrent process then swaps the file's folder for a link out (whose file has the very
 * same content, so a hash alone would pass), for another folder of the project, or rewrites the file
 * after the executor's own re-check and before the tool reads it. The write must not land outside,
 * and must not replace content the person never saw: the executor refuses (path fence or
 * file_changed, which asks again with the new diff), or the tool does.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, ToolResultEnvelope } from '../../src/protocol';
import { createEditFileTool } from '../../src/tools/fs/edit-file';
import { RACE_FREE_FS, readFileSafely } from '../../src/tools/fs/safe-fs';
import {
  createWriteFileTool,
  defaultWriteFileEffects,
  type WriteFileEffects,
} from '../../src/tools/fs/write-file';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { makeSentinel, type Sentinel } from './races-sentinel';

let h: GateHarness | undefined;
let sentinel: Sentinel | undefined;
afterEach(() => {
  h?.cleanup();
  if (sentinel) rmSync(sentinel.dir, { recursive: true, force: true });
  h = undefined;
  sentinel = undefined;
});

const SHOWN = 'shown on the card\n';

/** The default effects, with `meddle` run once, just before the tool's own read (after the executor's re-check). */
function meddling(meddle: () => void): WriteFileEffects {
  let fired = false;
  return {
    ...defaultWriteFileEffects,
    read: (target, max) => {
      if (!fired) {
        fired = true;
        meddle();
      }
      return readFileSafely(target, max);
    },
  };
}

/** The next card, or the call's end if it ended instead (a write made without asking again fails the test, never hangs it). */
async function nextCardOrEnd(harness: GateHarness, result: Promise<ToolResultEnvelope>) {
  return Promise.race([
    harness.nextRequest().then((request) => ({ request })),
    result.then((ended) => ({ ended })),
  ]);
}

const editArgs = { path: 'dir/a.txt', edits: [{ old_string: 'shown', new_string: 'edited' }] };
const writeArgs = { path: 'dir/a.txt', content: 'written\n' };

describe.each([
  ['write_file', writeArgs],
  ['edit_file', editArgs],
] as const)('%s: the folder swapped after the card was shown', (tool, args) => {
  it('for a link to an outside folder holding the same content: blocked by the fence, outside untouched', async () => {
    h = createGateHarness({ tools: [createWriteFileTool(), createEditFileTool()] });
    sentinel = makeSentinel({ 'a.txt': SHOWN });
    h.write('dir/a.txt', SHOWN);
    const before = sentinel.snapshot();
    const result = h.call(tool, args);
    const request = await h.nextRequest();
    expect(request.preview).toMatchObject({ kind: 'diff', before: SHOWN });
    renameSync(join(h.root, 'dir'), join(h.root, 'dir-aside'));
    symlinkSync(sentinel.dir, join(h.root, 'dir'));
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({
      status: 'blocked',
      rule: 'path-fence',
      reason: expect.stringContaining('outside the project'),
    });
    expect(sentinel.snapshot()).toEqual(before);
    expect(readFileSync(join(h.root, 'dir-aside', 'a.txt'), 'utf8')).toBe(SHOWN);
  });

  it('for another project folder whose file differs: file_changed, asked again with the new diff', async () => {
    h = createGateHarness({ tools: [createWriteFileTool(), createEditFileTool()] });
    h.write('dir/a.txt', SHOWN);
    h.write('other/a.txt', 'shown elsewhere, not this\n');
    const result = h.call(tool, args);
    const first = await h.nextRequest();
    renameSync(join(h.root, 'dir'), join(h.root, 'dir-aside'));
    renameSync(join(h.root, 'other'), join(h.root, 'dir'));
    h.gate.decide(first.id, { kind: 'approve' });
    const again = await h.nextRequest();
    expect(again.preview).toMatchObject({ kind: 'diff', before: 'shown elsewhere, not this\n' });
    h.gate.decide(again.id, { kind: 'reject', reason: 'not that one' });
    expect(await result).toMatchObject({ status: 'rejected' });
    expect(h.read('dir/a.txt')).toBe('shown elsewhere, not this\n');
    expect(h.read('dir-aside/a.txt')).toBe(SHOWN);
  });
});

describe('the file rewritten after the executor re-checked it, before the tool reads it', () => {
  it.each([
    ['write_file', writeArgs],
    ['edit_file', { path: 'dir/a.txt', edits: [{ old_string: 'card', new_string: 'CARD' }] }],
  ] as const)(
    '%s does not replace content the person never saw (file_changed, asked again)',
    async (tool, args) => {
      const rewrite = () => writeFileSync(join(h?.root ?? '', 'dir', 'a.txt'), 'a concurrent card rewrite\n');
      h = createGateHarness({
        tools: [createWriteFileTool(meddling(rewrite)), createEditFileTool(meddling(rewrite))],
      });
      h.write('dir/a.txt', SHOWN);
      const result = h.call(tool, args);
      const first = await h.nextRequest();
      expect(first.preview).toMatchObject({ kind: 'diff', before: SHOWN });
      h.gate.decide(first.id, { kind: 'approve' });
      // The tool refused (file_changed): the gate shows the person the file as it is now.
      const next = await nextCardOrEnd(h, result);
      expect(next).toHaveProperty('request');
      const again = (next as { request: ApprovalRequest }).request;
      expect(again.preview).toMatchObject({ kind: 'diff', before: 'a concurrent card rewrite\n' });
      h.gate.decide(again.id, { kind: 'reject', reason: 'no' });
      expect(await result).toMatchObject({ status: 'rejected' });
      expect(h.read('dir/a.txt')).toBe('a concurrent card rewrite\n');
    },
  );

  it('write_file of a new file: one created meanwhile is not replaced unseen', async () => {
    const create = () => {
      mkdirSync(join(h?.root ?? '', 'dir'), { recursive: true });
      writeFileSync(join(h?.root ?? '', 'dir', 'new.txt'), 'made by someone else\n');
    };
    h = createGateHarness({ tools: [createWriteFileTool(meddling(create))] });
    const result = h.call('write_file', { path: 'dir/new.txt', content: 'mine\n' });
    const first = await h.nextRequest();
    expect(first.preview).toMatchObject({ kind: 'diff', isNew: true });
    h.gate.decide(first.id, { kind: 'approve' });
    const next = await nextCardOrEnd(h, result);
    expect(next).toHaveProperty('request');
    const again = (next as { request: ApprovalRequest }).request;
    expect(again.preview).toMatchObject({ kind: 'diff', before: 'made by someone else\n', isNew: false });
    h.gate.decide(again.id, { kind: 'reject' });
    expect(await result).toMatchObject({ status: 'rejected' });
    expect(h.read('dir/new.txt')).toBe('made by someone else\n');
  });
});

describe.skipIf(!RACE_FREE_FS)('the folder swapped for a link out after the tool read the file', () => {
  it.each([
    ['write_file', writeArgs],
    ['edit_file', editArgs],
  ] as const)('%s: the write refuses, outside untouched', async (tool, args) => {
    sentinel = makeSentinel({ 'a.txt': SHOWN });
    const snap = sentinel.snapshot();
    const out = sentinel.dir;
    let root = '';
    let fired = false;
    const effects: WriteFileEffects = {
      read: defaultWriteFileEffects.read,
      write: (target, bytes, mode) => {
        if (!fired) {
          fired = true;
          renameSync(join(root, 'dir'), join(root, 'dir-aside'));
          symlinkSync(out, join(root, 'dir'));
        }
        return defaultWriteFileEffects.write(target, bytes, mode);
      },
    };
    h = createGateHarness({
      mode: 'auto-edit',
      tools: [createWriteFileTool(effects), createEditFileTool(effects)],
    });
    root = h.root;
    h.write('dir/a.txt', SHOWN);
    const result = await h.call(tool, args);
    expect(result).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/Could not write dir\/a.txt; the original is unchanged/),
    });
    expect(sentinel.snapshot()).toEqual(snap);
    expect(h.read('dir-aside/a.txt')).toBe(SHOWN);
  });
});

describe('a file too large to preview (bound by size and time on the card)', () => {
  it('write_file over it, unchanged since the card, runs once approved: no false file_changed', async () => {
    h = createGateHarness({ tools: [createWriteFileTool()] });
    h.write('big.txt', 'x'.repeat(99).concat('\n').repeat(60_000));
    const result = h.call('write_file', { path: 'big.txt', content: 'small now\n' });
    const request = await h.nextRequest();
    expect(request.preview).toMatchObject({
      kind: 'diff',
      before: expect.stringContaining('too large to preview'),
    });
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.read('big.txt')).toBe('small now\n');
  });
});
