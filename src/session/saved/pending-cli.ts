/**
 * `warden pending [--json]`: the requests waiting for a person in every saved session of this user —
 * of a warden still running (its session is held) or of one that stopped and left them waiting (a
 * resume offers them again). It only reads: nothing here answers a request.
 */
import type { ApprovalRequest } from '../../protocol';
import { callLine } from '../../text/call-line';
import { sanitizeText } from '../../text/sanitize';
import { truncateChars } from '../../text/truncate';
import { restoreSession } from './resume';
import { liveHolder } from './session-lock';
import { listSessions, sessionFile } from './store-index';
import { readSessionFile } from './store-read';

export type PendingCliIo = {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  home: string;
  now?: Date;
};

/** One waiting request, as `--json` prints it. */
export type WaitingRequest = {
  id: string;
  sessionId: string;
  project: string;
  /** `running` while a warden holds the session (pid), `parked` once none does. */
  state: 'running' | 'parked';
  pid?: number;
  agent: string;
  tool: string;
  call: string;
  risk: string;
  rule: string;
  createdAt: string;
  expiresAt?: string;
  expired: boolean;
};

const HELP = `warden pending [--json]
  Lists the requests waiting for a person in every saved session of this user: id, age, expiry,
  agent, tool, the call in one line, risk and rule; "running" when a warden holds the session,
  "parked" when it stopped and a resume will offer them again.
  --json   one JSON object per line
`;

/** Runs `warden pending`. Returns the exit code (2 for a bad flag). Contract: never throws. */
export function runPendingCli(argv: readonly string[], io: PendingCliIo): number {
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') {
      io.stdout.write(HELP);
      return 0;
    } else {
      io.stderr.write(`warden pending: unknown option ${sanitizeText(arg)}\nRun 'warden pending --help'.\n`);
      return 2;
    }
  }
  const now = io.now ?? new Date();
  const waiting = waitingRequests(io.home, now);
  if (json) {
    for (const w of waiting) io.stdout.write(`${JSON.stringify(w)}\n`);
    return 0;
  }
  if (waiting.length === 0) {
    io.stdout.write('Nothing is waiting for a person.\n');
    return 0;
  }
  for (const w of waiting) {
    const age = ago(now.getTime() - Date.parse(w.createdAt));
    const expiry = w.expiresAt
      ? w.expired
        ? 'expired'
        : `expires in ${ago(Date.parse(w.expiresAt) - now.getTime())}`
      : '';
    const who = w.state === 'running' ? `running (pid ${w.pid})` : 'parked';
    io.stdout.write(
      `${w.id}  ${age} ago  ${expiry}  ${who}\n  ${w.agent} · ${w.tool} ${w.call}\n  risk ${w.risk} · rule ${w.rule} · ${w.project}\n`,
    );
  }
  return 0;
}

/** A request waiting in a saved session, as the session file holds it, with whose session it is. */
export type WaitingEntry = { request: ApprovalRequest; sessionId: string; project: string; pid?: number };

/** Every request waiting in a saved session, oldest first. Contract: never throws; unreadable sessions are skipped. */
export function waitingEntries(home: string): WaitingEntry[] {
  const out: WaitingEntry[] = [];
  for (const summary of listSessions(home)) {
    const read = readSessionFile(sessionFile(home, summary.id));
    if (!read.ok) continue;
    const pending = restoreSession(read.file.records).interrupted?.pending;
    if (!pending || pending.size === 0) continue;
    const holder = liveHolder(home, summary.id);
    for (const request of pending.values())
      out.push({
        request,
        sessionId: summary.id,
        project: summary.root,
        ...(holder ? { pid: holder.pid } : {}),
      });
  }
  return out.sort((a, b) => a.request.createdAt.localeCompare(b.request.createdAt));
}

/** Every request waiting in a saved session, as `warden pending` lists it. Contract: never throws. */
export function waitingRequests(home: string, now: Date): WaitingRequest[] {
  return waitingEntries(home).map((e) => waitingOf(e.request, e.sessionId, e.project, e.pid, now));
}

function waitingOf(
  r: ApprovalRequest,
  sessionId: string,
  project: string,
  pid: number | undefined,
  now: Date,
): WaitingRequest {
  // What the session file holds was redacted when written; it is model text, so it is made safe to print.
  const shown = (text: string) => truncateChars(sanitizeText(text).replace(/\s+/g, ' '), 160);
  return {
    id: r.id,
    sessionId,
    project: shown(project),
    state: pid === undefined ? 'parked' : 'running',
    ...(pid !== undefined ? { pid } : {}),
    agent: shown(r.agentName),
    tool: shown(r.tool),
    call: shown(callLine(r.args)),
    risk: r.risk.level,
    rule: shown(r.rule.id),
    createdAt: r.createdAt,
    ...(r.expiresAt ? { expiresAt: r.expiresAt } : {}),
    expired: r.expiresAt !== undefined && Date.parse(r.expiresAt) <= now.getTime(),
  };
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}
