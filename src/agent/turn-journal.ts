import type { ChatMessage, ToolCallRequest } from '../llm/types';

/**
 * What the main agent's turns tell the session store, so a conversation can be resumed after warden
 * stops (src/session/saved/store.ts). Sub-agents keep no journal: they are not resumed.
 * Contract: every method returns at once and never throws into the turn.
 */
export type TurnJournal = {
  /** The person's prompt starts a turn (the transcript's line; the history's message comes with `sync`). */
  prompt(text: string): void;
  /**
   * Records the messages of `history` not recorded yet (the system prompt never: it is rebuilt), or
   * that the last ones were taken back out. Idempotent: call it after any change.
   */
  sync(history: readonly ChatMessage[]): void;
  /** The model asked for these calls, which run next; until the next `sync` records them, the step is unfinished. */
  asked(content: string | null, calls: readonly ToolCallRequest[]): void;
};
