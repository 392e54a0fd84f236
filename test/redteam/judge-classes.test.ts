/**
 * Issue 27's classes, each through the REAL gate, guard, execute_command and bubblewrap: what the
 * gate decides in manual and in auto mode (with the session's write coverage), and — where the class
 * has an effect — that bash really has it inside the sandbox (a card, when one is due, comes first
 * and is approved here; the marker or the changed file proves the effect). Our own cases, not the
 * peers' corpus (bench/peer-commands.bench.ts measures that).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RiskLevel } from '../../src/protocol';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../../src/tools/exec/execute-command';
import { detectSandbox, findOnPath } from '../../src/tools/exec/sandbox';
import { MountPointLedger } from '../../src/tools/exec/sandbox-mount-points';
import type { SandboxInfo } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

const hasBwrap = process.platform === 'linux' && findOnPath('bwrap') !== undefined;

type Row = {
  class: string;
  command: string;
  files?: Record<string, string>;
  rules?: { command: string; decision: 'allow' }[];
  /** Decision in manual / auto mode, and the risk level. */
  manual: 'allow' | 'ask';
  auto: 'allow' | 'ask';
  level: RiskLevel;
  /** A reason the card must give. */
  says?: RegExp;
  /** True once the effect happened (checked after the run). */
  effect?: (root: string, output: string) => boolean;
};

const read = (root: string, path: string): string | undefined =>
  existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;
const VICTIM = { 'victim.txt': 'keep\n' };

const ROWS: Row[] = [
  // §1 — risk follows reversibility
  {
    class: 'a write into a new file',
    command: 'git --version > fresh.txt',
    manual: 'ask',
    auto: 'allow',
    level: 'medium',
    says: /creates fresh\.txt/,
    effect: (r) => /git version/.test(read(r, 'fresh.txt') ?? ''),
  },
  {
    class: 'an overwrite undo restores',
    command: 'sort -o kept.txt in.txt',
    files: { 'kept.txt': 'old\n', 'in.txt': 'b\na\n' },
    manual: 'ask',
    auto: 'allow',
    level: 'medium',
    says: /kept\.txt.*undo restores it/,
    effect: (r) => read(r, 'kept.txt') === 'a\nb\n',
  },
  {
    class: 'an overwrite of a binary file (undo cannot restore it)',
    command: 'echo new > build.bin',
    files: { 'build.bin': '\0precious\n' },
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    says: /build\.bin, which undo cannot restore \(a binary file\)/,
    effect: (r) => read(r, 'build.bin') === 'new\n',
  },
  {
    class: 'tee onto a file the checkpoint leaves out (node_modules)',
    command: 'echo new | tee node_modules/x/build.log',
    files: { 'node_modules/x/build.log': 'precious\n' },
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    effect: (r) => read(r, 'node_modules/x/build.log') === 'new\n',
  },
  {
    class: "a write into the sandbox's private /tmp",
    command: 'git --version > /tmp/v.txt && cat /tmp/v.txt',
    manual: 'allow',
    auto: 'allow',
    level: 'low',
    effect: (_r, out) => /git version/.test(out),
  },
  {
    class: 'deleting',
    command: 'rm victim.txt',
    files: VICTIM,
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    effect: (r) => !existsSync(join(r, 'victim.txt')),
  },
  // §2 — what the shell really does
  {
    class: 'a backslash before CRLF',
    command: 'echo ok \\\r\nrm -f victim.txt',
    files: VICTIM,
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    says: /carriage return/,
    effect: (r) => !existsSync(join(r, 'victim.txt')),
  },
  {
    class: 'a pattern that expands to an option',
    command: 'cat *',
    files: { '-n': '', 'a.txt': 'one\n' },
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    says: /expands to -n/,
    // bash hands cat `-n a.txt`: the lines come back numbered.
    effect: (_r, out) => /^\s+1\tone/m.test(out),
  },
  {
    class: 'a pattern whose second match is an output operand',
    command: 'uniq *.txt',
    files: { 'a.txt': 'one\n', 'b.txt': 'VICTIM\n' },
    manual: 'ask',
    auto: 'allow',
    level: 'medium',
    says: /b\.txt.*undo restores it/,
    effect: (r) => read(r, 'b.txt') === 'one\n',
  },
  {
    class: 'a pattern that names a credential file',
    command: 'cat .e*',
    files: { '.env': 'TOKEN=value\n' },
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    says: /credential file \.env/,
  },
  {
    class: 'an option that runs code (bash --rcfile)',
    command: 'bash --rcfile ./rc.sh -ic true',
    files: { 'rc.sh': 'touch MARK\n' },
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    says: /runs a program named on the command line/,
    effect: (r) => existsSync(join(r, 'MARK')),
  },
  {
    class: 'make evaluating $(shell …)',
    command: "make -f /dev/null 'X:=$(shell touch MARK)'",
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    effect: (r) => existsSync(join(r, 'MARK')),
  },
  {
    class: "an allow rule's * covers operands, not -delete",
    command: 'find . -name "*.tmp" -delete',
    files: { 'a.tmp': 'x\n' },
    rules: [{ command: 'find *', decision: 'allow' }],
    manual: 'ask',
    auto: 'ask',
    level: 'high',
    effect: (r) => !existsSync(join(r, 'a.tmp')),
  },
  {
    class: "a read hidden in sed's script",
    command: "sed '1r /etc/hostname' notes.md",
    files: { 'notes.md': 'n\n' },
    manual: 'ask',
    auto: 'allow',
    level: 'low',
    says: /\/etc\/hostname, outside the project/,
    effect: (_r, out) => out.split('\n').length > 2,
  },
  // §3 — read-only work runs
  ...['cut -d / -f 1 paths.txt', "awk '/x/ {print}' paths.txt", 'echo $HOME', 'ls /tmp', 'ls "$PWD"'].map(
    (command): Row => ({
      class: 'not a read outside the project',
      command,
      files: { 'paths.txt': 'x/y\n' },
      manual: 'allow',
      auto: 'allow',
      level: 'low',
    }),
  ),
  ...['pgrep -x no-such-process-xyz; true', 'tput -T xterm cols', 'FOO=bar', 'help cd', 'lsof -v; true'].map(
    (command): Row => ({
      class: 'a read-only program',
      command,
      manual: 'allow',
      auto: 'allow',
      level: 'low',
    }),
  ),
];

