/**
 * Headless runs of the real binary against a scripted model, for end-to-end tests that need a
 * project and a home of their own: temp folders and fake servers are removed after each test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from './fake-openai';
import { WARDEN_BIN } from './pty';
import { noManagedLayer } from './managed-env';

export type HeadlessRun = { code: number; stdout: string; stderr: string };
/** A project folder and the home (HOME and WARDEN_HOME) its runs use. */
export type Places = { root: string; home: string };

/** Registers this file's clean-up: what `later` is given runs after each test, last first. */
export function useCleanup(): (undo: () => Promise<void> | void) => void {
  const undo: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of undo.splice(0).reverse()) await f();
  });
  return (f) => {
    undo.push(f);
  };
}

/** A fresh project (holding `files`) and home, removed after the test. */
export function tempPlaces(
  later: ReturnType<typeof useCleanup>,
  name: string,
  files: Record<string, string> = {},
): Places {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `warden-${name}-proj-`)));
  const home = realpathSync(mkdtempSync(join(tmpdir(), `warden-${name}-home-`)));
  later(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content);
  return { root, home };
}

/** A scripted model on 127.0.0.1 that says "Done." once its script is spent, closed after the test. */
export async function fakeModel(
  later: ReturnType<typeof useCleanup>,
  script: FakeStep[],
): Promise<FakeOpenAI> {
  const server = await startFakeOpenAI(script, { whenExhausted: { text: 'Done.' } });
  later(() => server.close());
  return server;
}

/**
 * One `warden --headless --root <root> …args` run to its end, with nothing of this machine's
 * environment but PATH and TMPDIR; `blocks` sets a file-size limit (`ulimit -f`) for it and its git;
 * `env` adds variables (a managed folder: `WARDEN_SYSTEM_DIR`).
 */
export function headlessWarden(
  at: Places,
  server: FakeOpenAI,
  args: string[],
  options: { blocks?: number; env?: Record<string, string> } = {},
): Promise<HeadlessRun> {
  const argv = [WARDEN_BIN, '--headless', '--root', at.root, ...args];
  const { blocks } = options;
  return new Promise((resolve) => {
    execFile(
      blocks ? '/bin/sh' : process.execPath,
      blocks ? ['-c', `ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, ...argv] : argv,
      {
        cwd: at.root,
        env: {
          ...noManagedLayer(),
          PATH: process.env.PATH ?? '',
          HOME: at.home,
          TMPDIR: tmpdir(),
          WARDEN_HOME: at.home,
          OPENAI_BASE_URL: server.url,
          OPENAI_API_KEY: 'k',
          WARDEN_MODEL: 'fake-model',
          ...options.env,
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}
