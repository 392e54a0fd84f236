/**
 * Red team, races: create_project against a concurrent attacker. A separate process, in a tight loop,
 * moves the new project's folder away and puts a link to an outside folder in its place (and takes it
 * away again), while create_project makes that folder and its files 80 times through the real gate.
 * Asserted: the sentinel folder is exactly as it was (content, names, mtimes), and every call either
 * created the project or failed with a reason that names what it found.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCreateProjectTool } from '../../src/tools/exec/create-project';
import { RACE_FREE_FS } from '../../src/tools/fs/safe-fs';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { startReplacer } from './races-racer';
import { makeSentinel, type Sentinel } from './races-sentinel';

const ROUNDS = 80;
let h: GateHarness | undefined;
let sentinel: Sentinel | undefined;
afterEach(() => {
  h?.cleanup();
  if (sentinel) rmSync(sentinel.dir, { recursive: true, force: true });
  h = undefined;
  sentinel = undefined;
});

const CLEAR = [
  /already exists/,
  /resolves to .*, outside the project/,
  /A parent of .* is a file, not a folder/,
  /changed on disk while warden opened it/,
  /is a symbolic link/,
  /does not exist/,
];

describe.skipIf(!RACE_FREE_FS)('create_project while its folder is replaced by a link out', () => {
  it(`${ROUNDS} calls: outside untouched, each created or refused with a reason`, async () => {
    h = createGateHarness({ mode: 'auto', tools: [createCreateProjectTool()] });
    // The outside folder holds the names the scaffold writes, so a write sent there would hit them.
    sentinel = makeSentinel({ 'package.json': 'outside\n', 'src/index.js': 'outside\n' });
    const before = sentinel.snapshot();
    const racer = await startReplacer({
      target: join(h.root, 'app'),
      hold: join(h.root, '.racer'),
      outsideFile: sentinel.secretFile,
      hardSource: sentinel.hardSource,
      outsideDir: sentinel.dir,
      kinds: ['dirlink', 'absent'],
    });
    const tally: Record<string, number> = {};
    const reasons = new Set<string>();
    let rounds = 0;
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const result = await h.call('create_project', { name: 'app', type: 'node' });
        tally[result.status] = (tally[result.status] ?? 0) + 1;
        if (result.status !== 'executed') reasons.add(result.reason ?? '(no reason)');
      }
    } finally {
      rounds = await racer.stop();
    }
    expect(rounds).toBeGreaterThan(0);
    expect(sentinel.snapshot()).toEqual(before);
    expect([...reasons].filter((r) => !CLEAR.some((re) => re.test(r)))).toEqual([]);
    expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBe(ROUNDS);
  }, 120_000);
});
