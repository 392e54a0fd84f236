import { callLine } from '../text/call-line';
import { argsValue, type ParsedArgs, parseToolArgs, validateArgs } from '../tools/parse-args';
import type { AnyTool } from '../tools/types';
import { summaryOf } from './gate-steps';

/** Calls whose arguments a summary parsed ahead of their intercept (a batch runs up to 64 side by side). */
const KEPT = 64;

/**
 * The arguments of a model's call parsed once: the tool card's summary, just before the call reaches
 * the gate, parses the raw JSON; the gate's check of that call takes the same parse (once) instead of
 * parsing again. Keyed by the raw text, so what is taken is exactly what was parsed.
 */
export class ParsedAhead {
  private readonly kept = new Map<string, { tool: AnyTool; parsed: ParsedArgs<unknown> }>();

  /**
   * A call's one line for its tool card: the tool's own summary of its valid arguments, else the first
   * plain argument. Raw JSON is parsed here and the parse kept for the call's check. Contract: never throws.
   */
  summary(tool: AnyTool | undefined, raw: unknown): string {
    const value = argsValue({ name: tool?.name ?? '' }, raw);
    const shown = value.ok ? value.args : raw;
    if (!tool?.summary) return callLine(shown);
    const parsed = this.parse(tool, raw);
    return parsed.ok ? summaryOf(tool, parsed.args) : callLine(shown);
  }

  private parse(tool: AnyTool, raw: unknown): ParsedArgs<unknown> {
    const value = argsValue(tool, raw);
    const parsed = value.ok ? validateArgs(tool, value.args) : value;
    if (typeof raw === 'string') {
      if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value ?? '');
      this.kept.set(raw, { tool, parsed });
    }
    return parsed;
  }

  /** The parse of `raw`, kept for the call's check (parsed now if no summary did). Contract: never throws. */
  peek(tool: AnyTool, raw: unknown): ParsedArgs<unknown> {
    const ahead = typeof raw === 'string' ? this.kept.get(raw) : undefined;
    return ahead?.tool === tool ? ahead.parsed : this.parse(tool, raw);
  }

  /** The parse kept for `raw`, once, else a parse now. Contract: never throws. */
  take(tool: AnyTool, raw: unknown): ParsedArgs<unknown> {
    const ahead = typeof raw === 'string' ? this.kept.get(raw) : undefined;
    if (ahead) this.kept.delete(raw as string);
    return ahead?.tool === tool ? ahead.parsed : parseToolArgs(tool, raw);
  }
}