describe.skipIf(!hasBwrap)('issue 27 classes through the real gate and sandbox', () => {
  let sandbox: SandboxInfo;
  let ledgerDir: string;
  let h: GateHarness | undefined;

  beforeAll(async () => {
    sandbox = await detectSandbox();
    ledgerDir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-judge-classes-ledger-')));
  });
  afterEach(() => {
    h?.cleanup();
    h = undefined;
  });
  afterAll(() => rmSync(ledgerDir, { recursive: true, force: true }));

  function harness(row: Row, mode: 'manual' | 'auto'): GateHarness {
    const tool = createExecuteCommandTool({
      ...defaultExecuteCommandEffects,
      graceMs: 300,
      ledger: new MountPointLedger(ledgerDir),
    });
    const rules = (row.rules ?? []).map((r) => ({
      tool: 'execute_command',
      when: { command: r.command },
      decision: r.decision,
      source: 'user' as const,
    }));
    h = createGateHarness({ sandbox, tools: [tool], mode, coverage: true, rules });
    for (const [name, content] of Object.entries(row.files ?? {})) h.write(name, content);
    if (row.files?.['rc.sh']) chmodSync(join(h.root, 'rc.sh'), 0o755);
    return h;
  }

  it.each(ROWS.map((r) => [r.class, r.command, r] as const))('%s: %j', async (_c, command, row) => {
    for (const mode of ['manual', 'auto'] as const) {
      const g = harness(row, mode);
      const result = g.call('execute_command', { command });
      const first = await Promise.race([
        result.then((r) => ({ ended: r })),
        g.nextRequest().then((request) => ({ request })),
      ]);
      const expected = mode === 'manual' ? row.manual : row.auto;
      if ('request' in first) {
        expect(expected, `${mode}: a card was shown`).toBe('ask');
        expect(first.request.risk.level).toBe(row.level);
        if (row.says) expect(first.request.risk.reasons.join('; ')).toMatch(row.says);
        g.gate.decide(first.request.id, { kind: 'approve' });
      } else {
        expect(expected, `${mode}: it ran without a card (${first.ended.status})`).toBe('allow');
      }
      const done = await result;
      expect(done.status).toBe('executed');
      if (row.effect)
        expect(row.effect(g.root, done.output ?? ''), `${mode}: the effect; output: ${done.output}`).toBe(
          true,
        );
      g.cleanup();
      h = undefined;
    }
  });
});
