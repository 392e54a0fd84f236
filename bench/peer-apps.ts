// The apps bench/peers.bench.ts drives in one pty harness: warden's bundle and, when the
// environment names a built copy, grok-cli (the last Ink version, @vibe-kit/grok-cli 0.0.34).
// Each app says how to start it against the fake model, what its screens look like and which key
// approves, so the bench's scenarios are written once for both.
import { benchTempDir } from './temp-dir';
import type { FakeToolCall } from '../test/helpers/fake-openai';
import { type PtyApp, startNodeProgram, WARDEN_BIN, wardenFrameComplete } from '../test/helpers/pty';

/**
 * What the model asks for, and the file it leaves: a whole-file write (a new file or the replacement of
 * an existing one), or a command that makes `path` with `content` (`touch x`: empty).
 */
export type FileWrite =
  | { path: string; content: string; kind: 'create' | 'overwrite' }
  | { path: string; content: string; kind: 'command'; command: string };

/** One app under test, as the bench drives it. */
export type PeerApp = {
  name: string;
  /** Starts a fresh process on `root` against the fake model at `url`; `prompt` goes on the command line. */
  start(root: string, url: string, prompt?: string): PtyApp;
  /** The screen shows the input, ready for a prompt. */
  ready(screen: string): boolean;
  /** The input shows what was typed so far. */
  echoes(screen: string, typed: string): boolean;
  /** The tool call the model sends for this write (each app has its own tool for it). */
  call(write: FileWrite): FakeToolCall;
  /** The whole approval card of this write is on screen (header, body and choices). */
  cardShown(screen: string, write: FileWrite): boolean;
  /** Waits until the card takes keys, as a person would; resolves just before the approve key. */
  untilKeysTaken(app: PtyApp): Promise<void>;
  /** The key that approves once. */
  approveKey: string;
  /** How its file writes reach the disk, printed with the figures. */
  durability: string;
};

/** A warden bundle (this worktree's dist/warden.js, or another build named for a before/after run). */
export function wardenApp(script = WARDEN_BIN, name = 'warden'): PeerApp {
  return {
    name,
    start: (root, url, prompt) =>
      startNodeProgram(
        script,
        ['--root', root, ...(prompt ? [prompt] : [])],
        {
          OPENAI_BASE_URL: url,
          OPENAI_API_KEY: 'bench',
          WARDEN_HOME: benchTempDir('warden-bench-home-'),
        },
        // WARDEN_CPU_PROF=<dir>: each warden process writes a .cpuprofile there when it ends.
        { cwd: root, frameComplete: wardenFrameComplete, nodeArgs: profileArgs() },
      ),
    ready: (s) => /│ mode manual/.test(s) && s.includes('›'),
    echoes: (s, typed) => s.includes(`› ${typed}`),
    call: (w) =>
      w.kind === 'command'
        ? { name: 'execute_command', args: { command: w.command } }
        : { name: 'write_file', args: { path: w.path, content: w.content } },
    cardShown: (s, w) =>
      s.includes('Approval needed') &&
      s.includes(
        w.kind === 'command' ? w.command : w.kind === 'create' ? `${w.path} new file` : `${w.path} +1 −1`,
      ),
    async untilKeysTaken(app) {
      // A new card ignores keys for a short grace window, and says so from its first frame.
      await app.waitFor('keys paused');
      await app.waitUntil((s) => !s.includes('keys paused'), 20_000, 'the grace window to end');
    },
    approveKey: 'y',
    durability: 'temp file + fsync, rename, fsync of the folder; audit line written before the write',
  };
}

function profileArgs(): string[] {
  const dir = process.env.WARDEN_CPU_PROF;
  return dir ? ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100'] : [];
}

/** grok-cli's screen once it is idle at its input box. */
const GROK_INPUT = 'Ask me anything...';

/** grok-cli 0.0.34 (Ink 4, openai client), started with `node <dist/index.js>`. */
export function grokApp(script: string): PeerApp {
  return {
    name: 'grok',
    start: (root, url, prompt) =>
      startNodeProgram(
        script,
        ['-d', root, ...(prompt ? [prompt] : [])],
        // The temp HOME startNodeProgram gives holds grok's ~/.grok/user-settings.json.
        { GROK_API_KEY: 'bench', GROK_BASE_URL: url },
        { cwd: root },
      ),
    ready: (s) => s.includes(GROK_INPUT),
    echoes: (s, typed) => s.includes(`❯ ${typed}`),
    // create_file replaces an existing file whole, as write_file does; bash runs a command (unsandboxed).
    call: (w) =>
      w.kind === 'command'
        ? { name: 'bash', args: { command: w.command } }
        : { name: 'create_file', args: { path: w.path, content: w.content } },
    cardShown: (s, w) =>
      s.includes(w.kind === 'command' ? `Run bash command(${w.command})` : `Write(${w.path})`) &&
      s.includes('Do you want to proceed') &&
      s.includes('Enter select'),
    // Its dialog takes keys as soon as it is drawn; "1. Yes" is selected.
    untilKeysTaken: async () => {},
    approveKey: '\r',
    durability: 'fs.writeFile in place, no fsync',
  };
}
