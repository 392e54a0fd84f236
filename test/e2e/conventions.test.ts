/**
 * The conventions people bring from other agents, through the real binary: `warden policy test`,
 * `/policy test`, custom slash commands (yours, and the project's once trusted), `/init` and `/memory`,
 * "don't ask again" (`A`), and a model endpoint behind a proxy (HTTPS_PROXY / NO_PROXY /
 * NODE_EXTRA_CA_CERTS). Every server is on 127.0.0.1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../helpers/fake-openai';
import { type LoopbackProxy, startLoopbackProxy } from '../helpers/loopback-proxy';
import type { PtyApp } from '../helpers/pty';
import { ptyLaunches } from '../helpers/pty-launch';
import { runWarden } from '../helpers/run-warden';
import { makeTestCert } from '../helpers/test-cert';

const { launch } = ptyLaunches();

const lastUser = (r: RecordedRequest | undefined) =>
  String(r?.body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
const system = (r: RecordedRequest | undefined) => String(r?.body.messages[0]?.content ?? '');

/** Answers the trust card; a key that came before the card listened is pressed again. */
async function answerTrustCard(app: PtyApp, key: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    app.press(key);
    try {
      await app.waitUntil((s) => !s.includes('Trust this project'), 2_000, 'the trust card to close');
      return;
    } catch {
      // Not taken yet: press again.
    }
  }
  throw new Error('the trust card took no answer');
}

/** Types a line at the prompt once the start banner is out. */
async function prompt(app: PtyApp, text: string): Promise<void> {
  await app.waitFor('sandbox');
  app.press(text);
  app.press('\r');
}

describe('warden policy test (the real binary)', () => {
  it('prints the rule that decides, the verdict, the risk and why; --json too; nothing runs', async () => {
    const text = await runWarden(['policy', 'test', 'git status && rm -rf build']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('ASK');
    expect(text.stdout).toContain('built-in rule default-ask-execute_command');
    expect(text.stdout).toMatch(/risk\s+high: deletes files \(rm\)/);
    expect(text.stdout).toContain('git status  ·  rm -rf build');
    const json = await runWarden(['policy', 'test', '--json', '--mode', 'plan', 'touch x']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      verdict: 'deny',
      decidedBy: { kind: 'mode', id: 'mode-plan' },
    });
  });

  it('bad input: a clear error and exit 2', async () => {
    for (const argv of [
      ['policy'],
      ['policy', 'test'],
      ['policy', 'test', '--mode', 'yolo', 'ls'],
      ['policy', 'run', 'ls'],
    ]) {
      const r = await runWarden(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^warden policy: /);
      expect(r.stdout).toBe('');
    }
  });
});

