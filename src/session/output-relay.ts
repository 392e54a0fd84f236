/**
 * Running calls' output on its way to the UI: a command may print 100 MB, a frame needs five lines.
 * The relay keeps, per call, only the newest text since its last event and sends at most one
 * `tool_output` event per call every interval, so the UI renders a burst once and memory stays
 * bounded however much is printed. Text is sanitised here; an escape sequence (or a CR that may
 * start a CRLF) split between two reads is held back until the rest arrives, so a colour code cut
 * in half is dropped whole instead of showing its halves.
 */
import type { CoreEvent } from '../protocol';
import { sanitizeText } from '../text/sanitize';

type OutputEvent = Extract<CoreEvent, { type: 'tool_output' }>;

export type OutputRelayOptions = {
  /** Events of one call are at least this far apart. */
  intervalMs: number;
  /** Characters of not-yet-sent text kept per call; older text is left out (counted in lines). */
  keepChars: number;
};

const DEFAULTS: OutputRelayOptions = { intervalMs: 50, keepChars: 16 * 1024 };
/** A "sequence" longer than this is not one that is still arriving: it is sent (made visible). */
const HOLD_MAX = 256;

type Pending = { agentId: string; text: string; carry: string; skipped: number };

/**
 * Coalesces `tool_output` events per call. Contract: `deliver` gets complete, sanitised chunks in
 * order; `end(callId)` drops what is pending (the call's result replaces its live tail); never throws.
 */
export class OutputRelay {
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private readonly o: OutputRelayOptions;

  constructor(
    private readonly deliver: (event: OutputEvent) => void,
    options: Partial<OutputRelayOptions> = {},
  ) {
    this.o = { ...DEFAULTS, ...options };
  }

  push(event: OutputEvent): void {
    let p = this.pending.get(event.callId);
    if (!p) {
      p = { agentId: event.agentId, text: '', carry: '', skipped: 0 };
      this.pending.set(event.callId, p);
    }
    const joined = p.carry + event.chunk;
    const cut = heldFrom(joined);
    p.carry = joined.slice(cut);
    p.text += joined.slice(0, cut);
    if (p.text.length > this.o.keepChars) this.shed(p);
    this.timer ??= setTimeout(() => this.flush(), this.o.intervalMs);
  }

  /** The call finished: its pending text is not sent (the result shows the output). */
  end(callId: string): void {
    this.pending.delete(callId);
  }

  /** Sends every call's pending text now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const [callId, p] of this.pending) {
      if (p.text === '' && p.skipped === 0) continue;
      const chunk = safeChunk(p.text);
      const skippedLines = p.skipped;
      p.text = '';
      p.skipped = 0;
      this.deliver({
        type: 'tool_output',
        agentId: p.agentId,
        callId,
        chunk,
        ...(skippedLines > 0 ? { skippedLines } : {}),
      });
    }
  }

  /** Stops the timer; nothing more is sent. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  /** Keeps the newest `keepChars`, from a line start when there is one, counting the lines left out. */
  private shed(p: Pending): void {
    let from = p.text.length - this.o.keepChars;
    const nl = p.text.indexOf('\n', from);
    if (nl >= 0 && nl < p.text.length - 1) from = nl + 1;
    p.skipped += countLines(p.text, from);
    p.text = p.text.slice(from);
  }
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/** Where the unfinished end of `text` starts (an escape sequence still arriving, or a last CR); its length when none. */
export function heldFrom(text: string): number {
  const esc = Math.max(text.lastIndexOf('\u001b'), text.lastIndexOf('\u009b'));
  if (esc >= 0 && text.length - esc <= HOLD_MAX && unfinished(text.slice(esc))) return esc;
  return text.endsWith('\r') ? text.length - 1 : text.length;
}

const CSI_WHOLE = /^(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/;

function unfinished(seq: string): boolean {
  if (/[\r\n]/.test(seq)) return false;
  if (seq === '\u001b') return true;
  if (seq.startsWith('\u001b[') || seq.startsWith('\u009b')) return !CSI_WHOLE.test(seq);
  // OSC, DCS, SOS, PM, APC: strings ended by BEL (an ESC \ ending starts a new "last ESC").
  if (/^\u001b[\]PX^_]/.test(seq)) return !seq.includes('\u0007');
  return false;
}

/** Sanitised for display, CRLF as LF, a lone CR kept (it returns to the start of the line). */
export function safeChunk(text: string): string {
  const lf = text.replace(/\r\n/g, '\n');
  if (!lf.includes('\r')) return sanitizeText(lf);
  return lf
    .split('\r')
    .map((part) => sanitizeText(part))
    .join('\r');
}
