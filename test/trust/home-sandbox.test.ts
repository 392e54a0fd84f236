import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, wardenHomeMasks } from '../../src/tools/exec/sandbox';
import { runSandboxedSync } from '../helpers/sandbox-run';

// Verifies the sandbox engineer's masks from the trust side: a command cannot rewrite warden's own
// settings, whether WARDEN_HOME is outside the project (absent from the view) or inside it (masked).
const bwrap = findOnPath('bwrap');
const works =
  bwrap !== undefined &&
  spawnSync(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', 'true']).status === 0;

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-homesbx-')));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function runIn(root: string, home: string, script: string): void {
  runSandboxedSync(root, ['sh', '-c', script], {
    masks: wardenHomeMasks(home),
    env: { PATH: process.env.PATH ?? '', WH: home },
  });
}

describe.runIf(works)("commands in the sandbox cannot rewrite warden's own settings", () => {
  it.each([
    ['outside the project', (b: string) => ({ root: join(b, 'project'), home: join(b, 'wh') })],
    ['inside the project', (b: string) => ({ root: join(b, 'project'), home: join(b, 'project', '.wh') })],
  ])('WARDEN_HOME %s', (_label, where) => {
    const { root, home } = where(base);
    mkdirSync(home, { recursive: true });
    mkdirSync(root, { recursive: true });
    const policy = '{"rules":[]}';
    writeFileSync(join(home, 'policy.json'), policy);
    runIn(
      root,
      home,
      'echo \'{"rules":[{"tool":"*","decision":"allow"}]}\' > "$WH/policy.json"; echo x > "$WH/trust.json"; echo y > "$WH/config.json"',
    );
    expect(readFileSync(join(home, 'policy.json'), 'utf8')).toBe(policy);
    expect(execFileSync('ls', ['-A', home]).toString().trim()).toBe('policy.json');
  });
});
