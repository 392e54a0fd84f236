/**
 * Every way out of the real binary ends the same way: a signal (TERM, HUP, INT) to headless or to
 * the full-screen app cancels the turn, kills its commands (also those that left the process group),
 * writes the outcome lines, restores the terminal and exits 128+n; a kill -9 leaves processes that
 * the next start ends; a slow --json reader gets every byte; the exit codes say what happened.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditRecord } from '../../src/protocol/audit';
import { processAlive } from '../../src/os/process';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from '../helpers/fake-openai';
import { type PtyApp, WARDEN_BIN, startWarden } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';
import { auditDayFiles } from '../helpers/audit-lines';

let fake: FakeOpenAI | undefined;
let app: PtyApp | undefined;
const children: ChildProcess[] = [];
const pids: number[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  app?.kill();
  await app?.exited;
  app = undefined;
  await fake?.close();
  fake = undefined;
});

type Setup = { root: string; home: string; pidDir: string; env: Record<string, string> };

/**
 * A project, a WARDEN_HOME where commands run without the sandbox (the case where escapes matter)
 * and, with `allow`, without asking; a folder for pid files; the fake model (`script` may use the folder).
 */
async function setup(
  script: (pidDir: string) => FakeStep[],
  options: { allow?: boolean; whenExhausted?: FakeStep } = {},
): Promise<Setup> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-sig-proj-')));
  const home = mkdtempSync(join(tmpdir(), 'warden-sig-home-'));
  const pidDir = join(root, 'pids');
  mkdirSync(pidDir);
  writeFileSync(join(home, 'config.json'), JSON.stringify({ sandbox: 'off' }));
  writeFileSync(
    join(home, 'policy.json'),
    JSON.stringify({
      rules: options.allow === false ? [] : [{ tool: 'execute_command', decision: 'allow' }],
    }),
  );
  fake = await startFakeOpenAI(script(pidDir), {
    whenExhausted: options.whenExhausted ?? { text: 'Stopped.' },
  });
  return {
    root,
    home,
    pidDir,
    env: {
      ...noManagedLayer(),
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: tmpdir(),
      WARDEN_HOME: home,
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'k',
    },
  };
}

type Run = {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
};

function headless(s: Setup, extra: string[] = []): Run {
  const child = spawn(process.execPath, [WARDEN_BIN, '--headless', '-p', 'go', '--root', s.root, ...extra], {
    env: s.env,
    cwd: s.root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

const command = (cmd: string): FakeStep => ({
  toolCalls: [{ name: 'execute_command', args: { command: cmd, timeout_ms: 600_000 } }],
});
/** A command that leaves a setsid grandchild behind and then waits: both write their pids. */
const escapeAndWait = (dir: string) =>
  `setsid bash -c 'echo $$ > ${dir}/escaped; exec sleep 300' > /dev/null 2>&1 & echo $$ > ${dir}/shell; sleep 300`;

async function pidIn(file: string): Promise<number> {
  await vi.waitFor(() => expect(existsSync(file) && readFileSync(file, 'utf8').trim() !== '').toBe(true), {
    timeout: 20_000,
    interval: 20,
  });
  const pid = Number(readFileSync(file, 'utf8').trim());
  pids.push(pid);
  return pid;
}

const audit = (home: string): AuditRecord[] =>
  existsSync(join(home, 'audit'))
    ? auditDayFiles(join(home, 'audit')).flatMap((f) =>
        readFileSync(join(home, 'audit', f), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as AuditRecord),
      )
    : [];

describe.skipIf(process.platform !== 'linux')('signals to headless warden', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const)(
    '%s: the running command and its escaped child are killed, the outcome recorded, exit %i',
    async (signal, code) => {
      const s = await setup((dir) => [command(escapeAndWait(dir))]);
      const run = headless(s, ['--json']);
      const [shell, escaped] = await Promise.all([
        pidIn(join(s.pidDir, 'shell')),
        pidIn(join(s.pidDir, 'escaped')),
      ]);
      run.child.kill(signal);
      expect(await run.exited).toBe(code);
      expect(processAlive(shell)).toBe(false);
      expect(processAlive(escaped)).toBe(false);
      expect(run.stderr()).toContain(`${signal}: cancelling the turn`);
      const result = JSON.parse(run.stdout().trim().split('\n').at(-1) as string);
      expect(result).toMatchObject({ type: 'result', status: 'cancelled', signal, exitCode: code });
      const lines = audit(s.home).filter((r) => r.tool === 'execute_command');
      expect(lines.map((r) => r.phase)).toEqual(['decision', 'outcome']);
      expect(lines[1]).toMatchObject({
        outcome: 'cancelled',
        reason: expect.stringMatching(/cancelled; the process group was killed/),
      });
    },
  );

  it('a setsid grandchild is killed when its command ends, and a kill -9 leftover at the next start', async () => {
    const s = await setup(
      (dir) => [
        command(
          `setsid bash -c 'echo $$ > ${dir}/early; exec sleep 300' > /dev/null 2>&1 & while [ ! -s ${dir}/early ]; do sleep 0.01; done; echo started`,
        ),
        { text: 'Done.' },
        // The second run: a command that leaves an escapee and waits.
        command(escapeAndWait(dir)),
      ],
      { whenExhausted: { text: 'Hello again.' } },
    );
    const first = headless(s);
    expect(await first.exited).toBe(0);
    expect(processAlive(await pidIn(join(s.pidDir, 'early')))).toBe(false);

    // kill -9: nothing of warden's shutdown runs, so the command and its escapee live on…
    const killed = headless(s);
    const [shell, escaped] = await Promise.all([
      pidIn(join(s.pidDir, 'shell')),
      pidIn(join(s.pidDir, 'escaped')),
    ]);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(processAlive(escaped)).toBe(true);
    expect(readdirSync(join(s.home, 'runs'))).toHaveLength(1);
    // …until the next warden on the same WARDEN_HOME starts, finds the run record, and ends them.
    const next = headless(s);
    expect(await next.exited).toBe(0);
    expect(processAlive(escaped)).toBe(false);
    expect(processAlive(shell)).toBe(false);
    expect(readdirSync(join(s.home, 'runs'))).toEqual([]);
  });
});

describe('headless exit codes and output', () => {
  it('a slow reader of --json gets every line, the result line too (well past 64 KB)', async () => {
    const long = 'x'.repeat(700_000);
    const s = await setup(() => [{ text: long, chunkSize: 65_536 }]);
    const child = spawn(
      process.execPath,
      [WARDEN_BIN, '--headless', '--json', '-p', 'go', '--root', s.root],
      { env: s.env, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Read slowly: a pause after every chunk, so the pipe is still full when warden is done.
    const chunks: Buffer[] = [];
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      await delay(20);
    }
    expect(await exited).toBe(0);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    expect(Buffer.concat(chunks).length).toBeGreaterThan(3 * long.length);
    expect(lines.map((l) => JSON.parse(l).type)).toContain('message_done');
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({
      type: 'result',
      status: 'done',
      text: long,
      exitCode: 0,
    });
  });

  it('the audit log cannot be written: one line on stderr, nothing runs, exit 4', async () => {
    const s = await setup(() => [command('touch ran.txt'), { text: 'Could not.' }]);
    writeFileSync(join(s.home, 'audit'), 'a file where the audit folder should be');
    const run = headless(s);
    expect(await run.exited).toBe(4);
    expect(existsSync(join(s.root, 'ran.txt'))).toBe(false);
    const said = run
      .stderr()
      .split('\n')
      .filter((l) => /audit/.test(l));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^warden: the audit log cannot be written \(.+\); nothing runs without it, so the run stops \(audit_unavailable\)\.$/,
    );
  });

  it.each([
    ['every change ran', 0, [command('touch ok.txt'), { text: 'Done.' }]],
    [
      'a change failed (the command timed out)',
      3,
      [
        { toolCalls: [{ name: 'execute_command', args: { command: 'sleep 5', timeout_ms: 100 } }] },
        { text: 'Gave up.' },
      ],
    ],
    [
      'a change was refused (no approver for a write)',
      3,
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'w.txt', content: 'w' } }] },
        { text: 'Could not.' },
      ],
    ],
    [
      'a read failed: not a change',
      0,
      [{ toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] }, { text: 'No such file.' }],
    ],
    ['the model server failed', 1, [{ status: 500, errorBody: { error: { message: 'boom' } } }]],
  ] as [string, number, FakeStep[]][])('%s: exit %i', async (_label, code, script) => {
    const s = await setup(() => script, {
      whenExhausted: { status: 500, errorBody: { error: { message: 'boom' } } },
    });
    const run = headless(s);
    expect(await run.exited).toBe(code);
    if (code === 3) expect(run.stderr()).toMatch(/did not run .*exit code 3/);
  });
});

