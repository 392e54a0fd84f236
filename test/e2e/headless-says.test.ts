/**
 * Plain headless says what the app's transcript says (issue 29 §6), one stderr line each, through the
 * real binary: no git for checkpoints, a sessions folder that cannot be written, a session line cut
 * short and skipped on resume; and a model server out of reach names the real cause (a redirect
 * refused, https:// to a plain-HTTP server), once.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-says-proj-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'warden-says-home-')));
  const server = await startFakeOpenAI([], { whenExhausted: { text: 'Done.' } });
  cleanup.push(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  return { root, home, server };
}

function headless(
  at: { root: string; home: string; server: FakeOpenAI },
  args: string[],
  path = process.env.PATH ?? '',
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WARDEN_BIN, '--headless', '--root', at.root, ...args],
      {
        cwd: at.root,
        env: {
          ...noManagedLayer(),
          PATH: path,
          HOME: at.home,
          TMPDIR: tmpdir(),
          WARDEN_HOME: at.home,
          OPENAI_BASE_URL: at.server.url,
          OPENAI_API_KEY: 'k',
          WARDEN_MODEL: 'fake-model',
        },
      },
      (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
    );
  });
}

describe('headless says it on stderr', () => {
  it('git missing: checkpoints cover only warden’s own writes', async () => {
    const at = await setup();
    const run = await headless(at, ['-p', 'hi'], join(at.home, 'no-bin'));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warden: Checkpoints: git was not found on PATH, so \/undo .*\n$/m);
  });

  it('a sessions folder that cannot be written', async () => {
    const at = await setup();
    writeFileSync(join(at.home, 'sessions'), 'not a folder\n');
    const run = await headless(at, ['-p', 'hi']);
    expect(run.code).toBe(0);
    expect(run.stderr.match(/warden: This session cannot be saved/g)).toHaveLength(1);
  });

  it('a session line cut short is skipped on resume, and said', async () => {
    const at = await setup();
    expect((await headless(at, ['-p', 'hi'])).code).toBe(0);
    const dir = join(at.home, 'sessions');
    const file = readdirSync(dir).find((f) => f.endsWith('.jsonl')) ?? '';
    appendFileSync(join(dir, file), '{"t":"prompt","ts":"2026-');
    const run = await headless(at, ['--continue', '-p', 'again']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warden: The last line of the session file was cut short/);
  });
  it.each([
    [
      'https:// to a plain-HTTP server',
      'https',
      /the address says https:\/\/ but the server answers plain HTTP; use http:\/\//,
    ],
    [
      'a redirect to another host',
      'redirect',
      /the model server redirected to http:\/\/127\.0\.0\.1:1: refused/,
    ],
  ])('the model server out of reach names the real cause, once: %s', async (_label, kind, cause) => {
    const at = await setup();
    const server = createServer((_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/v1/chat/completions' });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const url =
      kind === 'https'
        ? `https://127.0.0.1:${at.server.url.split(':').at(-1)}`
        : `http://127.0.0.1:${port}/v1`;
    const run = await headless({ ...at, server: { ...at.server, url } as FakeOpenAI }, ['-p', 'hi']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(cause);
    expect(run.stderr.match(/Could not reach the model server/g)).toHaveLength(1);
  });
});