describe('in the app (a pty)', () => {
  it('/policy test shows the verdict in the transcript, without running the command', async () => {
    const { app, root } = await launch([]);
    await prompt(app, '/policy test touch made.txt');
    await app.waitFor('/policy test (nothing ran)');
    await app.waitFor(/verdict\s+ASK/);
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
  });

  it('a command of yours completes with Tab, shows its description and sends its prompt with $ARGUMENTS', async () => {
    const { app, fake } = await launch([{ text: 'Reviewed it.' }], {
      homeFiles: {
        'commands/review.md': '---\ndescription: Review a file for bugs\n---\nReview $ARGUMENTS for bugs.',
      },
    });
    await app.waitFor('sandbox');
    app.press('/rev');
    await app.waitFor('Review a file for bugs (yours)');
    app.press('\t');
    await app.waitFor('› /review ');
    app.press('src/a.ts\r');
    await app.waitFor('Reviewed it.');
    expect(lastUser(fake.requests[0])).toBe('Review src/a.ts for bugs.');
    await app.waitFor('/review src/a.ts');
  });

  it("the project's command is on the trust card; kept held back, it does not run", async () => {
    const { app, fake } = await launch([{ text: 'Shipped.' }], {
      files: { '.warden/commands/ship.md': '---\ndescription: Ship a release\n---\nShip version $1.' },
    });
    await app.waitFor('Trust this project');
    await app.waitFor(/command\s+\/ship — Ship a release/);
    await answerTrustCard(app, 'n');
    await prompt(app, '/ship 2.0');
    await app.waitFor('not trusted yet');
    expect(fake.requests).toHaveLength(0);
    await prompt(app, '/help');
    await app.waitFor('Keys');
    app.press('\u001B[F');
    await app.waitFor('held back until you trust');
  });

  it("the project's command runs once the person trusts the files on the card", async () => {
    const { app, fake, home } = await launch([{ text: 'Shipped.' }], {
      files: { '.warden/commands/ship.md': '---\ndescription: Ship a release\n---\nShip version $1.' },
    });
    await app.waitFor(/command\s+\/ship — Ship a release/);
    await answerTrustCard(app, 't');
    expect(existsSync(join(home, 'trust.json'))).toBe(true);
    await prompt(app, '/ship 2.0');
    await app.waitFor('Shipped.');
    expect(lastUser(fake.requests[0])).toBe('Ship version 2.0.');
  });

  it('/init shows a diff card for AGENTS.md; y writes it; /memory lists it with its size', async () => {
    const { app, root } = await launch([], { files: { 'package.json': '{"scripts":{"test":"vitest"}}' } });
    await prompt(app, '/init');
    await app.waitFor('Approval needed');
    await app.waitFor('AGENTS.md');
    await app.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
    // AGENTS.md is a protected path (every agent reads it): a high-risk card takes y twice.
    await app.pressOnCard('y', 'press y again');
    app.press('y');
    await app.waitFor('Wrote AGENTS.md');
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toContain('- Test: `npm test`');
    await prompt(app, '/memory');
    await app.waitFor('Instruction files in the system prompt');
    await app.waitFor(new RegExp(`project\\s+${join(root, 'AGENTS.md').replace(/[/.]/g, '\\$&')}`));
  });

  it("A (don't ask again) shows the rule as JSON, u saves it to your policy file; the next call like it runs unasked", async () => {
    // npm runs project code, so it asks even sandboxed (echo would run unasked: read-only).
    const run = (command: string) => ({ toolCalls: [{ name: 'execute_command', args: { command } }] });
    const { app, home, fake } = await launch(
      [run('npm test'), run('npm test -- --ci'), { text: 'Both ran.' }],
      {
        prompt: 'go',
        files: { 'package.json': '{"scripts":{"test":"echo tested"}}' },
      },
    );
    await app.waitFor('Approval needed');
    await app.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
    await app.pressOnCard('A', "Don't ask again");
    await app.waitFor('{"tool":"execute_command","decision":"allow","when":{"command":"npm test *"}}');
    app.press('u');
    await app.waitFor('Both ran.');
    const saved = JSON.parse(readFileSync(join(home, 'policy.json'), 'utf8'));
    expect(saved.rules).toEqual([
      { tool: 'execute_command', when: { command: 'npm test *' }, decision: 'allow' },
    ]);
    expect(fake.requests).toHaveLength(3);
    await app.waitFor('will not ask again');
  });

  it('your own AGENTS.md ($WARDEN_HOME) reaches the model', async () => {
    const { app, fake } = await launch([{ text: 'ok then' }], {
      homeFiles: { 'AGENTS.md': 'Always answer briefly.' },
      prompt: 'hello',
    });
    await app.waitFor('ok then');
    expect(system(fake.requests[0])).toContain('Always answer briefly.');
  });
});

describe('a model endpoint behind a proxy (headless)', () => {
  const cert = makeTestCert();
  let fake: FakeOpenAI | undefined;
  let proxy: LoopbackProxy | undefined;
  afterEach(async () => {
    await fake?.close();
    await proxy?.close();
  });

  const env = (extra: Record<string, string>) => ({
    OPENAI_BASE_URL: fake?.url ?? '',
    OPENAI_API_KEY: 'k',
    WARDEN_MODEL: 'fake-model',
    ...extra,
  });

  it.skipIf(!cert)(
    'HTTPS_PROXY tunnels with CONNECT and NODE_EXTRA_CA_CERTS trusts the private CA; without it, the error says so; NO_PROXY goes direct',
    async () => {
      const tls = cert as NonNullable<typeof cert>;
      fake = await startFakeOpenAI([], { tls, whenExhausted: { text: 'Through the tunnel.' } });
      proxy = await startLoopbackProxy();
      const ok = await runWarden(
        ['--headless', '-p', 'hello'],
        env({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.certFile }),
      );
      expect(ok.stdout).toContain('Through the tunnel.');
      expect(ok.code).toBe(0);
      expect(proxy.connects.length).toBeGreaterThan(0);
      expect(new Set(proxy.connects)).toEqual(new Set([new URL(fake.url).host]));

      const untrusted = await runWarden(['--headless', '-p', 'hello'], env({ https_proxy: proxy.url }));
      expect(untrusted.code).not.toBe(0);
      expect(`${untrusted.stdout}${untrusted.stderr}`).toContain('NODE_EXTRA_CA_CERTS');

      const before = proxy.connects.length;
      const direct = await runWarden(
        ['--headless', '-p', 'hello'],
        env({ HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1', NODE_EXTRA_CA_CERTS: tls.certFile }),
      );
      expect(direct.stdout).toContain('Through the tunnel.');
      expect(proxy.connects.length).toBe(before);
    },
  );
});
