import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from './fake-openai';
import { type PtyApp, startWarden } from './pty';

/** A warden binary in a pty against the fake model, on a temp project and a temp WARDEN_HOME. */
export type PtyLaunch = { app: PtyApp; fake: FakeOpenAI; root: string; home: string };

export type PtyLaunchOptions = {
  /** The prompt given on the command line; none starts at an empty prompt. */
  prompt?: string;
  /** Flags before the prompt, e.g. `['--mode', 'auto']`. */
  flags?: string[];
  /** Files of the project, by relative path. */
  files?: Record<string, string>;
  /** Files of the temp WARDEN_HOME, by relative path. */
  homeFiles?: Record<string, string>;
  /** More environment for the binary (the model name, $EDITOR, …). */
  env?: Record<string, string>;
  /** The fake model's answer once the script is used up (default: "All done."). */
  whenExhausted?: FakeStep;
  /** The terminal's size (default 120x40). */
  size?: { cols: number; rows: number };
};

/**
 * The e2e tests' common start: `launch` starts the fake model and the binary; after each test both
 * are stopped (the temp folders live under the run's private TMPDIR, removed by the global setup).
 * Call at the top level of a test file.
 */
export function ptyLaunches(): {
  launch(script: FakeStep[], options?: PtyLaunchOptions): Promise<PtyLaunch>;
} {
  let running: PtyLaunch | undefined;
  afterEach(async () => {
    const last = running;
    running = undefined;
    last?.app.kill();
    await last?.app.exited;
    await last?.fake.close();
  });
  return {
    async launch(script, options = {}) {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-e2e-proj-')));
      for (const [path, content] of Object.entries(options.files ?? {})) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      const home = mkdtempSync(join(tmpdir(), 'warden-e2e-home-'));
      for (const [path, content] of Object.entries(options.homeFiles ?? {})) {
        mkdirSync(join(home, path, '..'), { recursive: true });
        writeFileSync(join(home, path), content);
      }
      const fake = await startFakeOpenAI(script, {
        whenExhausted: options.whenExhausted ?? { text: 'All done.' },
      });
      const args = ['--root', root, ...(options.flags ?? []), ...(options.prompt ? [options.prompt] : [])];
      const app = startWarden(
        args,
        {
          OPENAI_BASE_URL: fake.url,
          OPENAI_API_KEY: 'test',
          WARDEN_HOME: home,
          ...options.env,
        },
        options.size,
      );
      running = { app, fake, root, home };
      return running;
    },
  };
}
