import { spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareDemoProject } from '../../src/llm/demo-assets';
import {
  demoScratchPrefix,
  type ScratchOwner,
  scratchOwner,
  sweepStaleDemoScratch,
} from '../../src/llm/demo-scratch';
import { processStartTime } from '../../src/os/process';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function parent(): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-scratch-test-'));
  dirs.push(dir);
  return dir;
}

/** A pid that certainly names no running process: a child that has already exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

const me: ScratchOwner = { pid: process.pid, startTime: processStartTime(process.pid) };

describe('scratch folder names', () => {
  it.each([
    ['warden-demo-123-456-abcDE9', { pid: 123, startTime: '456' }],
    ['warden-demo-123-x-abcDE9', { pid: 123 }],
    ['warden-demo-abcDE9', undefined],
    ['warden-demo-test-abcDE9', undefined],
    ['warden-demo-123-456-abc', undefined],
    ['warden-demo-123-456-abcDE9/..', undefined],
    ['xwarden-demo-123-456-abcDE9', undefined],
  ])('%s → %j', (name, owner) => {
    expect(scratchOwner(name)).toEqual(owner);
  });

  it('a prefix names its owner, read back from the folder mkdtemp makes', () => {
    const dir = mkdtempSync(join(parent(), demoScratchPrefix({ pid: 42, startTime: '7' })));
    expect(scratchOwner(basename(dir))).toEqual({ pid: 42, startTime: '7' });
    const noStart = mkdtempSync(join(parent(), demoScratchPrefix({ pid: 42 })));
    expect(scratchOwner(basename(noStart))).toEqual({ pid: 42 });
  });
});

describe('sweepStaleDemoScratch', () => {
  it('removes the folders of gone wardens only: not a live one, not a look-alike, not a symlink, not another user’s', () => {
    const p = parent();
    const dead = deadPid();
    const make = (name: string) => {
      mkdirSync(join(p, name, 'greet-demo'), { recursive: true });
      writeFileSync(join(p, name, 'greet-demo', 'a.js'), 'x');
      return name;
    };
    const gone = make(`warden-demo-${dead}-x-aaaaaa`);
    const goneWithStart = make(`warden-demo-${dead}-123-bbbbbb`);
    const reusedPid = make(`warden-demo-${process.pid}-1-cccccc`);
    const live = make(`warden-demo-${me.pid}-${me.startTime ?? 'x'}-dddddd`);
    const legacy = make('warden-demo-eeeeee');
    const target = mkdtempSync(join(tmpdir(), 'warden-scratch-target-'));
    dirs.push(target);
    writeFileSync(join(target, 'keep.txt'), 'keep');
    symlinkSync(target, join(p, `warden-demo-${dead}-x-ffffff`));
    const foreign = make(`warden-demo-${dead}-x-gggggg`);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(join(p, foreign), 65534, 65534);
    writeFileSync(join(p, `warden-demo-${dead}-x-hhhhhh`), 'a file, not a folder');

    const removed = sweepStaleDemoScratch(p);

    const expected = [gone, goneWithStart, ...(me.startTime ? [reusedPid] : [])]
      .concat(asRoot ? [] : [foreign])
      .sort();
    expect(removed.sort()).toEqual(expected);
    const left = readdirSync(p);
    for (const name of expected) expect(left).not.toContain(name);
    expect(left).toEqual(
      expect.arrayContaining([live, legacy, `warden-demo-${dead}-x-ffffff`, `warden-demo-${dead}-x-hhhhhh`]),
    );
    if (asRoot) expect(left).toContain(foreign);
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
  });

  it('asks whether each owner lives, and never throws on a missing parent', () => {
    const p = parent();
    mkdirSync(join(p, 'warden-demo-5-6-aaaaaa'));
    mkdirSync(join(p, 'warden-demo-7-x-bbbbbb'));
    const asked: ScratchOwner[] = [];
    const removed = sweepStaleDemoScratch(p, {
      alive: (o) => (asked.push(o), o.pid === 5),
      uid: process.getuid?.(),
    });
    expect(asked).toEqual(expect.arrayContaining([{ pid: 5, startTime: '6' }, { pid: 7 }]));
    expect(removed).toEqual(['warden-demo-7-x-bbbbbb']);
    expect(sweepStaleDemoScratch(join(p, 'no-such-dir'))).toEqual([]);
  });
});

describe('prepareDemoProject', () => {
  it('names its scratch folder after this process and sweeps a gone warden’s copy first', async () => {
    const p = parent();
    const stale = `warden-demo-${deadPid()}-x-aaaaaa`;
    mkdirSync(join(p, stale, 'greet-demo'), { recursive: true });
    const project = await prepareDemoProject(p);
    expect(readdirSync(p)).not.toContain(stale);
    expect(scratchOwner(basename(dirname(project)))).toEqual(me.startTime ? me : { pid: me.pid });
    // A second copy in the same process leaves the first one alone: its warden still runs.
    const second = await prepareDemoProject(p);
    expect(existsSync(project)).toBe(true);
    expect(dirname(second)).not.toBe(dirname(project));
  });
});
