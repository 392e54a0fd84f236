/**
 * The lift of protected paths through the REAL gate, the real command guard, the real execute_command
 * and the real bubblewrap sandbox: only a person's approval of the card lifts exactly what it listed.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResultEnvelope } from '../../src/protocol';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../../src/tools/exec/execute-command';
import { detectSandbox, findOnPath } from '../../src/tools/exec/sandbox';
import { MountPointLedger } from '../../src/tools/exec/sandbox-mount-points';
import type { SandboxInfo } from '../../src/tools/types';
import { createGateHarness, type GateHarness, type HarnessOptions } from '../helpers/gate-harness';

const hasBwrap = process.platform === 'linux' && findOnPath('bwrap') !== undefined;

describe.skipIf(!hasBwrap)('lifting protected paths through the real gate and sandbox', () => {
  let sandbox: SandboxInfo;
  let ledgerDir: string;
  let h: GateHarness;
  const harness = (
    options: HarnessOptions = {},
    files: Record<string, string> = { 'package.json': '{}', '.env': 'A=1\n' },
  ) => {
    const tool = createExecuteCommandTool({
      ...defaultExecuteCommandEffects,
      graceMs: 300,
      ledger: new MountPointLedger(ledgerDir),
    });
    h = createGateHarness({ sandbox, tools: [tool], ...options });
    for (const [rel, content] of Object.entries(files)) h.write(rel, content);
    return h;
  };
  const text = (e: ToolResultEnvelope) => `${e.output ?? ''}${e.reason ?? ''}`;

  beforeAll(async () => {
    sandbox = await detectSandbox();
    ledgerDir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-lift-ledger-')));
  });
  afterEach(() => h?.cleanup());
  afterAll(() => rmSync(ledgerDir, { recursive: true, force: true }));

  it('a redirect into package.json asks; the card lists it; approving writes it and nothing else', async () => {
    harness();
    const result = h.call('execute_command', {
      command: `echo '{"name":"b"}' > package.json; echo X=2 >> .env`,
    });
    const request = await h.nextRequest();
    expect(request.risk.level).toBe('high');
    if (request.preview.kind !== 'command') throw new Error('not a command card');
    expect((request.preview.writes ?? []).filter((w) => w.protected).map((w) => w.path)).toEqual([
      'package.json',
      '.env',
    ]);
    h.gate.decide(request.id, { kind: 'approve', confirmHigh: true });
    expect((await result).status).toBe('executed');
    expect(h.read('package.json')).toBe('{"name":"b"}\n');
    // .env was on the card too: both were lifted, for this run only.
    expect(h.read('.env')).toBe('A=1\nX=2\n');
    // The next card lists only yarn.lock; a write to package.json the guard cannot see stays read-only.
    const again = await runApproved(
      `echo listed > yarn.lock; python3 -c "open('package.json','w').write('evil')"`,
      'yarn.lock',
    );
    expect(h.read('yarn.lock')).toBe('listed\n');
    expect(h.read('package.json')).toBe('{"name":"b"}\n');
    expect(text(again)).toContain('package.json: protected');
  });

  it.skipIf(!findOnPath('make'))(
    'the lift is for that one run; a rule-allowed run lifts nothing',
    async () => {
      harness({
        rules: [{ tool: 'execute_command', when: { command: 'make *' }, decision: 'allow', source: 'user' }],
      });
      h.write('Makefile', 'build:\n\techo evil > package.json\n');
      await runApproved(`echo '{"v":1}' > package.json`);
      expect(h.read('package.json')).toBe('{"v":1}\n');
      // A rule the person wrote allows this call and the guard sees no write: it runs unasked, and nothing is lifted.
      const ruled = await h.call('execute_command', { command: 'make build' });
      expect(ruled.status).toBe('executed');
      expect(h.read('package.json')).toBe('{"v":1}\n');
      expect(text(ruled)).toContain('package.json: protected, read-only in the sandbox');
      expect(text(ruled)).toContain('a person approves');
    },
  );

  it('rejecting the card runs nothing and changes nothing', async () => {
    harness();
    const result = h.call('execute_command', { command: 'echo evil > package.json' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'reject', reason: 'no' });
    expect((await result).status).toBe('rejected');
    expect(h.read('package.json')).toBe('{}');
  });

  it('an edited card lifts what the edited command writes, not what the first one listed', async () => {
    harness();
    const result = h.call('execute_command', { command: 'echo evil > package.json' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, {
      kind: 'edit',
      args: { command: 'echo B=2 >> .env; echo evil > package.json' },
    });
    const envelope = await result;
    expect(h.read('.env')).toBe('A=1\nB=2\n');
    // The edit lists package.json as well, so both run writable; prove the edit, not the original, counted.
    expect(h.read('package.json')).toBe('evil\n');
    expect(text(envelope)).toContain('writable for this run: .env, package.json');
  });

  it('auto mode asks for a protected write; approved, git commit may write .git', async () => {
    harness({ mode: 'auto' }, {});
    const git = (cmd: string) => runApproved(cmd);
    await git('git init -q .');
    expect(h.read('.git/HEAD')).toContain('ref: refs/heads/');
    h.write('a.txt', 'one\n');
    const committed = await git('git add a.txt && git -c user.email=t@t -c user.name=t commit -qm one');
    expect(committed.status).toBe('executed');
    const log = await h.call('execute_command', { command: 'git log --oneline' });
    expect(text(log)).toMatch(/one/);
  });

  /** Calls, expects a card (whatever the mode), approves it, and returns the envelope. */
  async function runApproved(command: string, expectListed?: string): Promise<ToolResultEnvelope> {
    const result = h.call('execute_command', { command });
    const request = await Promise.race([
      h.nextRequest(),
      result.then((e) => Promise.reject(new Error(`no card: ${JSON.stringify(e)}`))),
    ]);
    if (expectListed && request.preview.kind === 'command')
      expect(request.preview.writes?.map((w) => w.path)).toContain(expectListed);
    h.gate.decide(request.id, { kind: 'approve', confirmHigh: true });
    return result;
  }
});
