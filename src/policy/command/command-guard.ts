import type { CommandGuard, CommandVerdict } from './command-types';

let loading: Promise<CommandGuard> | undefined;

/**
 * Loads the bash grammar (once per process; later calls share the same promise) and returns the
 * command guard. Works from src (vitest, tsx) and from the esbuild bundle, where web-tree-sitter
 * and tree-sitter-bash stay external and are resolved next to the running file.
 * Contract: rejects when the grammar cannot be loaded (and a later call tries again); the caller
 * must then use `failClosedCommandGuard`, never skip the guard.
 */
export function loadCommandGuard(): Promise<CommandGuard> {
  loading ??= import('./command-judge')
    .then((judge) => judge.createGuard())
    .catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
  return loading;
}

/** Why a command that needs the grammar is not judged while it loads (the lazy loader's guard). */
export const PARSER_LOADING = 'the command parser is still loading';

/** Whether `verdict` is the one a command gets while the grammar it needs is still loading. */
export const waitsForParser = (verdict: CommandVerdict | undefined): boolean =>
  verdict?.kind === 'cannot_judge' && verdict.reason === unavailable(PARSER_LOADING);

const unavailable = (reason: string): string => `The command guard is unavailable: ${reason}`;

/** A guard for when the grammar could not load: every command is `cannot_judge`, so the gate asks. */
export function failClosedCommandGuard(reason: string): CommandGuard {
  return {
    judge: () => ({
      kind: 'cannot_judge',
      reason: unavailable(reason),
      parts: [],
      notes: [],
    }),
  };
}
