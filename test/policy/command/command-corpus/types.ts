// The command corpus: shell commands with the verdict the guard must give, grouped by class.
// `proof` says how bash itself confirms the expectation (run by command-corpus-bash.test.ts in a
// throwaway directory inside bubblewrap, network off):
//   runs     — bash runs hidden code: the file MARK appears (the command hides `touch MARK`).
//   reads    — nothing in the directory changes.
//   loses    — a file that existed loses its content or disappears.
//   writes   — every path in `writes` is created or changed.
// Cases without `proof` need a program that is not installed here (rg, fd, tree, ruby, toybox),
// the network, or would be unsafe to run; their expectation follows the program's manual.
// The proof environment sets X='a[$(touch MARK)]' (a value that runs code when used as
// arithmetic) and P='$(touch MARK)' (one that runs when expanded as a prompt), and holds the
// files f, g, a.txt, b.txt, in.txt (containing X's value), dir/x, script.sh, and a git repo
// whose config points every hook, filter, textconv and gpg program at a script that makes MARK.

/** What the guard must say. */
export type Kind = 'cannot_judge' | 'read_only' | 'ok' | 'destructive' | 'deny';
export type Proof = 'runs' | 'reads' | 'loses' | 'writes';

export type Case = {
  cmd: string;
  kind: Kind;
  /** The deny rule id, for `deny`. */
  rule?: string;
  /** Exactly the paths the parts list in `writes` (any order). */
  writes?: string[];
  /** A pattern the reason (cannot_judge) or a destructive label (destructive) must match. */
  says?: RegExp;
  proof?: Proof;
};

type Extra = Omit<Case, 'cmd' | 'kind'>;
const make =
  (kind: Kind) =>
  (cmd: string, extra: Extra = {}): Case => ({ cmd, kind, ...extra });

/** Bash runs code the parse tree does not show: the guard asks. */
export const cannot = make('cannot_judge');
/** Only reads: runs freely. */
export const reads = make('read_only');
/** Judged, not read-only, not destructive. */
export const ok = make('ok');
/** Judged and destructive (high risk). */
export const destroys = make('destructive');
/** A hard rule forbids it. */
export const denied = (cmd: string, rule: string): Case => ({ cmd, kind: 'deny', rule });
