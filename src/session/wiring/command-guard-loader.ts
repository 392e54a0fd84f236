import { failClosedCommandGuard, loadCommandGuard } from '../../policy/command/command-guard';
import type { CommandGuard } from '../../policy/command/command-types';
import { loadShellGrammarWords } from '../../policy/shell-grammar-words';
import type { CoreEvent } from '../../protocol';

/**
 * The command guard, loaded on first use. The shell parser (a wasm grammar, ~15 MB of memory) loads
 * when the first command is to be judged: a session that runs no command never pays for it. The gate
 * waits for `ready` before judging a command call (other calls never wait); until then, and for good
 * if it fails to load, the guard judges nothing, so every command asks — never a silent allow.
 */
export function lazyCommandGuard(
  load: (() => Promise<CommandGuard>) | undefined,
  emit: (event: CoreEvent) => void,
): { commands: CommandGuard; ready: () => Promise<void> } {
  let guard: CommandGuard = failClosedCommandGuard('the command parser is still loading');
  let loading: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (loading ??= (load ?? loadCommandGuard)().then(
      (loaded) => {
        guard = loaded;
        // The audit reads command lines' words with the same grammar (shell-aware redaction).
        if (!load) void loadShellGrammarWords();
      },
      (err: Error) => {
        const warning = `The command parser did not load (${err.message}); every command will ask.`;
        guard = failClosedCommandGuard(warning);
        emit({ type: 'notice', level: 'warn', text: warning });
      },
    ));
  return { commands: { judge: (command) => guard.judge(command) }, ready };
}
