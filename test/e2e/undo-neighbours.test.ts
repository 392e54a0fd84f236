/**
 * The way back through the real binary (issue 29 §1): turn ids after `--continue`, two wardens on one
 * project (a second warden process writes while the first one's turn runs, and after it), a neighbour
 * holding the shadow repository's lock at the end of a turn, and a checkpoint whose blob is gone.
 * Headless runs in auto mode, so revert_turn runs without a card, as the model's own call would.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectCheckpointDir } from '../../src/agent/checkpoints';
import { type FakeOpenAI, type FakeReply, type FakeStep, lastToolMessage } from '../helpers/fake-openai';
import { fakeModel, headlessWarden, type Places, tempPlaces, useCleanup } from '../helpers/headless-run';

const later = useCleanup();
const project = (files: Record<string, string>) => tempPlaces(later, 'nbe', files);
const fake = (script: FakeStep[]) => fakeModel(later, script);
/** One headless warden run, in auto mode, to its end; `blocks`: a file-size limit (ulimit -f) for it and its git. */
const warden = (at: Places, server: FakeOpenAI, args: string[], blocks?: number) =>
  headlessWarden(at, server, ['--mode', 'auto', ...args], blocks ? { blocks } : {});

const write = (path: string, content: string): FakeReply => ({
  toolCalls: [{ name: 'write_file', args: { path, content } }],
});
const revert = (args: Record<string, unknown>): FakeReply => ({ toolCalls: [{ name: 'revert_turn', args }] });
const read = (root: string, p: string) => readFileSync(join(root, p), 'utf8');
/** What revert_turn told the model, from the request after it. */
const told = (server: FakeOpenAI) => lastToolMessage(server.requests.at(-1) as never)?.content ?? '';

