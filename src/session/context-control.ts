/**
 * A context you can see and manage: the main conversation's share of the model's
 * window for the status bar, a warning at 80 %, `/compact` (the model summarises; the person sees
 * the summary and says yes or no before anything changes), the offer to compact before a request
 * would overflow, and `/model`. Sub-agents have their own short histories and are not measured.
 */
import { randomUUID } from 'node:crypto';
import { formatCount } from '../text/count';
import { type ContextWatch, estimateTokens } from '../agent/loop';
import { compactedHistory, compactMessages } from '../llm/compact-prompt';
import { countMessages, loadTokenCounter, tokenizerLoaded } from '../llm/token-count';
import type { ChatMessage, ModelClient, ToolSpec, Usage } from '../llm/types';
import type { Caller } from '../gate/gate';
import type { CompactProposal, ContextUse, CoreEvent, CoreState } from '../protocol';
import { sanitizeText } from '../text/sanitize';

/** The share of the window that warns once, and the share at which warden offers /compact before a request. */
export const WARN_SHARE = 0.8;
export const OFFER_SHARE = 0.9;
const MAIN = 'main';
const MAX_LISTED = 60;

export type ContextControlDeps = {
  model: ModelClient;
  hub: {
    readonly busy: boolean;
    conversation(): readonly ChatMessage[];
    replaceHistory(messages: ChatMessage[]): void;
  };
  emit: (event: CoreEvent) => void;
  /** The core's state: `context`, `compact` and `model` are written here. */
  state: CoreState;
  window: number;
  /** Offer /compact before a request would overflow (off where nobody can answer: headless). */
  offer: boolean;
  /** How long an offer waits for the person before the turn goes on as it would have. */
  offerTimeoutMs: number;
  /** The main agent's tool specs (they count towards the window). */
  tools: () => ToolSpec[];
};

type Waiting = {
  proposal: CompactProposal;
  history: readonly ChatMessage[];
  length: number;
  settle?: (accept: boolean) => void;
};

const fmt = formatCount;

/** Carries out compact, accept_compact, set_model and list_models, and watches the main agent's requests. */
export class ContextControl implements ContextWatch {
  /** The server's count for the first `messages` messages of the history (the last response's usage). */
  private base: { tokens: number; messages: number } | undefined;
  /** A response came without usage: the tokenizer counts from now on. */
  private counting = false;
  private warned = false;
  private offeredTask: string | undefined;
  private waiting: Waiting | undefined;
  private idle: AbortController | undefined;
  private lastTools: ToolSpec[] = [];

  constructor(private readonly d: ContextControlDeps) {}

