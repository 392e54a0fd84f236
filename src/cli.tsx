/**
 * Entry point: flags → config → Session → the Ink <App/> or the headless runner.
 * The only file of src/ that may import ink, react or components/.
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import { runAuditCli } from './audit/cli';
import { closeInheritedDescriptors } from './os/inherited-fds';
import { helpText, parseArgs } from './config/args';
import { type ResolvedConfig, loadConfig, wardenHome } from './config/load';
import {
  EXIT,
  type ExitSignals,
  SIGNAL_EXIT_CODES,
  drained,
  exitProcess,
  terminalGone,
  watchExitSignals,
} from './exit';
import { runHeadless } from './session/headless';
import { runAnswerCli } from './session/saved/answer-cli';
import { runKeyCli } from './answers/key-cli';
import { readAllStdin } from './os/read-stdin';
import { runPendingCli } from './session/saved/pending-cli';
import { prepareDemoProject } from './llm/demo-assets';
import { createDemoModel } from './llm/demo-model';
import { endpointLine } from './llm/endpoint-host';
import { lazyModelClient } from './llm/lazy-model';
import { removeAtExit } from './llm/demo-scratch';
import type { ModelClient } from './llm/types';
import type { ProjectTrustState } from './protocol';
import { type Session, createSession } from './session/session';
import { startFromConfig } from './trust/start';
import { listSessions } from './session/saved/store-index';
import { forkSession } from './session/saved/session-fork';
import { guardIo } from './text/safe-output';
import { keepYoungGenerationSmall } from './v8-heap';
import { resolveAuditExport } from './config/audit-export';

// Warnings and errors may quote a stranger's config or a model's text: no raw control reaches the terminal.
const io = guardIo({ stdout: process.stdout, stderr: process.stderr });

// SIGTERM, SIGHUP, SIGINT and SIGQUIT end warden like Ctrl+C twice, whatever it is doing (src/exit.ts).
const signals = watchExitSignals();
// A reader that went away (`warden -p … --json | head -c 1`, a closed terminal): Node reports EPIPE
// as an 'error' event, and unhandled it crashed warden mid-turn — a stack trace, exit 1, the running
// command killed by the exit hook but its outcome line never written. It ends the run as SIGPIPE
// would, in order; what is still written to the dead stream goes nowhere.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => signals.raise('SIGPIPE'));

async function main(argv: string[]): Promise<number> {
  // Before anything is spawned: no command, MCP server or hook inherits what warden was started with.
  closeInheritedDescriptors();
  const parsed = parseArgs(argv);
  if (!parsed.ok) return usage(parsed.error);
  const args = parsed.args;
  if (args.kind === 'help') return print(helpText(packageJson.version));
  if (args.kind === 'version') return print(packageJson.version);
  const home = wardenHome(process.env);
  if (args.kind === 'audit')
    return runAuditCli(args.argv, {
      ...io,
      auditDir: join(home, 'audit'),
      columns: process.stdout.columns ?? 120,
    });
  if (args.kind === 'pending') return runPendingCli(args.argv, { ...io, home });
  if (args.kind === 'policy') {
    const { runPolicyCli } = await import('./gate/policy-cli');
    return runPolicyCli(args.argv, { ...io, home, env: process.env, cwd: process.cwd() });
  }
  if (args.kind === 'answer') return runAnswerCli(args.verb, args.argv, { ...io, home });
  if (args.kind === 'key') return runKeyCli(args.argv, { ...io, home, env: process.env });
  // A resumed headless run goes on with the turn it stopped in; a new prompt then comes only with -p
  // (a script's stdin left open would otherwise hold the resume forever).
  const resuming = args.headless && (args.resumeId !== undefined || args.continue);
  if (args.headless && !args.prompt && !resuming) {
    // `echo "fix the test" | warden --headless`: a prompt piped in; a terminal is not a prompt.
    if (process.stdin.isTTY) return usage('--headless needs a prompt (-p PROMPT, or text on stdin)');
    const piped = await readAllStdin(process.stdin, STDIN_PROMPT_LIMIT);
    if (!piped.ok) return usage(piped.reason);
    if (piped.text.trim() === '') return usage('--headless needs a prompt: stdin was empty (-p PROMPT)');
    args.prompt = piped.text.trim();
  }
  if (!args.headless && !process.stdin.isTTY)
    return usage('the full-screen app needs a terminal; for scripts use --headless -p PROMPT');

  const flags = { ...(args.model ? { model: args.model } : {}), ...(args.mode ? { mode: args.mode } : {}) };
  let root = resolve(args.root ?? process.cwd());
  if (!isDirectory(root)) return usage(`--root ${root} is not a folder`);
  const trustProject = args.trustProject;
  let loaded = loadConfig({ home, root, env: process.env, flags, trustProject });
  if (!loaded.ok) return loaded.usage ? usage(loaded.error) : fail(loaded.error);
  const demo = args.demo || (!loaded.config.apiKey && !loaded.config.baseUrl);
  if (demo) {
    root = await prepareDemoProject();
    // The scratch copy (the project's parent folder) goes when warden exits, whichever way.
    removeAtExit(dirname(root));
    loaded = loadConfig({ home, root, env: process.env, flags, trustProject });
    if (!loaded.ok) return loaded.usage ? usage(loaded.error) : fail(loaded.error);
  }
  for (const warning of loaded.warnings) io.stderr.write(`warden: ${warning}\n`);
  const config = loaded.config;
  // Ink, React and the app are loaded while the session starts (wasm parser, sandbox probe).
  const ui = args.headless ? undefined : import('../components/ui');

  // --continue / --resume: this project's saved sessions (src/session/saved/).
  const saved = args.continue || (args.resume && !args.resumeId) ? listSessions(home, realRoot(root)) : [];
  if ((args.continue || (args.resume && !args.resumeId)) && saved.length === 0)
    return fail(
      `there is no saved session for ${root} to ${args.continue ? 'continue' : 'resume'} (sessions are kept in ${join(home, 'sessions')}); start without ${args.continue ? '--continue' : '--resume'}`,
    );
  // The app's /resume picker hands its choice here: the app closes and starts again on that session.
  const switcher: { to?: string; request?: () => void } = {};
  const open = async (resume?: string): Promise<Session> =>
    createSession({
      ...(resume ? { resume } : {}),
      onResume: (id) => {
        switcher.to = id;
        switcher.request?.();
      },
      root,
      home,
      // The AGENTS.md of each folder between the root and here counts too.
      cwd: process.cwd(),
      model: demo ? createDemoModel() : openAIModel(config),
      mode: config.mode,
      modeFromFlag: args.mode !== undefined,
      // The app draws its first screen before the sandbox probe; headless waits for it.
      checkSandboxAfterStart: !args.headless,
      approvalTimeoutSec: config.approvalTimeoutSec,
      sandbox: config.sandbox,
      maxStepsPerTurn: config.maxStepsPerTurn,
      escalation: config.escalation,
      ...(config.suggestions ? { suggestions: config.suggestions } : {}),
      notify: config.notify,
      hooks: config.hooks,
      contextWindowTokens: config.contextWindowTokens,
      reviewTurns: config.reviewTurns && !args.headless,
      // Headless has nobody to answer the /compact offer: a full window ends the turn as before.
      offerCompact: !args.headless,
      protectedPaths: config.protectedPaths,
      ...(config.webSearch ? { webSearchUrl: config.webSearch.url } : {}),
      ...(config.sandboxReadPaths.length > 0 ? { sandboxReadPaths: config.sandboxReadPaths } : {}),
      ...(config.sandboxNetwork.length > 0 ? { sandboxNetwork: config.sandboxNetwork } : {}),
      mcpServers: config.mcpServers,
      managed: loaded.managed,
      auditExport: resolveAuditExport(process.env, config.audit?.export),
      endpoint: endpointLine(config.baseUrl, process.env),
      ...(loaded.project ? { project: startFromConfig(home, loaded.project) } : {}),
      ...(demo
        ? {
            banner: `DEMO: no OPENAI_API_KEY or OPENAI_BASE_URL, so a scripted demo model runs on a scratch copy of a small project at ${root}. Nothing outside it is touched.`,
          }
        : {}),
    });
  let session: Session;
  try {
    const latest = args.continue ? saved[0]?.id : args.resumeId;
    // --fork: a copy of the latest session, as a new one (another warden may be holding it).
    session = await open(latest && args.fork ? forkSession(home, latest) : latest);
  } catch (err) {
    return fail((err as Error).message);
  }
  // Headless has no trust card: the project's loosening stays out, said once.
  const trust = session.client.snapshot().trust;
  if (args.headless && trust?.status === 'untrusted') io.stderr.write(`warden: ${heldLine(trust)}\n`);
  try {
    // A signal during start-up: nothing ran yet, nothing more starts.
    if (signals.received) return SIGNAL_EXIT_CODES[signals.received];
    if (args.headless) {
      void keepYoungGenerationSmall();
      // A resumed turn goes on first: its waiting requests take an answer given elsewhere, or park again
      // (`--on-ask park`), or fail as no_approver.
      const onAsk = args.onAsk ?? config.approvals.whenNobodyAsks;
      return await runHeadless(session, args.prompt, { json: args.json, onAsk }, io, signals);
    }
    const modules = await (ui as NonNullable<typeof ui>);
    let first = { prompt: args.prompt, picker: args.resume && !args.resumeId };
    for (;;) {
      const code = await runApp(session, modules, first.prompt, demo, root, signals, first.picker, switcher);
      const next = switcher.to;
      if (next === undefined || signals.received) return code;
      switcher.to = undefined;
      first = { prompt: undefined, picker: false };
      await session.close();
      try {
        session = await open(next);
      } catch (err) {
        return fail((err as Error).message);
      }
    }
  } finally {
    // Cancels what runs, waits for its commands to be killed and its outcome lines written, flushes the audit.
    await session.close();
  }
}

type UiModule = typeof import('../components/ui');

async function runApp(
  session: Session,
  ui: UiModule,
  prompt: string | undefined,
  demo: boolean,
  root: string,
  signals: ExitSignals,
  picker = false,
  switcher: { request?: () => void } = {},
): Promise<number> {
  const detach = session.attachApprover();
  // With the keyboard gone nobody can decide: pending requests fail closed and the app ends.
  const onInputClosed = () => {
    session.client.send({ type: 'input_closed' });
    app.unmount();
  };
  process.stdin.once('end', onInputClosed);
  const app = ui.renderApp(session.client, picker ? 'sessions' : undefined);
  switcher.request = () => app.unmount();
  // After the first frame: the heap setting's module is not on the way to the first screen.
  setImmediate(() => void keepYoungGenerationSmall());
  // A resumed session's waiting requests are offered again now that someone can decide them.
  void session.resumeTurn();
  // While the person types the first prompt, the core uses the moment (the shadow repository opens, a
  // first answer's code runs once) and the first card is warmed off-screen. With a prompt
  // on its way, the turn's first checkpoint opens the repository once its card is drawn.
  if (prompt === undefined && !demo) setImmediate(() => session.warmUp());
  const first = demo ? (prompt ?? `Demo: add a farewell function to the scratch project at ${root}`) : prompt;
  // The off-screen card is for the time the person types; with a prompt given, the real card comes first.
  const stopWarmUp =
    first === undefined ? ui.scheduleWarmUp(session.client, () => process.stdout.columns || 80) : () => {};
  // The first answer's markdown parse compiles the lexer (40-150 ms): done now, while the person types
  // or while the sandbox check a given prompt waits for runs (a bwrap spawn: the main thread is idle).
  const stopMarkdownWarmUp = ui.scheduleMarkdownWarmUp(session.client);
  // A signal ends the app like Ctrl+C twice: pending requests fail closed (input_closed), the turn is
  // cancelled (its commands killed, outcome lines written by session.close), the terminal restored.
  const detachSignals = signals.on(() => {
    // After SIGHUP the terminal may be gone: a failed write must not crash the orderly shutdown.
    process.stdout.on('error', () => {});
    session.client.send({ type: 'input_closed' });
    app.unmount();
  });
  // The sandbox probe runs now that the first frame is on screen. Its verdict completes the start
  // banner, which comes before the prompt's own entry: a prompt from the command line (or the demo's)
  // is sent once it answered (~10 ms).
  let ended = false;
  void session.checkSandbox().then(() => {
    if (first === undefined || ended) return;
    session.client.send({ type: 'submit', text: first });
  });
  await app.waitUntilExit();
  ended = true;
  stopWarmUp();
  stopMarkdownWarmUp();
  detachSignals();
  process.stdin.off('end', onInputClosed);
  detach();
  return signals.received ? SIGNAL_EXIT_CODES[signals.received] : EXIT.ok;
}

/** The OpenAI client, loaded on the first request: the first screen does not wait for its code. */
function openAIModel(config: ResolvedConfig): ModelClient {
  return lazyModelClient(config.model, async () => {
    const { createOpenAIClient } = await import('./llm/openai-client');
    return createOpenAIClient({
      model: config.model,
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      idleTimeoutMs: config.streamIdleTimeoutSec * 1000,
      turnTimeoutMs: config.turnTimeoutSec * 1000,
    });
  });
}

