import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { runWarden } from '../helpers/run-warden';
import { auditDayFiles } from '../helpers/audit-lines';

const warden = runWarden;

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the warden binary', () => {
  it('--help and --version exit 0; bad usage exits 2 with a clear message', async () => {
    expect((await warden(['--help'])).stdout).toContain('--headless');
    expect((await warden(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const bogus = await warden(['--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('unknown flag --bogus');
    const bare = await warden(['--headless']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/stdin was empty/);
    expect((await warden(['--json', '-p', 'x'])).code).toBe(2);
    expect((await warden(['--headless', '-p', 'x', '--mode', 'yolo'])).stderr).toMatch(/mode/);
    expect((await warden(['--headless', '-p', 'x', '--root', '/no/such/dir'])).code).toBe(2);
  });

  it('a closed stdin, like an empty one, is a clear usage error: nothing is asked of a model', async () => {
    const closed = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        '/bin/sh',
        ['-c', 'exec "$0" "$1" --headless <&-', process.execPath, WARDEN_BIN],
        {
          env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), WARDEN_HOME: join(tmpdir(), 'no-such-home') },
        },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(closed.code).toBe(2);
    expect(closed.stderr).toMatch(/--headless needs a prompt: stdin was empty/);
    expect((await warden(['--headless'], {}, undefined, ' \n\t\n')).stderr).toMatch(/stdin was empty/);
  });

  it('a prompt piped on stdin is the headless prompt; over 1 MiB is refused, not cut', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    fake = await startFakeOpenAI([
      (req) => ({ text: `heard: ${String(req.body.messages.at(-1)?.content)}` }),
    ]);
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' };
    const run = await warden(['--headless', '--root', root], env, undefined, 'fix the failing test\n');
    expect(run).toMatchObject({ code: 0, stdout: 'heard: fix the failing test\n' });
    const big = await warden(['--headless', '--root', root], env, undefined, 'a'.repeat((1 << 20) + 1));
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/prompt on stdin is over 1024 KiB/);
    expect(fake.requests.length).toBe(1);
  });

  it('the full-screen app refuses to start without a terminal', async () => {
    const run = await warden([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/needs a terminal/);
  });

  it('a broken config file stops start-up, naming the file and the field', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    mkdirSync(join(root, '.warden'));
    writeFileSync(join(root, '.warden', 'config.json'), JSON.stringify({ approvalTimeoutSec: 'soon' }));
    const run = await warden(['--headless', '-p', 'hi', '--root', root]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(join(root, '.warden', 'config.json'));
    expect(run.stderr).toContain('approvalTimeoutSec');
  });

  it('a broken policy file stops start-up, naming the file and the field', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    mkdirSync(join(root, '.warden'));
    writeFileSync(
      join(root, '.warden', 'policy.json'),
      JSON.stringify({ rules: [{ tool: 'write_file', decision: 'perhaps' }] }),
    );
    fake = await startFakeOpenAI([{ text: 'never' }]);
    const run = await warden(['--headless', '-p', 'hi', '--root', root], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'k',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('policy.json');
    expect(run.stderr).toContain('rules.0.decision');
  });

  it('--headless --json prints every event as a JSON line; anything that asks is denied as no_approver, and the refused change exits 3', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    fake = await startFakeOpenAI([
      { text: 'Writing.', toolCalls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] },
      { text: 'Could not write.' },
    ]);
    const run = await warden(['--headless', '--json', '-p', 'write x', '--root', root], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'k',
    });
    expect(run.code).toBe(3);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      events.some(
        (e) =>
          e.type === 'tool_finished' && e.result.status === 'error' && /^no_approver/.test(e.result.reason),
      ),
    ).toBe(true);
    expect(events.at(-1)).toEqual({
      type: 'result',
      status: 'done',
      text: 'Could not write.',
      exitCode: 3,
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) },
      turns: 2,
      notRun: ['write_file'],
    });
    expect(existsSync(join(root, 'x.txt'))).toBe(false);
  });

  it('--headless prints the final answer on stdout; reads run without asking; the audit is written under WARDEN_HOME', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    writeFileSync(join(root, 'notes.md'), 'the secret word is teapot\n');
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'read_file', args: { path: 'notes.md' } }] },
      (req) => ({
        text: `It says: ${String(req.body.messages.at(-1)?.content).includes('teapot') ? 'teapot' : '?'}`,
      }),
    ]);
    const home = mkdtempSync(join(tmpdir(), 'warden-cli-wh-'));
    const run = await warden(['--headless', '-p', 'what does notes.md say?', '--root', root], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'k',
      WARDEN_HOME: home,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'It says: teapot\n' });
    expect(auditDayFiles(join(home, 'audit')).length).toBe(1);
    const audit = await warden(['audit', '--json'], { WARDEN_HOME: home });
    expect(audit.stdout).toContain('"tool":"read_file"');
  });

  it('a conversation with the model never loads undici: the transport is node:http (issue 16: ~45 ms, ~12 MiB)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    writeFileSync(join(root, 'a.txt'), 'a\n');
    // Node's own list of the internal modules it loaded, written when the process ends.
    const probe = join(root, 'probe.cjs');
    const loaded = join(root, 'loaded.json');
    writeFileSync(
      probe,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));`,
    );
    fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'read' },
    ]);
    const run = await warden(['--headless', '-p', 'read a.txt', '--root', root], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'k',
      NODE_OPTIONS: `--require ${probe}`,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'read\n' });
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(modules.some((m) => m.includes('internal/deps/undici'))).toBe(false);
    expect(modules.some((m) => m.includes('_http_client'))).toBe(true);
  });

  it('--demo runs the scripted demo headless, labelled as a demo, and its summary says what happened: nobody approved the plan, so nothing started (issue 33)', async () => {
    const run = await warden(['--headless', '--demo', '-p', 'go']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/propose_plan error: no_approver/);
    expect(run.stdout).toMatch(/^\[demo\] Summary/m);
    expect(run.stdout).toMatch(/did not get the plan approved: nobody was there to approve it/);
    expect(run.stdout).toMatch(/no sub-agent was started and no file was changed/);
    expect(run.stdout).not.toMatch(/\bI wrote\b|\bran npm test\b|writer: done/);
  });

  it('a model server that is down gives a clear error and exit 1', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-cli-proj-'));
    const run = await warden(['--headless', '-p', 'hi', '--root', root], {
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_KEY: 'k',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/127\.0\.0\.1:9/);
  });
});
