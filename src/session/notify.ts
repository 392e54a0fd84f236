/**
 * Telling a person who is not looking at warden: when a card starts waiting (a tool call, a plan, a
 * question, an escalation), shortly before a waiting card expires, and when the main agent's turn
 * ends. Each is a `notify` event for the terminal (the UI writes the sequence `terminal` names) and,
 * when the person's config names one, a run of their program with the notification as JSON on stdin.
 * The program's failure never blocks or loosens anything: it is reported once as a notice, and
 * warden goes on. Nothing here decides anything; a notification carries no way to answer.
 */
import { spawn } from 'node:child_process';
import type { NotifyMethod } from '../config/schema';
import type { ApprovalRequest, CoreEvent } from '../protocol';
import type { NotifyKind, NotifyTerminal, Notification } from '../protocol/events';
import { callLine } from '../text/call-line';
import { redactString } from '../audit/redact';
import { scrubEnv } from '../tools/exec/env-scrub';
import { sanitizeText } from '../text/sanitize';
import { truncateChars } from '../text/truncate';

export type NotifierOptions = {
  method: NotifyMethod;
  /** The person's program and its arguments (from their own config only). */
  command?: readonly string[];
  project: string;
  emit: (event: CoreEvent) => void;
  env?: NodeJS.ProcessEnv;
  /** How long the program may run before it is stopped. */
  commandTimeoutMs?: number;
  /** Hears each notification as it goes out (the Notification hooks). Its failure changes nothing. */
  onNotify?: (notification: Notification) => void;
};

/** Before a card expires, the notice comes this long ahead (or a fifth of its time, if shorter). */
const EXPIRY_LEAD_MS = 60_000;

/** Which terminal notification `method` means in this terminal. */
export function terminalOf(method: NotifyMethod, env: NodeJS.ProcessEnv): NotifyTerminal | 'off' {
  if (method !== 'auto') return method;
  // tmux and screen pass neither OSC through without extra wrapping; their bell monitor shows the bell.
  if (env.TMUX || env.STY) return 'bell';
  const program = env.TERM_PROGRAM ?? '';
  if (/^(iTerm\.app|WezTerm|ghostty|vscode)$/.test(program) || env.WT_SESSION || env.KITTY_WINDOW_ID)
    return 'osc9';
  if (env.VTE_VERSION || /^(foot|rxvt|xterm-kitty)/.test(env.TERM ?? '') || env.KONSOLE_VERSION)
    return 'osc777';
  return 'bell';
}

/** Listens to the session's events and notifies; `close` stops the expiry timers. */
export function createNotifier(o: NotifierOptions): { onEvent(event: CoreEvent): void; close(): void } {
  const terminal = terminalOf(o.method, o.env ?? process.env);
  const waiting = new Map<string, ReturnType<typeof setTimeout> | undefined>();
  let commandFailed = false;

  const notify = (kind: NotifyKind, text: string, request?: ApprovalRequest) => {
    const notification: Notification = {
      kind,
      text: shown(text),
      project: o.project,
      ...(request
        ? {
            requestId: request.id,
            tool: request.tool,
            call: shown(callLine(request.args)),
            risk: request.risk.level,
            ...(request.expiresAt ? { expiresAt: request.expiresAt } : {}),
          }
        : {}),
    };
    if (terminal !== 'off') o.emit({ type: 'notify', notification, terminal });
    if (o.command) runCommand(o.command, notification);
    try {
      o.onNotify?.(notification);
    } catch {
      // A listener's failure never blocks a notification.
    }
  };

  const runCommand = (argv: readonly string[], notification: Notification) => {
    const [file, ...args] = argv as [string, ...string[]];
    const fail = (why: string) => {
      if (commandFailed) return;
      commandFailed = true;
      o.emit({
        type: 'notice',
        level: 'warn',
        text: `notify.command failed (${why}); warden goes on without it.`,
      });
    };
    try {
      // The person's program, but not warden's secrets: a notifier needs no model key.
      const env = scrubEnv(o.env ?? process.env).env;
      const child = spawn(file, args, { stdio: ['pipe', 'ignore', 'ignore'], env });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(`it ran longer than ${(o.commandTimeoutMs ?? 10_000) / 1000} s`);
      }, o.commandTimeoutMs ?? 10_000);
      timer.unref();
      child.on('error', (err) => {
        clearTimeout(timer);
        fail(err.message);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (code !== 0 && signal !== 'SIGKILL') fail(signal ? `signal ${signal}` : `exit code ${code}`);
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(`${JSON.stringify(notification)}\n`);
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  };

  const expiryTimer = (request: ApprovalRequest) => {
    if (!request.expiresAt) return undefined;
    const left = Date.parse(request.expiresAt) - Date.now();
    const total = Date.parse(request.expiresAt) - Date.parse(request.createdAt);
    const lead = Math.min(EXPIRY_LEAD_MS, Math.max(1000, total / 5));
    if (!Number.isFinite(left) || left <= lead) return undefined;
    const timer = setTimeout(() => {
      if (waiting.has(request.id)) notify('expiring', `A card expires soon: ${request.tool}`, request);
    }, left - lead);
    timer.unref();
    return timer;
  };

  return {
    onEvent(event) {
      if (event.type === 'approval_requested') {
        const request = event.request;
        if (waiting.has(request.id)) return;
        const first = waiting.size === 0;
        waiting.set(request.id, expiryTimer(request));
        // One notice when cards start waiting, not one per card of a burst.
        if (first) notify(kindOf(request), titleOf(request), request);
      } else if (event.type === 'approval_resolved') {
        clearTimeout(waiting.get(event.requestId));
        waiting.delete(event.requestId);
      } else if (event.type === 'turn_done' && event.agentId === 'main') {
        notify('turn_done', `The turn ended: ${event.text || 'done'}`);
      }
    },
    close() {
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
    },
  };
}

/**
 * What a notification may show: it leaves warden (a terminal title bar, a phone), so secrets are
 * redacted, control characters made visible, and it is one line of at most 200 characters.
 */
function shown(text: string): string {
  return truncateChars(sanitizeText(redactString(text), 'exact').replace(/\s+/g, ' ').trim(), 200);
}

function kindOf(request: ApprovalRequest): NotifyKind {
  const kind = request.preview.kind;
  return kind === 'question' || kind === 'escalation' || kind === 'plan' ? kind : 'approval';
}

function titleOf(request: ApprovalRequest): string {
  const kind = request.preview.kind;
  if (kind === 'question') return `${request.agentName} asks a question`;
  if (kind === 'escalation') return `${request.agentName} is stuck and asks what to do`;
  if (kind === 'plan') return `${request.agentName} proposes a plan`;
  return `warden asks: ${request.tool} ${callLine(request.args)}`;
}
