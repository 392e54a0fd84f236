import type { ParsedArgs } from '../tools/parse-args';
import type { AnyTool } from '../tools/types';
import type { GateOptions } from './gate-types';

type Loader = Pick<GateOptions, 'loadCommandGuard'>;

/**
 * Before a call of a tool that runs a command is judged: the guard made ready for its command text,
 * read from the arguments as the check will read them (`parse`: the gate's parse, kept for the check);
 * a plain line needs only the judge's module, any other the shell grammar. Other calls never wait.
 */
export async function commandGuardReady(
  o: Loader,
  tool: AnyTool | undefined,
  parse: (tool: AnyTool) => ParsedArgs<unknown>,
): Promise<void> {
  const field = tool?.guarded?.command;
  if (tool === undefined || field === undefined || !o.loadCommandGuard) return;
  const parsed = parse(tool);
  const command = parsed.ok ? (parsed.args as Record<string, unknown> | undefined)?.[field] : undefined;
  await o.loadCommandGuard(typeof command === 'string' ? command : undefined);
}

/**
 * A plain command's card is shown before the shell grammar is loaded (command-guard-loader.ts); it
 * loads once the card has been up this long, so a person's edit of the command is judged by it.
 * Not at once: the card's own frame comes first, and an answer in the first moments (a hook, a rule
 * of another process) would wait behind its compile (~140 ms of the main thread). The full-screen
 * app takes no key for 400 ms on a new card (drawer-state.ts GRACE_MS): the load runs inside that.
 */
const GRAMMAR_WHILE_READING_MS = 100;

/** Starts that timer for a command tool's card (unref'd; the caller clears it when the card is answered). */
export function loadGrammarWhileReading(o: Loader, tool: AnyTool): NodeJS.Timeout | undefined {
  if (tool.guarded?.command === undefined) return undefined;
  const timer = setTimeout(() => void o.loadCommandGuard?.(), GRAMMAR_WHILE_READING_MS);
  timer.unref();
  return timer;
}