describe.skipIf(process.platform !== 'linux')('signals to the full-screen app', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s with a card pending: the request fails closed on the record, the terminal is restored, exit %i',
    async (signal, code) => {
      const s = await setup(
        () => [{ toolCalls: [{ name: 'write_file', args: { path: 'w.txt', content: 'w' } }] }],
        { allow: false },
      );
      let raw = '';
      app = startWarden(['--root', s.root, 'write w'], { ...s.env, WARDEN_TEST_CWD: s.root });
      app.pty.onData((d) => (raw += d));
      await app.waitFor('Approval needed');
      const before = raw.length;
      process.kill(app.pty.pid, signal);
      expect(await app.exited).toBe(code);
      expect(existsSync(join(s.root, 'w.txt'))).toBe(false);
      const lines = audit(s.home).filter((r) => r.tool === 'write_file');
      expect(lines.map((r) => r.phase)).toEqual(['requested', 'decision', 'outcome']);
      expect(lines[2]).toMatchObject({
        outcome: expect.stringMatching(/^(error|cancelled)$/),
        reason: expect.stringMatching(/^(input_closed|task_cancelled): /),
      });
      // Ink shows the cursor again on the way out.
      expect(raw.slice(before)).toContain('\u001b[?25h');
    },
  );

  it('SIGTERM with an approved command running: the command and its escaped child are killed, the outcome recorded', async () => {
    const s = await setup((dir) => [command(escapeAndWait(dir))], { allow: false });
    app = startWarden(['--root', s.root, 'run it'], { ...s.env, WARDEN_TEST_CWD: s.root });
    // The drawer pauses keys for a moment when a card appears; a person waits it out too.
    await app.waitFor('keys paused');
    await app.waitUntil((screen) => !screen.includes('keys paused'), 10_000, 'the grace window to end');
    // Its writes are new pid files: a medium card (issue 27 §1), one y.
    app.press('y');
    const [shell, escaped] = await Promise.all([
      pidIn(join(s.pidDir, 'shell')),
      pidIn(join(s.pidDir, 'escaped')),
    ]);
    process.kill(app.pty.pid, 'SIGTERM');
    expect(await app.exited).toBe(143);
    expect(processAlive(shell)).toBe(false);
    expect(processAlive(escaped)).toBe(false);
    const lines = audit(s.home).filter((r) => r.tool === 'execute_command');
    expect(lines.map((r) => [r.phase, r.approver])).toEqual([
      ['requested', 'none'],
      ['decision', 'human'],
      ['outcome', 'human'],
    ]);
    expect(lines[2]?.reason).toMatch(/cancelled; the process group was killed/);
  });
});
