/**
 * Issue 27 §3, through the REAL gate, guard, execute_command and bubblewrap in manual mode:
 * `git status|diff|log|show` run without a card in a repository whose config and hooks are a
 * stranger's — fsmonitor and a post-index-change hook that would make a marker — and the marker never
 * appears (the run's environment turns fsmonitor off and takes no optional locks). A repository whose
 * config names a textconv driver or a filter keeps the card (warden reads the config first).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../../src/tools/exec/execute-command';
import { detectSandbox, findOnPath } from '../../src/tools/exec/sandbox';
import { MountPointLedger } from '../../src/tools/exec/sandbox-mount-points';
import type { SandboxInfo } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

const hasBwrap = process.platform === 'linux' && findOnPath('bwrap') !== undefined;
const hasGit = findOnPath('git') !== undefined;

describe.skipIf(!hasBwrap || !hasGit)('git reads in a hostile repository (real sandbox)', () => {
  let sandbox: SandboxInfo;
  let ledgerDir: string;
  let h: GateHarness;

  beforeAll(async () => {
    sandbox = await detectSandbox();
    ledgerDir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-git-reads-ledger-')));
  });
  afterEach(() => h?.cleanup());
  afterAll(() => rmSync(ledgerDir, { recursive: true, force: true }));

  /** A repository with one commit, a changed file, and a hook script that makes MARK-<name>. */
  function hostileRepo(extraConfig: string[][]): void {
    const tool = createExecuteCommandTool({
      ...defaultExecuteCommandEffects,
      graceMs: 300,
      ledger: new MountPointLedger(ledgerDir),
    });
    h = createGateHarness({ sandbox, tools: [tool] });
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: h.root,
        env: { PATH: process.env.PATH ?? '', HOME: h.root, GIT_CONFIG_NOSYSTEM: '1' },
      });
    git('init', '-q');
    h.write('a.txt', 'one\n');
    h.write('b.bin', 'data\n');
    h.write('.gitattributes', '*.txt diff=hostile filter=hostile\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
    h.write('a.txt', 'two\n');
    h.write('mark.sh', `#!/bin/sh\n/usr/bin/touch ${join(h.root, 'MARK')}-"$1"\n`);
    chmodSync(join(h.root, 'mark.sh'), 0o755);
    h.write('.git/hooks/post-index-change', `#!/bin/sh\n${join(h.root, 'mark.sh')} hook\n`);
    chmodSync(join(h.root, '.git/hooks/post-index-change'), 0o755);
    git('config', 'core.fsmonitor', `${join(h.root, 'mark.sh')} fsmonitor`);
    for (const [key, value] of extraConfig) git('config', key as string, value as string);
  }

  const markers = () =>
    ['hook', 'fsmonitor', 'textconv', 'filter'].filter((m) => existsSync(join(h.root, `MARK-${m}`)));

  it('the premise: without warden, git status in this repository runs the fsmonitor and the hook', () => {
    hostileRepo([]);
    execFileSync('git', ['status'], { cwd: h.root, env: { PATH: process.env.PATH ?? '', HOME: h.root } });
    expect(markers()).toEqual(expect.arrayContaining(['fsmonitor']));
  });

  it.each(['git status', 'git diff', 'git log -p -1', 'git show HEAD', 'git status && git diff --stat'])(
    '%s runs without a card and runs nothing of the repository',
    async (command) => {
      hostileRepo([]);
      // fsmonitor is in the config: the gate neutralises it in the run's environment, so it does not count.
      rmSync(join(h.root, 'MARK-fsmonitor'), { force: true });
      const result = await h.call('execute_command', { command });
      expect(result.status).toBe('executed');
      expect(markers()).toEqual([]);
    },
  );

  it.each([
    ['diff.hostile.textconv', 'textconv'],
    ['filter.hostile.clean', 'filter'],
  ])('a config naming %s keeps the card for git diff (the person skips it)', async (key, marker) => {
    hostileRepo([[key, `${'./mark.sh'} ${marker}`]]);
    const result = h.call('execute_command', { command: 'git diff' });
    const request = await h.nextRequest();
    expect(request.tool).toBe('execute_command');
    h.gate.decide(request.id, { kind: 'skip' });
    expect((await result).status).toBe('skipped');
    expect(markers()).toEqual([]);
  });
});