  async beforeRequest(history: ChatMessage[], tools: ToolSpec[], caller: Caller): Promise<void> {
    if (caller.agentId !== MAIN) return;
    this.lastTools = tools;
    const use = await this.measure(history, tools);
    if (use) this.publish(use);
    if (!this.d.offer || this.offeredTask === caller.taskId || caller.signal.aborted) return;
    const used = use?.used ?? 0;
    // The loop's hard bound is a pessimistic estimate: an offer comes before that refuses the request too.
    const over = used >= OFFER_SHARE * this.d.window || estimateTokens(history, tools) > this.d.window;
    if (!over || !history.some((m) => m.role === 'assistant')) return;
    this.offeredTask = caller.taskId;
    this.notice(
      'warn',
      `The next request would fill ${Math.round((used / this.d.window) * 100)} % of the model's context (${fmt(used)} of ${fmt(this.d.window)} tokens): warden asks the model for a summary to compact the conversation first; you decide.`,
    );
    const proposal = await this.propose(history, caller.signal, true);
    if (!proposal) return;
    const accept = await new Promise<boolean>((resolve) => {
      const done = (answer: boolean) => {
        clearTimeout(timer);
        caller.signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), this.d.offerTimeoutMs);
      caller.signal.addEventListener('abort', onAbort, { once: true });
      if (this.waiting) this.waiting.settle = done;
    });
    // Settled by the person (answer() did the work), or by a cancel or the timeout: then it ends declined.
    if (!accept && this.waiting?.proposal.id === proposal.id) this.resolve(proposal, false);
  }

  afterResponse(
    _history: readonly ChatMessage[],
    sent: number,
    usage: Usage | undefined,
    caller: Caller,
  ): void {
    if (caller.agentId !== MAIN) return;
    if (usage) {
      // What the server counted for the request, plus its answer (the next message of the history).
      this.base = { tokens: usage.promptTokens + usage.completionTokens, messages: sent + 1 };
      this.publish({ used: this.base.tokens, window: this.d.window, source: 'server' });
      return;
    }
    this.base = undefined;
    this.counting = true;
    // Counted once the loop has added the answer (it does so before this promise settles).
    void loadTokenCounter().then(() =>
      this.publish({
        used: countMessages(this.d.hub.conversation(), this.lastTools),
        window: this.d.window,
        source: 'tokenizer',
      }),
    );
  }

  /** `/compact` while no turn runs. Contract: never rejects; problems come back as notices. */
  async compact(): Promise<void> {
    const history = this.d.hub.conversation();
    if (this.d.hub.busy || this.waiting || this.idle)
      return this.notice(
        'warn',
        this.waiting || this.idle
          ? 'A summary is already being written or waits for your answer.'
          : 'A turn is running: wait for it or cancel it (Esc) before /compact; warden offers it by itself before the window overflows.',
      );
    if (!history.some((m) => m.role === 'assistant'))
      return this.notice('info', 'There is nothing to compact yet.');
    this.idle = new AbortController();
    try {
      await this.propose(history, this.idle.signal, false);
    } finally {
      this.idle = undefined;
    }
  }

  /** The person's answer to a summary. */
  answer(id: string, accept: boolean): void {
    const waiting = this.waiting;
    if (!waiting || waiting.proposal.id !== id)
      return this.notice('warn', 'That summary is no longer waiting.');
    if (accept && this.d.hub.conversation().length !== waiting.length && !waiting.settle) {
      this.resolve(waiting.proposal, false);
      return this.notice('warn', 'The conversation changed since that summary; run /compact again.');
    }
    this.resolve(waiting.proposal, accept);
    waiting.settle?.(accept);
  }

  /** `/model NAME`: the next request uses it. */
  setModel(name: string): void {
    const clean = name.trim();
    if (!clean || clean.length > 200 || /[\s\p{Cc}]/u.test(clean))
      return this.notice('warn', 'A model name is one word without spaces or control characters.');
    if (!this.d.model.setModel)
      return this.notice(
        'warn',
        'This is the scripted demo model (no API key): there is no model to switch to.',
      );
    this.d.model.setModel(clean);
    this.d.state.model = { name: clean, demo: false };
    this.notice('info', `Model: ${clean} (from the next request).`);
  }

  /** `/model`: the server's models, in a notice. Contract: never rejects. */
  async listModels(): Promise<void> {
    const list = this.d.model.listModels;
    if (!list)
      return this.notice(
        'info',
        'This is the scripted demo model (no API key): there is no server to list models from.',
      );
    try {
      const ids = await list.call(this.d.model, new AbortController().signal);
      if (ids.length === 0)
        return this.notice('info', 'The server lists no models. /model NAME still switches.');
      const current = this.d.model.name;
      const shown = ids.slice(0, MAX_LISTED).map((id) => (id === current ? `${id} (current)` : id));
      const more = ids.length > MAX_LISTED ? ` … and ${ids.length - MAX_LISTED} more` : '';
      this.notice('info', `Models on the server: ${shown.join(', ')}${more}. /model NAME switches.`);
    } catch (err) {
      this.notice(
        'warn',
        `The server did not list its models (${(err as Error).message}). /model NAME still switches to a model you name.`,
      );
    }
  }

  /** /clear: nothing measured, nothing waiting. */
  reset(): void {
    this.base = undefined;
    this.warned = false;
    this.idle?.abort();
    const waiting = this.waiting;
    if (waiting) this.resolve(waiting.proposal, false);
    waiting?.settle?.(false);
    delete this.d.state.context;
  }

  /** Tokens of `history`: the server's last count plus what came since, else the tokenizer (loaded when needed). */
  private async measure(history: readonly ChatMessage[], tools: ToolSpec[]): Promise<ContextUse | undefined> {
    const { window } = this.d;
    const b = this.base;
    if (b && history.length >= b.messages)
      return { used: b.tokens + countMessages(history.slice(b.messages)), window, source: 'server' };
    // Before any response nothing is known; a small conversation is not worth loading the tokenizer for.
    if (!this.counting && !tokenizerLoaded() && countMessages(history, tools) < window / 2) return undefined;
    await loadTokenCounter();
    return { used: countMessages(history, tools), window, source: 'tokenizer' };
  }

  /** Asks the model for a summary (no tools) and shows it. Contract: never rejects; undefined when there is none. */
  private async propose(
    history: readonly ChatMessage[],
    signal: AbortSignal,
    offered: boolean,
  ): Promise<CompactProposal | undefined> {
    const tools = this.d.tools();
    let text: string;
    try {
      const turn = await this.d.model.complete({ messages: compactMessages(history), tools: [], signal });
      text = turn.text.trim();
    } catch (err) {
      if (!signal.aborted)
        this.notice('error', `The model could not summarise the conversation: ${(err as Error).message}`);
      return undefined;
    }
    if (!text) {
      this.notice('warn', 'The model answered with an empty summary; the conversation stays as it is.');
      return undefined;
    }
    await loadTokenCounter();
    const before = (await this.measure(history, tools))?.used ?? countMessages(history, tools);
    const after = countMessages(compactedHistory(history, text), tools);
    const proposal: CompactProposal = { id: randomUUID(), summary: text, before, after, offered };
    this.waiting = { proposal, history, length: history.length };
    this.d.state.compact = { ...proposal, summary: sanitizeText(text) };
    this.d.emit({ type: 'compact_proposed', ...proposal });
    return proposal;
  }

  /** Ends a proposal: accepted, the history becomes system prompt + summary. */
  private resolve(proposal: CompactProposal, accept: boolean): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    delete this.d.state.compact;
    if (accept && waiting) {
      this.d.hub.replaceHistory(compactedHistory(waiting.history, proposal.summary));
      this.base = undefined;
      this.warned = false;
      this.publish({ used: proposal.after, window: this.d.window, source: 'tokenizer' });
    }
    const { id, before, after } = proposal;
    this.d.emit({ type: 'compact_resolved', id, outcome: accept ? 'accepted' : 'declined', before, after });
    this.notice(
      'info',
      accept
        ? `conversation compacted (${fmt(before)} → ${fmt(after)} tokens)`
        : 'The summary was declined; the conversation stays as it is.',
    );
  }

  private publish(use: ContextUse): void {
    this.d.state.context = use;
    this.d.emit({ type: 'state_changed' });
    if (use.used < WARN_SHARE * use.window || this.warned) return;
    this.warned = true;
    this.notice(
      'warn',
      `The conversation fills ${Math.round((use.used / use.window) * 100)} % of the model's context (${fmt(use.used)} of ${fmt(use.window)} tokens). /compact summarises it to make room.`,
    );
  }

  private notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.d.emit({ type: 'notice', level, text });
  }
}
