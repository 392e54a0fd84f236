import { failClosedCommandGuard, loadCommandGuard, PARSER_LOADING } from '../../policy/command/command-guard';
import type { CommandGuard, CommandVerdict } from '../../policy/command/command-types';
import { loadShellGrammarWords } from '../../policy/shell-grammar-words';
import type { CoreEvent } from '../../protocol';
import type { AnswerHooks } from '../../llm/types';
import type { AnyTool } from '../../tools/types';
import type { AnswerWatch } from '../answer-watch';

/** The command judge without the grammar: undefined for a line only the grammar reads. */
type PlainJudge = (command: string) => CommandVerdict | undefined;

/** What the session holds of the command guard; the gate waits for `ready(command)` before judging. */
export type LazyCommandGuard = {
  commands: CommandGuard;
  /** Resolves once `command` (or, without one, any command) can be judged. Never rejects. */
  ready: (command?: string) => Promise<void>;
  /** Loads the judge's module without the grammar (as a command tool's name streams). Never rejects. */
  prepare: () => Promise<void>;
};

/**
 * The command guard, loaded on first use. The judge's module loads with the sandbox check (the
 * session's housekeeping), with the command warm-up, or as the first command tool is named; a plain
 * line (only words: `ls -la`, `touch x`, `npm test`) is judged by it at once, read as the grammar reads it. The shell parser (a wasm grammar, ~140 ms and ~20 MiB)
 * loads when the first command that is more than words is to be judged, or while a command's card is
 * read (the gate asks for it then: src/gate/command-guard-wait.ts): a session that runs only plain
 * commands unasked, or none, never pays for it. Until it is loaded, and for good if it fails to
 * load, any other line is judged by nothing, so it asks — never a silent allow — and such a line
 * judged before the gate made it ready (a person's edit) starts the load. A plain line is judged
 * twice on its way (here in `ready`, then by the check): ~20 µs, cheaper than a cache of verdicts
 * the check's callers could share.
 * An injected `load` (tests) is the whole judge: every command waits for it.
 */
export function lazyCommandGuard(
  load: (() => Promise<CommandGuard>) | undefined,
  emit: (event: CoreEvent) => void,
): LazyCommandGuard {
  const notLoaded = failClosedCommandGuard(PARSER_LOADING);
  let full: CommandGuard | undefined;
  let plain: PlainJudge | undefined;
  let loading: Promise<void> | undefined;
  let preparing: Promise<void> | undefined;
  const loadFull = (): Promise<void> =>
    (loading ??= (load ?? loadCommandGuard)().then(
      (loaded) => {
        full = loaded;
        // The audit reads command lines' words with the same grammar (shell-aware redaction).
        if (!load) void loadShellGrammarWords();
      },
      (err: Error) => {
        const warning = `The command parser did not load (${err.message}); every command will ask.`;
        full = failClosedCommandGuard(warning);
        emit({ type: 'notice', level: 'warn', text: warning });
      },
    ));
  const prepare = (): Promise<void> =>
    load
      ? Promise.resolve()
      : (preparing ??= import('../../policy/command/command-judge').then(
          (judge) => {
            plain = judge.judgeWithoutGrammar;
          },
          // The module is the grammar's too: loadFull meets the same failure and reports it.
          () => undefined,
        ));
  const ready = async (command?: string): Promise<void> => {
    if (full || load || command === undefined) return loadFull();
    await prepare();
    if (plain?.(command) === undefined) return loadFull();
  };
  const judge = (command: string): CommandVerdict => {
    const verdict = full?.judge(command) ?? plain?.(command);
    if (verdict) return verdict;
    // Judged before the gate made it ready (a person's edit on a card): it asks now, and what it
    // needs loads (the judge's module, then the grammar if the line is more than words).
    void ready(command);
    return notLoaded.judge(command);
  };
  return { commands: { judge }, ready, prepare };
}

/**
 * What the session hears of a model's answers: a request went out (its think time starts; `sent` is
 * told after the watch), and as a tool's name streams in the answer is being handled — for a tool that
 * runs commands the judge's module loads, the grammar only for a line that needs it.
 */
export function answerHooks(
  tools: readonly AnyTool[],
  guard: LazyCommandGuard,
  answering: AnswerWatch,
  sent: () => void = () => {},
): AnswerHooks {
  return {
    onSent: () => {
      answering.requested();
      sent();
    },
    onToolNamed: (name) => {
      answering.answering();
      if (tools.find((t) => t.name === name)?.guarded?.command) void guard.prepare();
    },
  };
}
