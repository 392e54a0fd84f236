import { existsSync } from 'node:fs';
import type { Mode, SessionSummary } from '../../protocol/index';
import { type ReplayItem, type RestoredSession, restoreSession } from './resume';
import type { SessionState } from '../session-state';
import { isSessionId, listSessions, sessionFile, titleOf } from './store-index';
import { type SessionFile, readSessionFile } from './store-read';

/** A saved session read back for resuming. */
export type LoadedSession = { summary: SessionSummary; file: SessionFile; restored: RestoredSession };

/**
 * Reads session `id` of the project at `root` for resuming.
 * Contract: throws an Error whose message says what is wrong (unknown id, another project's
 * session, an unreadable or damaged file); the file is never changed or removed.
 */
export function loadSession(home: string, id: string, root: string): LoadedSession {
  if (!isSessionId(id)) throw new Error(`"${id}" is not a session id.`);
  const path = sessionFile(home, id);
  if (!existsSync(path)) throw new Error(`There is no saved session ${id} (${path}).`);
  const read = readSessionFile(path);
  if (!read.ok) throw new Error(`The saved session cannot be resumed: ${read.error}`);
  const { meta, records } = read.file;
  if (meta.sessionId !== id) throw new Error(`${path} holds session ${meta.sessionId}, not ${id}.`);
  if (meta.root !== root)
    throw new Error(
      `Session ${id} belongs to the project at ${meta.root}, not ${root}; start warden there to resume it.`,
    );
  const restored = restoreSession(records);
  const first = records.find((r) => r.t === 'prompt');
  const summary = listSessions(home, root).find((s) => s.id === id) ?? {
    id,
    root,
    title: first?.t === 'prompt' ? titleOf(first.text) : '(no prompt)',
    model: meta.model,
    createdAt: meta.createdAt,
    updatedAt: meta.createdAt,
    turns: restored.turns,
  };
  return { summary: { ...summary, turns: restored.turns }, file: read.file, restored };
}

/**
 * Rebuilds the transcript from the saved events. Cards still running or waiting when warden stopped
 * end as "stopped" (a resumed call gets a card of its own).
 */
export function replayTranscript(view: SessionState, replay: readonly ReplayItem[]): void {
  for (const item of replay) {
    if (item.kind === 'user') view.addUser(item.text);
    else if (item.kind === 'clear') view.clear();
    else view.apply(item.event);
  }
  const t = view.state.transcript;
  t.forEach((entry, i) => {
    if (entry.kind === 'tool' && (entry.status === 'running' || entry.status === 'waiting'))
      t[i] = { ...entry, status: 'cancelled', result: 'stopped when warden stopped' };
  });
}

/** How much each mode lets run without a person: plan least, auto most. */
const LOOSENESS: Record<Mode, number> = { plan: 0, manual: 1, 'auto-edit': 2, auto: 3 };

/**
 * The mode a resumed session starts in: its saved mode, unless that asks less than the mode this
 * start gives (`startMode`: the person's settings and a project trusted now). A saved `auto-edit`
 * may have come from a project that was trusted then and is not now, or from a choice made for
 * that sitting: a looser mode is the person's to choose again. Contract: pure.
 */
export function resumedMode(saved: Mode | undefined, startMode: Mode): Mode {
  return saved !== undefined && LOOSENESS[saved] <= LOOSENESS[startMode] ? saved : startMode;
}

/**
 * What the person is told on resume: what came back, what did not (grants), and what happens next.
 * `flagMode` is the mode named with `--mode`, which the saved one gave way to; `startMode`
 * the mode this start gives (see `resumedMode`).
 */
export function resumeNotices(
  loaded: LoadedSession,
  flagMode?: Mode,
  startMode?: Mode,
): { level: 'info' | 'warn'; text: string }[] {
  const { summary, restored, file } = loaded;
  const held = !flagMode && startMode && resumedMode(restored.mode, startMode) !== restored.mode;
  const mode = flagMode
    ? `; the mode is ${flagMode} as --mode said${restored.mode && restored.mode !== flagMode ? ` (it was ${restored.mode})` : ''}`
    : held
      ? `; the mode is ${startMode}: the session was in ${restored.mode}, which asks less, and a looser mode is chosen again by you (Shift+Tab or /mode)`
      : '';
  const out: { level: 'info' | 'warn'; text: string }[] = [
    {
      level: 'info',
      text: `Resumed "${summary.title}" (${summary.turns} turn${summary.turns === 1 ? '' : 's'}, started ${summary.createdAt}): the conversation${restored.mode && !flagMode && !held ? `, the mode (${restored.mode})` : ''}${restored.plan ? ', the plan' : ''}${mode}. Grants (approve-all) are not restored: a grant belongs to the session it was given in.`,
    },
  ];
  if (file.tornTail)
    out.push({
      level: 'warn',
      text: 'The last line of the session file was cut short (warden stopped while writing it); it was skipped.',
    });
  const step = restored.interrupted;
  if (step) {
    const waiting = step.pending.size;
    out.push({
      level: 'warn',
      text:
        waiting > 0
          ? `${waiting} request${waiting === 1 ? ' was' : 's were'} waiting for you when warden stopped: offered again, marked "from before the restart", and checked again (arguments, file, guards, policy now, expiry) before anything runs.`
          : 'warden stopped in the middle of a step; its unfinished calls are settled now (a call that had begun is reported as interrupted, never made again).',
    });
  }
  if (restored.lost.length > 0)
    out.push({
      level: 'warn',
      text: `${restored.lost.length} request${restored.lost.length === 1 ? '' : 's'} of sub-agents or /undo that ${restored.lost.length === 1 ? 'was' : 'were'} waiting ${restored.lost.length === 1 ? 'is' : 'are'} not offered again (sub-agents are not resumed): ${restored.lost.map((r) => r.tool).join(', ')}.`,
    });
  return out;
}
