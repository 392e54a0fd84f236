/**
 * Red team, faults: ways out of the real binary that the e2e signal tests do not take. SIGQUIT (kill
 * -QUIT, or Ctrl+\ in a terminal that is not raw) and a reader that goes away (`warden -p … --json |
 * head -c 1`) must end warden like SIGTERM does — the running command's process group killed, its
 * outcome on the record, the terminal given back, an exit code that says so — never a crash that
 * leaves the command to the next start. A second SIGINT mid-shutdown ends at once; the next
 * `--continue` tells the model the call was interrupted and runs nothing twice. SIGPIPE itself is
 * ignored (Node's own choice, so that a write to a closed pipe fails with EPIPE instead).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IPty, spawn as spawnPty } from '@lydell/node-pty';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processAlive } from '../../src/os/process';
import type { AuditRecord } from '../../src/protocol/audit';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';
import { auditDayFiles } from '../helpers/audit-lines';

let fake: FakeOpenAI | undefined;
const children: ChildProcess[] = [];
const ptys: IPty[] = [];
const pids: number[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pty of ptys.splice(0)) {
    try {
      pty.kill('SIGKILL');
    } catch {
      // gone
    }
  }
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await fake?.close();
  fake = undefined;
});

type Setup = { root: string; home: string; env: Record<string, string> };

/** A project, a WARDEN_HOME where commands run unsandboxed without asking, the fake model. */
async function setup(script: FakeStep[]): Promise<Setup> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-rtf-proj-')));
  const home = mkdtempSync(join(tmpdir(), 'warden-rtf-home-'));
  writeFileSync(join(home, 'config.json'), JSON.stringify({ sandbox: 'off' }));
  writeFileSync(
    join(home, 'policy.json'),
    JSON.stringify({ rules: [{ tool: 'execute_command', decision: 'allow' }] }),
  );
  fake = await startFakeOpenAI(script, { whenExhausted: { text: 'Stopped.' } });
  const env = {
    ...noManagedLayer(),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    WARDEN_HOME: home,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'k',
  };
  return { root, home, env };
}

const command = (cmd: string): FakeStep => ({
  toolCalls: [{ name: 'execute_command', args: { command: cmd, timeout_ms: 600_000 } }],
});
/** Counts its runs, writes its pid once running, then prints a line now and then for a long time. */
const LONG = 'echo run >> count; echo $$ > pid; while :; do echo tick; sleep 0.05; done';

async function commandPid(root: string): Promise<number> {
  const file = join(root, 'pid');
  await vi.waitFor(() => expect(existsSync(file) && readFileSync(file, 'utf8').trim() !== '').toBe(true), {
    timeout: 20_000,
    interval: 20,
  });
  const pid = Number(readFileSync(file, 'utf8').trim());
  pids.push(pid);
  return pid;
}

function audit(home: string): AuditRecord[] {
  const dir = join(home, 'audit');
  if (!existsSync(dir)) return [];
  return auditDayFiles(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditRecord),
  );
}
const commandLines = (home: string) =>
  audit(home)
    .filter((r) => r.tool === 'execute_command')
    .map((r) => [r.phase, r.outcome ?? null]);

type Run = { child: ChildProcess; stderr: () => string; exited: Promise<number | null> };

