/** Messages in the OpenAI chat format, reduced to the fields every compatible server accepts. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallRequest[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ToolCallRequest = {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
};

/** A tool as offered to the model (JSON Schema parameters). */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };

export type Usage = { promptTokens: number; completionTokens: number };

/** One complete model turn, assembled from the stream. */
export type ModelTurn = {
  text: string;
  toolCalls: ToolCallRequest[];
  usage?: Usage;
  finishReason: string | null;
};

export type ModelRequest = {
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /** Called with each text fragment as it streams. */
  onText?: (delta: string) => void;
  /** Called as each attempt's request goes out (the model's think time starts). */
  onSent?: () => void;
  /**
   * Called once per tool call as soon as its name has streamed, before its arguments: what the call
   * will need (the shell grammar for a command) can load while the rest arrives.
   */
  onToolNamed?: (name: string) => void;
  /** Told, in a sentence for the person, when a failed attempt is retried after a wait they would notice. */
  onRetry?: (notice: string) => void;
};

/** What the caller of a model hears of an answer's progress besides its text (the loop's deps). */
export type AnswerHooks = Pick<ModelRequest, 'onSent' | 'onToolNamed'>;

/**
 * Anything that produces model turns: the OpenAI-compatible client or the scripted demo model.
 * Contract: rejects with `ModelError` (a clear message) on failure; rejects promptly with
 * `ModelError` code 'aborted' when `signal` aborts (test with `isAbortError`).
 */
export type ModelClient = {
  readonly name: string;
  readonly demo: boolean;
  complete(request: ModelRequest): Promise<ModelTurn>;
  /** Switches the model of later requests (`/model NAME`); absent where there is nothing to switch (the demo). */
  setModel?(name: string): void;
  /**
   * The server's model ids (`GET /models`). Contract: rejects with a clear Error when the server has
   * no such route, does not answer within its bound, or `signal` aborts.
   */
  listModels?(signal: AbortSignal): Promise<string[]>;
  /**
   * Runs the code of a first answer once without a server (loads and compiles it), for an idle
   * moment. Contract: never rejects; never opens a connection.
   */
  warmUp?(): Promise<void>;
};

/**
 * Why a model call failed. `idle_timeout`: nothing that counts arrived for streamIdleTimeoutSec;
 * `turn_timeout`: the answer took longer than turnTimeoutSec; `truncated`: the stream ended with no
 * finish_reason and no `[DONE]`, so its tool calls were not run.
 */
export type ModelErrorCode =
  | 'network'
  | 'http'
  | 'no_tool_support'
  | 'context_length'
  | 'bad_response'
  | 'aborted'
  | 'idle_timeout'
  | 'turn_timeout'
  | 'truncated';

/** A failure a person can act on: the message says what happened and what to check. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly code: ModelErrorCode,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** True when a model request ended because its signal aborted (not a failure to report). */
export function isAbortError(err: unknown): boolean {
  if (err instanceof ModelError) return err.code === 'aborted';
  return err instanceof Error && err.name === 'AbortError';
}
