import { EXIT, type ExitSignals, SIGNAL_EXIT_CODES } from '../exit';
import { awaitMcpServers } from '../mcp/headless-start';
import type { Session } from './session';
import { guardIo } from '../text/safe-output';
import { callLine } from '../text/call-line';

export type HeadlessIo = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

/**
 * Runs one prompt without a UI (after the turn a resumed session stopped in, if any). Nobody is at
 * the keyboard: with `onAsk: 'deny'` anything that would ask is denied with `no_approver`; with
 * `'park'` the first card parks the run — the saved session keeps it waiting, its id is printed, and
 * the run ends with exit code 5 until an answer (`warden approve ID`) and `--resume SESSION`. An answer
 * already given applies at once. With `json`, every core event is one JSON line on stdout, then a
 * `result` line.
 * A first SIGTERM, SIGHUP or SIGINT cancels the turn: its commands are killed and their outcome
 * lines written before this resolves. If the audit log cannot be written, one line says so on
 * stderr and the turn is cancelled (nothing could run anyway).
 * Contract: resolves with the exit code (src/exit.ts) — 0 done and every change ran; 1 failed;
 * 3 a change was refused or failed; 4 the audit log could not be written; 5 parked, waiting for an
 * answer; 6 a turn's end checkpoint failed (undo cannot cover all of it); 128 + n after signal n.
 */