function headless(s: Setup, extra: string[]): Run {
  const child = spawn(process.execPath, [WARDEN_BIN, '--headless', '--root', s.root, ...extra], {
    env: s.env,
    cwd: s.root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => err, exited };
}

/** No Node stack trace, no "Unhandled 'error' event": warden said what happened in its own words. */
const NO_CRASH = /Unhandled|node:events|^\s+at /m;

describe.skipIf(process.platform !== 'linux')('headless: the reader of stdout goes away', () => {
  it('mid-command (EPIPE): the command is killed, its outcome recorded, exit 141, no crash', async () => {
    const s = await setup([command(LONG), { text: 'Done.' }]);
    const run = headless(s, ['--json', '-p', 'go']);
    run.child.stdout?.resume();
    const pid = await commandPid(s.root);
    // The reader closes its end: the next line warden writes (a tick of the command) fails with EPIPE.
    run.child.stdout?.destroy();
    expect(await run.exited).toBe(141);
    expect(processAlive(pid)).toBe(false);
    expect(run.stderr()).not.toMatch(NO_CRASH);
    expect(run.stderr()).toMatch(/^warden: SIGPIPE: .*cancelling the turn/m);
    expect(commandLines(s.home)).toEqual([
      ['decision', null],
      ['outcome', 'cancelled'],
    ]);
    expect(readdirSync(join(s.home, 'runs'))).toEqual([]);
  });

  it('`| head -c 1` before any call: ends with 141, nothing runs, no crash', async () => {
    // The model answers only once `head` has gone: what warden writes after that fails with EPIPE.
    const s = await setup([
      async () => {
        await vi.waitFor(() => expect(existsSync(join(s.root, 'head-done'))).toBe(true), {
          timeout: 10_000,
          interval: 20,
        });
        return {
          text: 'Creating it.',
          toolCalls: [{ name: 'execute_command', args: { command: 'touch ran.txt' } }],
        };
      },
      { text: 'Done.' },
    ]);
    const shell = spawn(
      'bash',
      [
        '-c',
        `"$0" "$1" --headless --json -p go --root "$2" | (head -c 1 > /dev/null; touch "$2/head-done"); echo "status=\${PIPESTATUS[0]}" >&2`,
        process.execPath,
        WARDEN_BIN,
        s.root,
      ],
      { env: s.env, cwd: s.root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(shell);
    let err = '';
    shell.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise((resolve) => shell.once('exit', resolve));
    expect(err).not.toMatch(NO_CRASH);
    expect(err).toMatch(/status=141$/m);
    expect(existsSync(join(s.root, 'ran.txt'))).toBe(false);
  });

  it('kill -PIPE is ignored (Node ignores SIGPIPE): the run goes on to its end, exit 0', async () => {
    const s = await setup([
      command('echo $$ > pid; while [ ! -e go ]; do sleep 0.02; done; echo ok'),
      { text: 'Done.' },
    ]);
    const run = headless(s, ['-p', 'go']);
    const pid = await commandPid(s.root);
    run.child.kill('SIGPIPE');
    // Still running after the signal: the command goes on until told to stop.
    expect(processAlive(pid)).toBe(true);
    writeFileSync(join(s.root, 'go'), '');
    expect(await run.exited).toBe(0);
    expect(commandLines(s.home)).toEqual([
      ['decision', null],
      ['outcome', 'executed'],
    ]);
  });
});

describe.skipIf(process.platform !== 'linux')('SIGQUIT', () => {
  it('headless: like SIGTERM — the command group is killed, the outcome recorded, exit 131', async () => {
    const s = await setup([command(LONG), { text: 'Done.' }]);
    const run = headless(s, ['-p', 'go']);
    const pid = await commandPid(s.root);
    run.child.kill('SIGQUIT');
    expect(await run.exited).toBe(131);
    expect(processAlive(pid)).toBe(false);
    expect(run.stderr()).toContain('SIGQUIT: cancelling the turn');
    expect(commandLines(s.home)).toEqual([
      ['decision', null],
      ['outcome', 'cancelled'],
    ]);
    expect(readdirSync(join(s.home, 'runs'))).toEqual([]);
  });

  it('the full-screen app: the command is killed, the outcome recorded, the terminal back to cooked mode, exit 131', async () => {
    const s = await setup([command(LONG), { text: 'Done.' }]);
    // A shell runs warden in the pty, then reports its exit code and the terminal's modes.
    const pty = spawnPty(
      'bash',
      [
        '-c',
        `"$0" "$1" --root "$2" 'run it'; echo "EXIT=$?"; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo END`,
        process.execPath,
        WARDEN_BIN,
        s.root,
      ],
      {
        name: 'xterm-256color',
        cols: 120,
        rows: 40,
        cwd: s.root,
        env: { ...s.env, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      },
    );
    ptys.push(pty);
    let raw = '';
    pty.onData((d) => (raw += d));
    const ended = new Promise((resolve) => pty.onExit(resolve));
    const pid = await commandPid(s.root);
    const warden = Number(
      readFileSync(`/proc/${pty.pid}/task/${pty.pid}/children`, 'utf8').trim().split(/\s+/)[0],
    );
    process.kill(warden, 'SIGQUIT');
    await ended;
    expect(raw).toMatch(/EXIT=131\r?\nicanon echo END/);
    // Ink shows the cursor again on the way out.
    expect(raw.slice(0, raw.indexOf('EXIT='))).toMatch(/\u001b\[\?25h[^\u001b]*$/);
    expect(processAlive(pid)).toBe(false);
    expect(commandLines(s.home)).toEqual([
      ['decision', null],
      ['outcome', 'cancelled'],
    ]);
    expect(readdirSync(join(s.home, 'runs'))).toEqual([]);
  });
});

/** The files in the project, but the ones the commands write: no warden temp file may be left. */
const leftovers = (root: string) =>
  readdirSync(root).filter((f) => !['count', 'pid', 'got-term', 'a.txt', 'b.txt'].includes(f));

describe.skipIf(process.platform !== 'linux')('a signal mid-step, then --continue', () => {
  it('SIGTERM during a burst of parallel reads and a command: every call has its two lines; --continue runs nothing again', async () => {
    const reads = Array.from({ length: 12 }, (_, i) => ({
      name: 'read_file',
      args: { path: i % 2 ? 'a.txt' : 'b.txt', offset: i + 1 },
    }));
    const s = await setup([
      { toolCalls: [...reads, { name: 'execute_command', args: { command: LONG, timeout_ms: 600_000 } }] },
      { text: 'Next.' },
    ]);
    writeFileSync(join(s.root, 'a.txt'), 'a\n'.repeat(20));
    writeFileSync(join(s.root, 'b.txt'), 'b\n'.repeat(20));
    const first = headless(s, ['-p', 'go']);
    const pid = await commandPid(s.root);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(143);
    expect(processAlive(pid)).toBe(false);
    const lines = audit(s.home);
    const byCall = new Map<string, string[]>();
    for (const r of lines.filter((r) => r.tool !== 'task'))
      byCall.set(r.argsHash + r.tool + JSON.stringify(r.args), [
        ...(byCall.get(r.argsHash + r.tool + JSON.stringify(r.args)) ?? []),
        `${r.phase}:${r.outcome ?? ''}`,
      ]);
    const want = [
      ...Array.from({ length: 12 }, () => ['decision:', 'outcome:executed']),
      ['decision:', 'outcome:cancelled'],
    ];
    expect([...byCall.values()].sort()).toEqual(want.sort());

    const next = headless(s, ['--continue', '-p', 'next']);
    expect(await next.exited).toBe(0);
    expect(readFileSync(join(s.root, 'count'), 'utf8')).toBe('run\n');
    // The model's next request holds each call's one result: twelve reads and the cancelled command.
    const tools = fake?.requests.at(-1)?.body.messages.filter((m) => m.role === 'tool') ?? [];
    expect(tools).toHaveLength(13);
    expect(tools.filter((m) => /"status":"cancelled"/.test(String(m.content)))).toHaveLength(1);
    expect(audit(s.home).filter((r) => r.tool === 'execute_command')).toHaveLength(2);
    expect(leftovers(s.root)).toEqual([]);
  });

  it('SIGINT twice (the second mid-shutdown) ends at once with 130 and leaves no process; --continue says "interrupted" and runs nothing again', async () => {
    // The command traps TERM and goes on, so the orderly shutdown is still waiting when the second SIGINT comes.
    const s = await setup([
      command(
        "echo run >> count; trap 'echo t > got-term' TERM; echo $$ > pid; while :; do sleep 0.05; done",
      ),
      { text: 'Next.' },
    ]);
    const first = headless(s, ['-p', 'go']);
    const pid = await commandPid(s.root);
    first.child.kill('SIGINT');
    await vi.waitFor(() => expect(existsSync(join(s.root, 'got-term'))).toBe(true), {
      timeout: 10_000,
      interval: 20,
    });
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    // The exit hook killed the group (SIGKILL: a trap cannot stop it) and dropped its run record.
    expect(processAlive(pid)).toBe(false);
    expect(readdirSync(join(s.home, 'runs'))).toEqual([]);
    expect(commandLines(s.home)[0]).toEqual(['decision', null]);

    const next = headless(s, ['--continue', '-p', 'next']);
    expect(await next.exited).toBe(0);
    expect(readFileSync(join(s.root, 'count'), 'utf8')).toBe('run\n');
    const told = fake?.requests.at(-1)?.body.messages.filter((m) => m.role === 'tool') ?? [];
    expect(told).toHaveLength(1);
    expect(String(told[0]?.content)).toMatch(/interrupted: warden stopped while this call was running/);
    // The resume closed the call's record: what became of it is unknown, and the log says so.
    expect(commandLines(s.home)).toEqual([
      ['decision', null],
      ['outcome', 'error'],
    ]);
    const closed = audit(s.home).filter((r) => r.tool === 'execute_command');
    expect(closed[1]).toMatchObject({
      argsHash: closed[0]?.argsHash,
      decision: closed[0]?.decision,
      approver: closed[0]?.approver,
      reason: expect.stringMatching(/^interrupted: /),
    });
    expect(leftovers(s.root)).toEqual([]);
  });
});
