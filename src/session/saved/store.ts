import { isWholeResult } from '../../agent/history-bound';
import type { TurnJournal } from '../../agent/turn-journal';
import { isoNow } from '../../audit/iso-now';
import type { ChatMessage } from '../../llm/types';
import type { CoreEvent, Mode, SessionSummary, ToolResultEnvelope } from '../../protocol/index';
import { type SessionLog, openSessionLog } from './store-file';
import { sessionFile, titleOf, writeIndexEntry } from './store-index';
import { type SavedMessage, type SessionMeta, type SessionRecord, keepsEvent } from './store-records';

const EARLY_LIMIT = 100;
const INDEX_EVERY_MS = 500;

/** What a session writes about itself as it goes. */
export type SessionRecorder = {
  /** Handed to the main agent: its history as it grows. */
  journal: TurnJournal;
  /** Every core event; the ones a resume needs are kept. Contract: never throws. */
  onEvent(event: CoreEvent): void;
  /** `/clear` forgot the conversation. */
  cleared(): void;
  /**
   * Records nothing more: warden is stopping, and what shutdown does next (pending requests failed
   * as `input_closed`, the turn cancelled) must not be what a resume finds. Writes what is queued.
   */
  freeze(): void;
  /** Writes what is queued and releases the file. Contract: never rejects. */
  close(): Promise<void>;
};

export type RecorderOptions = {
  home: string;
  sessionId: string;
  root: string;
  model: string;
  mode: () => Mode;
  /** Told once when the file cannot be written; the session goes on, unsaved from then. */
  onError: (error: Error) => void;
  /** A resumed session appends to its own file and keeps its index entry's title and counts. */
  resumed?: SessionSummary;
  /** How many history messages the resumed file already holds. */
  recorded?: number;
};

/**
 * Records a session under `$WARDEN_HOME/sessions/`: the conversation and its events in `<id>.jsonl`
 * and a summary in `index/<id>.json`. A new session writes nothing until its first prompt (so an
 * opened-and-quit app leaves no empty session); what happened before is kept in memory until then.
 */
export function createSessionRecorder(o: RecorderOptions): SessionRecorder {
  const now = isoNow;
  const summary: SessionSummary = o.resumed
    ? { ...o.resumed }
    : {
        id: o.sessionId,
        root: o.root,
        title: '',
        model: o.model,
        createdAt: now(),
        updatedAt: now(),
        turns: 0,
      };
  let log: SessionLog | undefined;
  let failed = false;
  let early: SessionRecord[] = [];
  let lastMode: Mode | undefined;

  const fail = (err: Error): void => {
    if (failed) return;
    failed = true;
    early = [];
    o.onError(err);
  };
  const start = (): void => {
    try {
      log = openSessionLog({ path: sessionFile(o.home, o.sessionId), sessionId: o.sessionId, onError: fail });
    } catch (err) {
      return fail(err as Error);
    }
    if (!o.resumed) {
      const meta: SessionMeta = {
        t: 'meta',
        v: 1,
        sessionId: o.sessionId,
        root: o.root,
        model: o.model,
        createdAt: summary.createdAt,
      };
      log.append(meta);
    }
    for (const record of early) log.append(record);
    early = [];
  };
  // The index entry is a small file replaced whole, which costs milliseconds on some disks: the first
  // is written at once (the session must be findable after a crash), later ones at most every
  // INDEX_EVERY_MS off the turn's path, and at close. A stale count after a kill -9 is recounted on resume.
  let indexed = false;
  let indexTimer: NodeJS.Timeout | undefined;
  const writeIndex = (): void => {
    clearTimeout(indexTimer);
    indexTimer = undefined;
    if (failed || !log) return;
    try {
      writeIndexEntry(o.home, summary);
      indexed = true;
    } catch (err) {
      fail(err as Error);
    }
  };
  const index = (): void => {
    if (failed || !log) return;
    summary.updatedAt = now();
    if (!indexed) return writeIndex();
    if (!indexTimer) {
      indexTimer = setTimeout(writeIndex, INDEX_EVERY_MS);
      indexTimer.unref?.();
    }
  };
  let frozen = false;
  const append = (record: SessionRecord, boundary?: boolean): void => {
    if (failed || frozen) return;
    const mode = o.mode();
    if (mode !== lastMode) {
      lastMode = mode;
      put({ t: 'mode', ts: record.t === 'meta' ? now() : record.ts, mode });
    }
    put(record, boundary);
  };
  const put = (record: SessionRecord, boundary?: boolean): void => {
    if (log) log.append(record, boundary);
    // Before the first prompt only start-up notices come; a bounded few are kept for the transcript.
    else if (early.length < EARLY_LIMIT) early.push(record);
  };
  if (o.resumed) start();

  // Messages of the main history recorded so far (the system prompt at [0] not counted).
  let recorded = o.recorded ?? 0;
  // Calls running side by side in a batch (read-only): their results go out with the next write or
  // tick — a burst of thousands costs a few writes, not one each. A crash in between loses at most
  // a tick of them; a resume reports those calls `interrupted` (check, then read again).
  const batched = new Set<string>();
  // Results written since the last sync, by call id (the last of each): a tool message that is their
  // JSON is saved as a reference to its event (resume.ts puts it back), so a result is written once.
  const finished = new Map<string, ToolResultEnvelope>();
  const saved = (m: ChatMessage): SavedMessage => {
    if (m.role !== 'tool') return m;
    const result = finished.get(m.tool_call_id);
    return result && isWholeResult(m.content, result)
      ? { role: 'tool', tool_call_id: m.tool_call_id, fromEvent: true }
      : m;
  };
  return {
    journal: {
      prompt(text) {
        // The first prompt opens the file: a session exists once the person asked something.
        if (!log && !failed) start();
        append({ t: 'prompt', ts: now(), text });
        summary.turns += 1;
        if (!summary.title) summary.title = titleOf(text);
        index();
      },
      sync(history) {
        const offset = history[0]?.role === 'system' ? 1 : 0;
        const length = history.length - offset;
        if (length < recorded) append({ t: 'dropped', ts: now(), count: recorded - length });
        else if (length > recorded)
          append({ t: 'history', ts: now(), messages: history.slice(offset + recorded).map(saved) });
        recorded = length;
        finished.clear();
      },
      asked(content, calls) {
        append({ t: 'asked', ts: now(), content, calls: [...calls] });
      },
    },
    onEvent(event) {
      try {
        if (!keepsEvent(event)) return;
        if (event.type === 'tool_started' && event.batch) batched.add(event.callId);
        const inBatch = event.type === 'tool_finished' && batched.delete(event.callId);
        append({ t: 'event', ts: now(), event }, inBatch ? false : undefined);
        if (event.type === 'tool_finished' && log) finished.set(event.callId, event.result);
        if (event.type === 'turn_done') index();
      } catch (err) {
        fail(err as Error);
      }
    },
    cleared() {
      recorded = 0;
      finished.clear();
      append({ t: 'clear', ts: now() });
    },
    freeze() {
      frozen = true;
      log?.flush();
      if (indexTimer) writeIndex();
    },
    async close() {
      frozen = true;
      if (indexTimer) writeIndex();
      await log?.close();
    },
  };
}
