/**
 * Issue 9 §2: warden's own file tools under attack. A swapper process exchanges a project folder
 * and a link to an outside folder (renameat2 RENAME_EXCHANGE) in a tight loop while two agents read
 * and write through the real gate; nothing outside may be written, no outside byte may be read.
 * The same attack against the naive tools (check the fence, then open by path) is the control: it
 * must leak, or this test proves nothing.
 */
import {
  constants,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolResultEnvelope } from '../../../src/protocol';
import { createGrepCodeTool } from '../../../src/tools/fs/grep-code';
import { createListDirTool } from '../../../src/tools/fs/list-dir';
import { createReadFileTool } from '../../../src/tools/fs/read-file';
import { RACE_FREE_FS } from '../../../src/tools/fs/safe-fs';
import { type AnyTool, defineTool } from '../../../src/tools/types';
import { createWriteFileTool } from '../../../src/tools/fs/write-file';
import { createGateHarness, type GateHarness } from '../../helpers/gate-harness';
import { findSwapper, startSwapper } from '../../helpers/swapper';

const SECRET = 'OUTSIDE-SECRET-7f3a';
const ROUNDS = 1000;
// Each grep_code call starts ripgrep: fewer rounds keep the file under half a minute.
const GREP_ROUNDS = 300;
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'warden-swapper-')));
const swapper = findSwapper(scratch);
if (swapper.kind === 'none') console.warn(`race.test.ts skipped: ${swapper.reason}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let h: GateHarness | undefined;
let outside: string | undefined;
afterEach(() => {
  h?.cleanup();
  if (outside) rmSync(outside, { recursive: true, force: true });
  h = undefined;
  outside = undefined;
});

/**
 * project/work (a folder) and project/swap (a link to the outside folder), plus the outside folder.
 * The reader reads r.txt (outside: the secret), the writer writes a.txt, new files and new folders.
 */
function arena(harness: GateHarness): string {
  const out = realpathSync(mkdtempSync(join(tmpdir(), 'warden-outside-')));
  writeFileSync(join(out, 'a.txt'), 'outside a.txt\n');
  writeFileSync(join(out, 'r.txt'), `${SECRET}\n`);
  mkdirSync(join(out, 'sub'));
  harness.write('work/a.txt', 'inside\n');
  harness.write('work/r.txt', 'inside, read only\n');
  mkdirSync(join(harness.root, 'work', 'sub'));
  symlinkSync(out, join(harness.root, 'swap'));
  return out;
}

/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => relative(dir, join(dir, p)))
    .sort();
}

type Tally = { executed: number; blocked: number; refused: number; outsideBytes: number };

async function reader(harness: GateHarness, rounds: number, tally: Tally): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const result = await harness.call(
      'read_file',
      { path: i % 2 === 0 ? 'work/r.txt' : 'swap/r.txt' },
      { agentId: 'reader', agentName: 'reader' },
    );
    count(tally, result);
    const text = `${result.output ?? ''}${result.reason ?? ''}`;
    if (text.includes(SECRET)) tally.outsideBytes += Buffer.byteLength(SECRET);
  }
}

async function writer(harness: GateHarness, rounds: number, tally: Tally): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const top = i % 2 === 0 ? 'work' : 'swap';
    const path = [`${top}/a.txt`, `${top}/new-${i}.txt`, `${top}/sub/d-${i}/f.txt`][i % 3] as string;
    count(
      tally,
      await harness.call(
        'write_file',
        { path, content: `written ${i}\n` },
        { agentId: 'writer', agentName: 'writer' },
      ),
    );
  }
}

function count(tally: Tally, result: ToolResultEnvelope): void {
  if (result.status === 'executed') tally.executed++;
  else if (result.status === 'blocked') tally.blocked++;
  else tally.refused++;
}

const tally = (): Tally => ({ executed: 0, blocked: 0, refused: 0, outsideBytes: 0 });

/** Sets up the harness and the arena, then one reader and one writer agent race the swapper. */
async function readAndWriteUnderSwapper(tools: AnyTool[]) {
  h = createGateHarness({ mode: 'auto-edit', tools });
  outside = arena(h);
  const before = tree(outside);
  const swapping = await startSwapper(
    swapper as Exclude<typeof swapper, { kind: 'none' }>,
    join(h.root, 'work'),
    join(h.root, 'swap'),
  );
  const reads = tally();
  const writes = tally();
  let swaps = 0;
  try {
    await Promise.all([reader(h, ROUNDS, reads), writer(h, ROUNDS, writes)]);
  } finally {
    swaps = await swapping.stop();
  }
  return { dir: outside, before, reads, writes, swaps };
}

/** read_file as it was before safe-fs: the fence's path, lstat, then open with O_NOFOLLOW and read. */
const naiveReadFile = defineTool({
  name: 'read_file',
  description: 'The pre-safe-fs read, for the control.',
  schema: z.strictObject({ path: z.string() }),
  kind: 'read',
  guarded: { paths: ['path'] },
  async execute(args, ctx) {
    const verdict = ctx.fence.check(args.path);
    if (!verdict.ok) return { ok: false, error: verdict.reason };
    try {
      if (!(await lstat(verdict.path)).isFile()) return { ok: false, error: 'not a file' };
      const handle = await open(verdict.path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        return { ok: true, output: await handle.readFile('utf8') };
      } finally {
        await handle.close();
      }
    } catch (err) {
      return { ok: false, error: String(err) };
    }
  },
});

describe.skipIf(swapper.kind === 'none' || !RACE_FREE_FS)(
  'read_file and write_file under a folder/link swapper',
  () => {
    it(`two agents, ${ROUNDS} reads and ${ROUNDS} writes through the gate: 0 outside files written, 0 outside bytes read`, async () => {
      const { dir, before, reads, writes, swaps } = await readAndWriteUnderSwapper([
        createReadFileTool(),
        createWriteFileTool(),
      ]);
      console.log(
        `race (${swapper.kind}): ${swaps} swaps; reads ${JSON.stringify(reads)}; writes ${JSON.stringify(writes)}; outside now ${JSON.stringify(tree(dir))}`,
      );
      expect(swaps).toBeGreaterThan(ROUNDS);
      expect(reads.outsideBytes).toBe(0);
      expect(tree(dir)).toEqual(before);
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('outside a.txt\n');
      // The swap was visible to warden (the fence saw the link), and work still got done.
      expect(reads.blocked + writes.blocked).toBeGreaterThan(0);
      expect(reads.executed).toBeGreaterThan(0);
      expect(writes.executed).toBeGreaterThan(0);
      expect(reads.executed + reads.blocked + reads.refused).toBe(ROUNDS);
    }, 120_000);

    it('control: the naive tools (fence check, then open by path) leak under the same swapper', async () => {
      // The harness's stub write_file is that: check, record, mkdir -p, writeFileSync the path.
      const { dir, before, reads } = await readAndWriteUnderSwapper([naiveReadFile]);
      const written = tree(dir).filter((p) => !before.includes(p));
      console.log(
        `control: reads ${JSON.stringify(reads)}; outside files written ${written.length} in ${ROUNDS} writes`,
      );
      expect(reads.outsideBytes).toBeGreaterThan(0);
      expect(written.length).toBeGreaterThan(0);
    }, 120_000);
  },
);

describe.skipIf(swapper.kind === 'none' || !RACE_FREE_FS)(
  'list_dir and grep_code under the same swapper',
  () => {
    it('list an outside name 0 times and return an outside line 0 times', async () => {
      const harness = createGateHarness({
        mode: 'auto-edit',
        tools: [createListDirTool(), createGrepCodeTool()],
      });
      h = harness;
      outside = arena(harness);
      writeFileSync(join(outside, 'outside-only-name.txt'), '');
      const swapping = await startSwapper(
        swapper as Exclude<typeof swapper, { kind: 'none' }>,
        join(harness.root, 'work'),
        join(harness.root, 'swap'),
      );
      const lists = tally();
      const greps = tally();
      let namesLeaked = 0;
      let dropped = 0;
      try {
        const lister = async () => {
          for (let i = 0; i < ROUNDS; i++) {
            const result = await harness.call(
              'list_dir',
              { path: i % 2 ? 'swap' : 'work' },
              { agentId: 'lister', agentName: 'lister' },
            );
            count(lists, result);
            if ((result.output ?? '').includes('outside-only-name')) namesLeaked++;
          }
        };
        const grepper = async () => {
          for (let i = 0; i < GREP_ROUNDS; i++) {
            const result = await harness.call(
              'grep_code',
              { pattern: 'SECRET|inside', path: i % 2 ? 'swap' : 'work' },
              { agentId: 'grepper', agentName: 'grepper' },
            );
            count(greps, result);
            if ((result.output ?? '').includes(SECRET)) greps.outsideBytes += Buffer.byteLength(SECRET);
            if ((result.output ?? '').includes('left out')) dropped++;
          }
        };
        await Promise.all([lister(), grepper()]);
      } finally {
        const swaps = await swapping.stop();
        console.log(
          `race list/grep: ${swaps} swaps; list_dir ${JSON.stringify(lists)}, outside names ${namesLeaked}; grep_code ${JSON.stringify(greps)}, results with matches left out ${dropped}`,
        );
      }
      expect(namesLeaked).toBe(0);
      expect(greps.outsideBytes).toBe(0);
      expect(lists.executed).toBeGreaterThan(0);
      expect(greps.executed).toBeGreaterThan(0);
    }, 120_000);
  },
);

describe('hard links and the write path', () => {
  it('a write through a hard link to an outside file replaces the project name, never the outside inode', async () => {
    h = createGateHarness({ mode: 'auto-edit', tools: [createReadFileTool(), createWriteFileTool()] });
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'warden-outside-')));
    writeFileSync(join(outside, 'h.txt'), `${SECRET}\n`);
    linkSync(join(outside, 'h.txt'), join(h.root, 'h.txt'));
    const inode = statSync(join(outside, 'h.txt')).ino;
    expect(statSync(join(outside, 'h.txt')).nlink).toBe(2);
    const result = await h.call('write_file', { path: 'h.txt', content: 'project text\n' });
    expect(result.status).toBe('executed');
    expect(readFileSync(join(outside, 'h.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(statSync(join(outside, 'h.txt'))).toMatchObject({ ino: inode, nlink: 1 });
    expect(readFileSync(join(h.root, 'h.txt'), 'utf8')).toBe('project text\n');
  });

  it.each([
    [
      'a link inside the project',
      (root: string) => symlinkSync(join(root, 'real'), join(root, 'alias')),
      'alias/x.txt',
      'real/x.txt',
    ],
    ['a missing parent chain', () => undefined, 'a/b/c/x.txt', 'a/b/c/x.txt'],
    ['an existing parent', () => undefined, 'real/x.txt', 'real/x.txt'],
  ])('writes through %s to the real path', async (_name, setup, path, lands) => {
    h = createGateHarness({ mode: 'auto-edit', tools: [createWriteFileTool()] });
    mkdirSync(join(h.root, 'real'));
    setup(h.root);
    expect((await h.call('write_file', { path, content: 'x\n' })).status).toBe('executed');
    expect(readFileSync(join(h.root, lands), 'utf8')).toBe('x\n');
    expect(tree(h.root).filter((p) => p.endsWith('.warden-tmp'))).toEqual([]);
  });
});
