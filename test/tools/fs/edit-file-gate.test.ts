// edit_file through the real gate: the card's diff, the fence, protected paths, modes, grants, and the
// token bound to the file's pre-image (issue 13 §1).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mode } from '../../../src/protocol';
import { createEditFileTool } from '../../../src/tools/fs/edit-file';
import { createGateHarness, type GateHarness } from '../../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

const harness = (mode: Mode = 'manual') => {
  h = createGateHarness({ mode, tools: [createEditFileTool()] });
  return h;
};
const edit = (path: string, old_string: string, new_string: string) => ({
  path,
  edits: [{ old_string, new_string }],
});

describe('edit_file through the gate', () => {
  it('asks with the diff of the file before and after, and approved, edits it', async () => {
    harness();
    h.write('src/a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = h.call('edit_file', edit('src/a.ts', 'b = 2', 'b = 3'));
    const request = await h.nextRequest();
    expect(request.preview).toEqual({
      kind: 'diff',
      path: 'src/a.ts',
      before: 'const a = 1;\nconst b = 2;\n',
      after: 'const a = 1;\nconst b = 3;\n',
      isNew: false,
    });
    expect(request.rule.id).toBe('default-ask-edit_file');
    expect(request.reversible).toBe(true);
    expect(request.grantOptions.map((g) => g.match.kind)).toContain('path_glob');
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed', output: expect.stringMatching(/\+1 −1/) });
    expect(h.read('src/a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('an edit that cannot apply is answered at once, with no card, and nothing is written', async () => {
    harness();
    h.write('a.txt', 'one\none\n');
    const missing = await h.call('edit_file', edit('a.txt', 'two', '2'));
    expect(missing).toMatchObject({ status: 'error', reason: expect.stringMatching(/0 matches/) });
    const twice = await h.call('edit_file', edit('a.txt', 'one', '1'));
    expect(twice.reason).toMatch(/matches 2 places[\s\S]*1: one\n {2}2: one/);
    const absent = await h.call('edit_file', edit('none.txt', 'a', 'b'));
    expect(absent.reason).toMatch(/does not exist; create it with write_file/);
    expect(h.broker.pending()).toEqual([]);
    expect(h.events.filter((e) => e.type === 'requested')).toEqual([]);
    expect(h.read('a.txt')).toBe('one\none\n');
    expect(h.lastOutcome('edit_file')).toMatchObject({ rule: 'edit-not-applicable', outcome: 'error' });
  });

  it.each<Mode>(['manual', 'auto-edit'])(
    '%s mode, a credential file: no match count, no nearest lines, no oracle on what it holds',
    async (mode) => {
      harness(mode);
      h.write('.env', 'API_KEY=s3cret\n');
      for (const guess of ['API_KEY=s', 'API_KEY=x']) {
        const result = await h.call('edit_file', edit('.env', guess, 'API_KEY=y'));
        expect(result.status).toBe('error');
        expect(result.reason).toMatch(/\.env is a credential file/);
        expect(result.reason).not.toMatch(/match|Nearest|s3cret/);
      }
      expect(h.read('.env')).toBe('API_KEY=s3cret\n');
    },
  );

  const blocked: [string, (root: string) => string][] = [
    ['a path outside the project', () => '../outside.txt'],
    ['an absolute path elsewhere', () => join(tmpdir(), 'elsewhere.txt')],
    [
      'a symbolic link that leads out',
      (root) => {
        const out = join(root, '..', 'outside-dir');
        mkdirSync(out, { recursive: true });
        writeFileSync(join(out, 'x.txt'), 'a\n');
        symlinkSync(join(out, 'x.txt'), join(root, 'link.txt'));
        return 'link.txt';
      },
    ],
  ];
  it.each(blocked)('blocks %s without asking, in every mode', async (_name, target) => {
    harness('auto');
    const path = target(h.root);
    const result = await h.call('edit_file', edit(path, 'a', 'b'));
    expect(result).toMatchObject({ status: 'blocked', by: 'guard' });
    expect(h.broker.pending()).toEqual([]);
  });

  const modes: [Mode, string, 'asks' | 'runs' | 'blocked'][] = [
    ['manual', 'src/a.txt', 'asks'],
    ['auto-edit', 'src/a.txt', 'runs'],
    ['auto', 'src/a.txt', 'runs'],
    ['plan', 'src/a.txt', 'blocked'],
    ['auto-edit', 'package.json', 'asks'],
    ['auto', 'package.json', 'asks'],
  ];
  it.each(modes)('%s mode, %s: %s (like write_file)', async (mode, path, expected) => {
    harness(mode);
    h.write(path, 'a\n');
    const result = h.call('edit_file', edit(path, 'a', 'b'));
    if (expected === 'asks') {
      const request = await h.nextRequest();
      if (path === 'package.json') {
        expect(request.risk.level).toBe('high');
        expect(request.grantOptions).toEqual([]);
      }
      h.gate.decide(request.id, { kind: 'reject', reason: 'no' });
      expect(await result).toMatchObject({ status: 'rejected', by: 'user' });
      expect(h.read(path)).toBe('a\n');
    } else if (expected === 'runs') {
      expect(await result).toMatchObject({ status: 'executed' });
      expect(h.read(path)).toBe('b\n');
    } else {
      expect(await result).toMatchObject({ status: 'blocked' });
      expect(h.read(path)).toBe('a\n');
    }
  });

  it('the file changed after the card: nothing is written and the person sees the new diff', async () => {
    harness();
    h.write('a.txt', 'x = 1\ny = 2\n');
    const result = h.call('edit_file', edit('a.txt', 'y = 2', 'y = 3'));
    const first = await h.nextRequest();
    h.write('a.txt', 'x = 100\ny = 2\n');
    h.gate.decide(first.id, { kind: 'approve' });
    const again = await h.nextRequest();
    expect(again.explanation).toMatch(/file changed since you approved/);
    expect(again.preview).toMatchObject({ before: 'x = 100\ny = 2\n', after: 'x = 100\ny = 3\n' });
    expect(h.read('a.txt')).toBe('x = 100\ny = 2\n');
    h.gate.decide(again.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.read('a.txt')).toBe('x = 100\ny = 3\n');
  });

  it('the file changed after the card so that the edit no longer applies: it fails closed, nothing written', async () => {
    harness();
    h.write('a.txt', 'y = 2\n');
    const result = h.call('edit_file', edit('a.txt', 'y = 2', 'y = 3'));
    const first = await h.nextRequest();
    h.write('a.txt', 'y = 7\nz\n');
    h.gate.decide(first.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'error', reason: expect.stringMatching(/0 matches/) });
    expect(h.read('a.txt')).toBe('y = 7\nz\n');
    const outcomes = h.records.filter((r) => r.tool === 'edit_file' && r.phase === 'outcome');
    expect(outcomes.map((r) => r.outcome)).toEqual(['error', 'error']);
    expect(outcomes[0]?.reason).toMatch(/changed since you approved/);
  });

  it('a file swapped between the gate check and the write is not edited (pre-image bound in the tool)', async () => {
    // The executor checks the pre-image, then the tool reads again: a slow tool read sees a new file.
    const real = createEditFileTool();
    let swap = () => {};
    const racing = {
      ...real,
      async execute(args: Parameters<typeof real.execute>[0], ctx: Parameters<typeof real.execute>[1]) {
        swap();
        return real.execute(args, ctx);
      },
    };
    h = createGateHarness({ tools: [racing] });
    h.write('a.txt', 'keep = 1\n');
    swap = () => h.write('a.txt', 'keep = 1\nintruder\n');
    const result = h.call('edit_file', edit('a.txt', 'keep = 1', 'keep = 2'));
    h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
    // The tool refused (file_changed), so the gate shows the person the file as it is now.
    const again = await h.nextRequest();
    expect(again.preview).toMatchObject({ before: 'keep = 1\nintruder\n' });
    expect(h.read('a.txt')).toBe('keep = 1\nintruder\n');
    expect(h.lastOutcome('edit_file')).toMatchObject({
      outcome: 'error',
      reason: expect.stringMatching(/^file_changed/),
    });
    swap = () => {};
    h.gate.decide(again.id, { kind: 'reject' });
    expect(await result).toMatchObject({ status: 'rejected' });
    expect(h.read('a.txt')).toBe('keep = 1\nintruder\n');
  });
});