describe('undo through the real binary, after restarts and next to another warden', () => {
  it('--continue numbers turns on: revert_turn {turns: 2} reverts two turns, and the turn before stays undoable', async () => {
    const at = project({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'c.txt': 'c0\n' });
    const server = await fake([
      write('a.txt', 'a1\n'),
      { text: 'one' },
      write('b.txt', 'b1\n'),
      { text: 'two' },
      write('c.txt', 'c1\n'),
      { text: 'three' },
      revert({ turns: 2 }),
      { text: 'reverted two' },
      revert({ turns: 1 }),
      { text: 'reverted one' },
    ]);
    expect((await warden(at, server, ['-p', 'one'])).code).toBe(0);
    expect((await warden(at, server, ['--continue', '-p', 'two'])).code).toBe(0);
    expect((await warden(at, server, ['--continue', '-p', 'three'])).code).toBe(0);
    const two = await warden(at, server, ['--continue', '-p', 'undo two']);
    expect(two.code).toBe(0);
    expect(told(server)).toMatch(/Reverted 2 turn/);
    expect([read(at.root, 'a.txt'), read(at.root, 'b.txt'), read(at.root, 'c.txt')]).toEqual([
      'a1\n',
      'b0\n',
      'c0\n',
    ]);
    expect((await warden(at, server, ['--continue', '-p', 'undo one'])).code).toBe(0);
    expect(told(server)).toMatch(/Reverted 1 turn/);
    expect(read(at.root, 'a.txt')).toBe('a0\n');
  });

  it("two wardens: B's file is listed as someone else's on A's turn; A's undo neither deletes it nor overwrites a later edit", async () => {
    const at = project({ 'a.txt': 'a0\n', 'c.txt': 'c0\n' });
    const b = await fake([write('theirs.txt', 'from B\n'), { text: 'B done' }]);
    const a = await fake([
      write('a.txt', 'a1\n'),
      // While A's turn runs, warden B (another process, same project and home) writes a file.
      async () => {
        const run = await warden(at, b, ['-p', 'write theirs']);
        return run.code === 0 ? write('c.txt', 'c1\n') : { text: `B failed: ${run.stderr}` };
      },
      { text: 'A done' },
      revert({ turns: 1 }),
      { text: 'undone' },
    ]);
    const first = await warden(at, a, ['--json', '-p', 'change a and c']);
    expect(first.code).toBe(0);
    const changes = first.stdout
      .split('\n')
      .filter((l) => l.includes('"turn_changes"'))
      .map((l) => JSON.parse(l) as { files: { path: string; by?: string }[] });
    expect(changes.at(-1)?.files.map((f) => [f.path, f.by ?? 'A'])).toEqual([
      ['a.txt', 'A'],
      ['c.txt', 'A'],
      ['theirs.txt', 'someone-else'],
    ]);
    // After A's turn, the person's editor changes a file A's turn changed.
    writeFileSync(join(at.root, 'c.txt'), 'editor edit\n');
    const undo = await warden(at, a, ['--continue', '-p', 'undo the latest turn']);
    expect(undo.code).toBe(0);
    expect(told(a)).toMatch(/restored a\.txt/);
    expect(told(a)).toMatch(/not restored c\.txt: changed since by someone else/);
    expect(read(at.root, 'a.txt')).toBe('a0\n');
    expect(read(at.root, 'c.txt')).toBe('editor edit\n');
    expect(read(at.root, 'theirs.txt')).toBe('from B\n');
  });

  it("a neighbour's fresh index.lock at the turn's end: headless says so (exit 6), and undo reverts that turn, not the one before", async () => {
    const at = project({ 'old.txt': 'o0\n', 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const lock = join(projectCheckpointDir(at.home, at.root), 'git', 'index.lock');
    const server = await fake([
      write('old.txt', 'o1\n'),
      { text: 'first' },
      write('a.txt', 'a1\n'),
      () => {
        writeFileSync(lock, ''); // what another warden's git add holds
        return write('b.txt', 'b1\n');
      },
      { text: 'second' },
      revert({ turns: 1 }),
      { text: 'undone' },
    ]);
    expect((await warden(at, server, ['-p', 'first'])).code).toBe(0);
    const second = await warden(at, server, ['--continue', '-p', 'second']);
    expect(second.stderr).toMatch(/checkpoint at the end of the turn failed/);
    expect(second.code).toBe(6);
    rmSync(lock);
    expect((await warden(at, server, ['--continue', '-p', 'undo'])).code).toBe(0);
    // b.txt changed after the turn's last good checkpoint: named, not restored (whose change it is is not known).
    expect(told(server)).toMatch(/restored a\.txt/);
    expect(told(server)).toMatch(/not restored b\.txt: changed after the turn's last checkpoint/);
    expect([read(at.root, 'old.txt'), read(at.root, 'a.txt'), read(at.root, 'b.txt')]).toEqual([
      'o1\n',
      'a0\n',
      'b1\n',
    ]);
  });

  it('a checkpoint missing a blob: the other file comes back, the damaged one is named with why', async () => {
    const at = project({ 'a.txt': 'alpha zero\n', 'b.txt': 'bravo zero\n' });
    const server = await fake([
      {
        toolCalls: [
          { name: 'write_file', args: { path: 'a.txt', content: 'a1\n' } },
          { name: 'write_file', args: { path: 'b.txt', content: 'b1\n' } },
        ],
      },
      { text: 'written' },
      revert({ turns: 1 }),
      { text: 'undone' },
    ]);
    expect((await warden(at, server, ['-p', 'write'])).code).toBe(0);
    const sha = await new Promise<string>((resolve) => {
      const child = execFile('git', ['hash-object', '--stdin'], (_e, out) => resolve(String(out).trim()));
      child.stdin?.end('alpha zero\n');
    });
    rmSync(join(projectCheckpointDir(at.home, at.root), 'git', 'objects', sha.slice(0, 2), sha.slice(2)));
    expect((await warden(at, server, ['--continue', '-p', 'undo'])).code).toBe(0);
    expect(told(server)).toMatch(/restored b\.txt/);
    expect(told(server)).toMatch(/not restored a\.txt: its saved copy is missing .*damaged checkpoint/);
    expect(read(at.root, 'b.txt')).toBe('bravo zero\n');
  });

  it("a clone's .gitignore of `*` does not switch off the changeset or undo (issue 26 §5)", async () => {
    const at = project({ '.gitignore': '*\n', 'a.txt': 'a0\n' });
    const server = await fake([
      write('a.txt', 'a1\n'),
      { text: 'changed' },
      revert({ turns: 1 }),
      { text: 'undone' },
    ]);
    const first = await warden(at, server, ['--json', '-p', 'change a']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/"type":"turn_changes".*"path":"a\.txt"/);
    expect((await warden(at, server, ['--continue', '-p', 'undo'])).code).toBe(0);
    expect(told(server)).toMatch(/restored a\.txt/);
    expect(read(at.root, 'a.txt')).toBe('a0\n');
  });

  it('git killed mid-object by a file-size limit (a full disk): its half-written object is removed, and checkpoints go on once the big file is gone', async () => {
    const at = project({ 'a.txt': 'a0\n' });
    writeFileSync(join(at.root, 'big.bin'), randomBytes(600_000)); // under the 5 MB cap: git writes it
    const server = await fake([
      write('a.txt', 'a1\n'),
      { text: 'tried' },
      write('a.txt', 'a2\n'),
      { text: 'wrote' },
    ]);
    // ulimit -f: every write past 200 blocks fails, as on a full disk; git dies mid-object.
    const limited = await warden(at, server, ['--mode', 'auto', '-p', 'try'], 200);
    expect(limited.stderr).toMatch(/checkpoint_failed/);
    expect(read(at.root, 'a.txt')).toBe('a0\n');
    const objects = join(projectCheckpointDir(at.home, at.root), 'git', 'objects');
    const temps = readdirSync(objects, { recursive: true })
      .map(String)
      .filter((p) => /tmp_obj_/.test(p));
    expect(temps).toEqual([]);
    rmSync(join(at.root, 'big.bin'));
    const again = await warden(at, server, ['-p', 'again']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(read(at.root, 'a.txt')).toBe('a2\n');
  });
});
