/**
 * Issue 16, approve key → file on disk: between a person's approval and the rename of a small file,
 * nothing leaves the current task — so the UI's render of the closing card (scheduled for the next
 * turn of the event loop) cannot run first and delay the file. A `setImmediate` armed before the
 * decision stands in for that render: by the time it runs, the file holds the approved content.
 * Larger files take the thread pool and are still written whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../src/tools/fs/edit-file';
import { NOW_MAX_BYTES } from '../../src/tools/fs/safe-fs-now';
import { createWriteFileTool } from '../../src/tools/fs/write-file';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
});

/** What the file holds when the next turn of the event loop starts (undefined: absent). */
function atNextTurn(path: string): Promise<string | undefined> {
  return new Promise((resolve) =>
    setImmediate(() => {
      try {
        resolve(readFileSync(path, 'utf8'));
      } catch {
        resolve(undefined);
      }
    }),
  );
}

describe('an approved write of a small file', () => {
  it.each([
    ['a new file', 'write_file', { path: 'new.txt', content: 'fresh\n' }, 'fresh\n'],
    ['a file replaced whole', 'write_file', { path: 'old.txt', content: 'new\n' }, 'new\n'],
    [
      'an edited file',
      'edit_file',
      { path: 'old.txt', edits: [{ old_string: 'old', new_string: 'edited' }] },
      'edited\n',
    ],
  ])('%s is on disk before the event loop turns after the approval', async (_name, tool, args, expected) => {
    h = createGateHarness({ tools: [createWriteFileTool(), createEditFileTool()] });
    h.write('old.txt', 'old\n');
    const result = h.call(tool, args);
    const request = await h.nextRequest();
    const seen = atNextTurn(join(h.root, args.path));
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await seen).toBe(expected);
    expect((await result).status).toBe('executed');
    expect(readdirSync(h.root).filter((n) => n.endsWith('.warden-tmp'))).toEqual([]);
  });
});

describe('an approved write larger than the synchronous budget', () => {
  it('replaces a large file whole through the thread pool, leaving no temp file', async () => {
    h = createGateHarness({ tools: [createWriteFileTool()] });
    h.write('big.txt', `${'a'.repeat(NOW_MAX_BYTES + 10)}\n`);
    const content = `${'b'.repeat(NOW_MAX_BYTES + 20)}\n`;
    const result = h.call('write_file', { path: 'big.txt', content });
    h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(readFileSync(join(h.root, 'big.txt'), 'utf8')).toBe(content);
    expect(readdirSync(h.root).filter((n) => n.endsWith('.warden-tmp'))).toEqual([]);
  });
});