export async function runHeadless(
  session: Session,
  prompt: string | undefined,
  options: { json: boolean; onAsk?: 'deny' | 'park' },
  rawIo: HeadlessIo,
  signals?: ExitSignals,
): Promise<number> {
  // Model text, tool reasons and errors are untrusted: every write is made terminal-safe here.
  const io = guardIo(rawIo, options.json ? 'json' : 'text');
  const notRun: string[] = [];
  let auditProblem: string | undefined;
  let noWayBack = false;
  let lastError: string | undefined;
  const parked: ParkedRequest[] = [];
  const park = options.onAsk === 'park';
  // Parking needs the cards to wait (not fail as no_approver) until the run stops with them recorded.
  const detachApprover = park ? session.attachApprover() : undefined;
  const unsubscribe = session.client.subscribe((event) => {
    if (options.json) io.stdout.write(`${JSON.stringify(event)}\n`);
    // A card: unless an answer given earlier settles it first (the inbox looks at once), the run parks.
    if (park && event.type === 'approval_requested') {
      const request = event.request;
      setImmediate(() => {
        if (!session.client.snapshot().pending.some((r) => r.id === request.id)) return;
        if (parked.length === 0)
          session.park(
            `nobody is here to decide; the request waits in the saved session (warden approve ${request.id}, then warden --headless --resume ${session.client.snapshot().sessionId}).`,
          );
        parked.push({
          requestId: request.id,
          tool: request.tool,
          call: callLine(request.args),
          risk: request.risk.level,
        });
      });
    } else if (event.type === 'error') {
      io.stderr.write(`warden: ${oneLine(event.message)}\n`);
      lastError = event.message;
    }
    // A call refused for want of an audit line is covered by the one audit line below.
    else if (
      event.type === 'tool_finished' &&
      event.result.status !== 'executed' &&
      !event.result.reason?.startsWith('audit_unavailable')
    )
      io.stderr.write(
        `warden: ${oneLine(event.tool)} ${event.result.status}${event.result.reason ? `: ${oneLine(event.result.reason)}` : ''}\n`,
      );
    if (event.type === 'tool_finished' && event.result.status !== 'executed' && session.changes(event.tool))
      notRun.push(event.tool);
    // warden's settings put back, or the person's edit kept and read again: said where they look.
    if (
      event.type === 'notice' &&
      (event.code === 'settings_restored' ||
        event.code === 'settings_reloaded' ||
        event.code === 'session_unsaved' ||
        event.code === 'hook_failed' ||
        event.code === 'hook_said')
    )
      if (!options.json) io.stderr.write(`warden: ${oneLine(event.text)}\n`);
    // The way back of a change that ran is incomplete: one line, and the exit code says it too.
    if (event.type === 'notice' && event.code === 'checkpoint_incomplete') {
      if (!options.json) io.stderr.write(`warden: ${oneLine(event.text)}\n`);
      noWayBack = true;
    }
    // The core says so with an error notice; its state carries the details.
    if (event.type === 'notice' && event.level === 'error' && auditProblem === undefined) {
      const down = session.client.snapshot().auditUnavailable;
      if (down) {
        auditProblem = down.error;
        io.stderr.write(
          `warden: the audit log cannot be written (${down.error}); nothing runs without it, so the run stops (audit_unavailable).\n`,
        );
        session.client.send({ type: 'cancel' });
      }
    }
  });
  const detachSignals = signals?.on((signal) => {
    io.stderr.write(
      `warden: ${signal}: cancelling the turn, stopping its commands and recording the outcome.\n`,
    );
    session.client.send({ type: 'cancel' });
  });
  // What the app shows in its transcript at start (no git for checkpoints, a resume that skipped a
  // damaged line) is one line each here: plain headless said nothing of it.
  if (!options.json)
    for (const text of session.startWarnings ?? []) io.stderr.write(`warden: ${oneLine(text)}\n`);
  try {
    // No panel to start them later: the configured MCP servers come up (bounded) before the first request.
    for (const line of await awaitMcpServers(session.mcpStarted, () => session.client.snapshot().mcp))
      io.stderr.write(`warden: ${line}\n`);
    // The turn a resumed session stopped in goes on first; a prompt given too runs after it.
    const resumed = await session.resumeTurn();
    // A prompt given too is the run's task: what the resumed turn could not finish is told, not its code.
    if (prompt !== undefined && parked.length === 0) notRun.length = 0;
    const result =
      parked.length > 0 || prompt === undefined
        ? (resumed ?? { status: 'done' as const, text: 'Nothing was waiting in the session.' })
        : await session.run(prompt);
    // What the hooks that hear the turn's end (Stop, Notification) say comes before the result.
    await session.hooksSettled();
    const signal = signals?.received;
    const code = signal
      ? SIGNAL_EXIT_CODES[signal]
      : auditProblem !== undefined
        ? EXIT.auditUnavailable
        : parked.length > 0
          ? EXIT.parked
          : result.status !== 'done'
            ? EXIT.failed
            : notRun.length > 0
              ? EXIT.changesRefused
              : noWayBack
                ? EXIT.checkpointIncomplete
                : EXIT.ok;
    const { sessionId } = session.client.snapshot();
    if (options.json) {
      const { promptTokens, completionTokens, responses } = session.client.snapshot().usage;
      const status = parked.length > 0 ? 'parked' : result.status;
      const usage = { promptTokens, completionTokens };
      // `turns`: the model's responses in this session (main and sub-agents), Claude Code's `num_turns`.
      io.stdout.write(
        `${JSON.stringify({ type: 'result', status, text: result.text, exitCode: code, sessionId, usage, turns: responses, ...(signal ? { signal } : {}), ...(notRun.length > 0 && parked.length === 0 ? { notRun } : {}), ...(parked.length > 0 ? { parked } : {}) })}\n`,
      );
    } else if (parked.length > 0) {
      for (const p of parked)
        io.stderr.write(
          `warden: waiting for approval: ${p.requestId}  ${oneLine(p.tool)} ${oneLine(p.call)} (risk ${p.risk})\n`,
        );
      io.stderr.write(
        `warden: parked (exit code 5). Answer with: warden approve|reject|skip ID; then go on with: warden --headless --resume ${sessionId}\n`,
      );
    } else if (result.status === 'done') io.stdout.write(`${result.text}\n`);
    // The turn's error was said when it came: once is enough.
    else if (result.text !== lastError) io.stderr.write(`warden: ${result.text}\n`);
    if (!options.json && code === EXIT.changesRefused && parked.length === 0)
      io.stderr.write(
        `warden: ${notRun.length} change${notRun.length === 1 ? '' : 's'} did not run (${[...new Set(notRun)].join(', ')}); exit code 3.\n`,
      );
    return code;
  } finally {
    unsubscribe();
    detachSignals?.();
    detachApprover?.();
  }
}

/** A request a parked run left waiting, as the result line lists it. */
type ParkedRequest = { requestId: string; tool: string; call: string; risk: string };

/**
 * A status line stays one line: a tool name is the model's own text, and a reason or an error may
 * quote it, so a line break in it would start a line that reads as warden's own
 * ("warden: all changes ran"). Each break is shown as ↵ instead.
 */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ↵ ');
}
