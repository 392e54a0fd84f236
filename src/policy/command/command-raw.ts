// The shapes the command collector produces; shared by the rules, the flow checks and the judge.

/** Ids `[from, to)` of the commands found inside one `$(…)`, backtick or `<(…)` substitution. */
export type SubRange = { from: number; to: number };
/** One word after quote removal, with the substitutions it contains; `glob` when unquoted `*?[` remain. */
export type Arg = { value: string; subs: SubRange[]; glob?: boolean };
/**
 * A file redirection: `op` is the operator (`>`, `>>`, `&>`, `<`, `>&` …). `openedIn` is set by
 * the judge the first time a command of its statement runs: the directory the shell opens it in
 * (`(cd src; ls) > out` writes `out`, not `src/out`).
 */
export type Redirect = { op: string; fd?: string; target: Arg; openedIn?: string | null };
/** Literal input given to a command in the command line itself. */
export type Stdin = { kind: 'heredoc' | 'herestring'; text: string; dynamic: boolean; subs: SubRange[] };
/** Position of a command in a pipeline: stage 0 writes into stage 1, and so on. */
export type PipePos = { id: number; stage: number };

/** Where a command sits: inherited by everything nested inside a statement. */
export type Scope = {
  pipes: PipePos[];
  background: boolean;
  functions: string[];
  redirects: Redirect[];
  stdin?: Stdin;
  depth: number;
  /** The subshells this runs in, outermost first (`[]` is the shell of the line itself). */
  shell: number[];
};

/** One simple command as the shell would run it (before unwrapping `sudo`, `env`, …). */
export type RawCommand = {
  id: number;
  text: string;
  args: Arg[];
  assignments: string[];
  redirects: Redirect[];
  stdin?: Stdin;
  background: boolean;
  pipes: PipePos[];
  /** Functions whose body contains this command, outermost first. */
  functions: string[];
  depth: number;
  /** The subshells it runs in: a `cd` there does not move commands outside them. */
  shell: number[];
  /** For `find -exec` / `fd -x` commands: the directories whose files `{}` stands for. */
  within?: string[];
};

/** The scope of a whole command line. */
export const rootScope = (): Scope => ({
  pipes: [],
  background: false,
  functions: [],
  redirects: [],
  depth: 0,
  shell: [],
});

/** The scope for a command's own words and redirections: the statement's redirections stay behind. */
export const innerScope = (scope: Scope): Scope => ({
  pipes: scope.pipes,
  background: scope.background,
  functions: scope.functions,
  redirects: [],
  depth: scope.depth,
  shell: scope.shell,
});