/** The one stderr line of a headless run in an untrusted project that would loosen the gate. */
function heldLine(trust: ProjectTrustState): string {
  return `this project's .warden files are not trusted: ${trust.items.length} loosening rule(s)/setting(s) ignored (${trust.items.map((i) => i.text).join('; ')}); trust them in the app, or pass --trust-project.`;
}

/** The project's real path, as sessions record it (the root as given when it cannot be resolved). */
function realRoot(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function print(text: string): number {
  io.stdout.write(`${text}\n`);
  return 0;
}

/** A prompt on stdin larger than this is refused: it is a paste gone wrong, not a task. */
const STDIN_PROMPT_LIMIT = 1 << 20;

function usage(error: string): number {
  io.stderr.write(`warden: ${error}\nRun 'warden --help' for usage.\n`);
  return EXIT.usage;
}

function fail(error: string): number {
  io.stderr.write(`warden: ${error}\n`);
  return EXIT.failed;
}

/** Exits once stdout and stderr are handed to the OS: a slow reader of --json gets every line. */
async function exitWhenWritten(code: number): Promise<never> {
  // From here a signal ends the process the default way: nothing is left to shut down.
  signals.dispose();
  // A terminal that hung up takes no more output: nothing to wait for.
  if (!terminalGone()) await Promise.all([drained(process.stdout), drained(process.stderr)]);
  // With the terminal gone, a SIGHUP is what ended the run, whatever code the way out chose.
  exitProcess(terminalGone() && code === EXIT.ok ? SIGNAL_EXIT_CODES.SIGHUP : code);
}

main(process.argv.slice(2)).then(
  (code) => exitWhenWritten(code),
  (err: unknown) => {
    io.stderr.write(`warden: unexpected failure: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
