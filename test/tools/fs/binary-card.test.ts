/**
 * Issue 11 §4 through the real gate: a binary file is replaced with text only on a high-risk card
 * that says so — in every mode that would otherwise let the write through.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mode } from '../../../src/protocol';
import { createWriteFileTool } from '../../../src/tools/fs/write-file';
import { createGateHarness, type GateHarness } from '../../helpers/gate-harness';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

describe('replacing a binary file with text', () => {
  it.each(['manual', 'auto-edit', 'auto'] as Mode[])(
    '%s: without replace_binary nothing is written and the model is told how',
    async (mode) => {
      h = createGateHarness({ mode, tools: [createWriteFileTool()] });
      writeFileSync(join(h.root, 'logo.png'), PNG);
      const pending = h.call('write_file', { path: 'logo.png', content: 'not an image\n' });
      if (mode === 'manual') h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
      const result = await pending;
      expect(result.reason ?? result.output).toContain('replace_binary: true');
      expect(readFileSync(join(h.root, 'logo.png')).equals(PNG)).toBe(true);
    },
  );

  it.each(['manual', 'auto-edit', 'auto'] as Mode[])(
    '%s: with replace_binary a high-risk card says so, and only an approval writes',
    async (mode) => {
      h = createGateHarness({ mode, tools: [createWriteFileTool()] });
      writeFileSync(join(h.root, 'logo.png'), PNG);
      const rejected = h.call('write_file', { path: 'logo.png', content: 'text\n', replace_binary: true });
      const card = await h.nextRequest();
      expect(card.risk.level).toBe('high');
      expect(card.risk.reasons.join(' ')).toContain('replaces a binary file with text');
      expect(card.preview).toMatchObject({
        kind: 'diff',
        binary: true,
        before: expect.stringContaining('binary file of 12 B'),
      });
      expect(card.grantOptions).toEqual([]);
      h.gate.decide(card.id, { kind: 'reject', reason: 'keep the logo' });
      expect((await rejected).status).toBe('rejected');
      expect(readFileSync(join(h.root, 'logo.png')).equals(PNG)).toBe(true);

      const approved = h.call(
        'write_file',
        { path: 'logo.png', content: 'text, really\n', replace_binary: true },
        { taskId: 'task-2' },
      );
      h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
      expect(await approved).toMatchObject({ status: 'executed' });
      expect(readFileSync(join(h.root, 'logo.png'), 'utf8')).toBe('text, really\n');
    },
  );

  it('a text file shows as text on the card, with no binary flag', async () => {
    h = createGateHarness({ tools: [createWriteFileTool()] });
    writeFileSync(join(h.root, 'a.txt'), 'old\n');
    const pending = h.call('write_file', { path: 'a.txt', content: 'new\n' });
    const card = await h.nextRequest();
    expect(card.preview).toEqual({
      kind: 'diff',
      path: 'a.txt',
      before: 'old\n',
      after: 'new\n',
      isNew: false,
    });
    h.gate.decide(card.id, { kind: 'skip' });
    await pending;
  });
});
