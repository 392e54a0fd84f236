/** One simple command of a (possibly compound) shell command line, after unwrapping. */
export type CommandPart = {
  /** The source text of this part. */
  text: string;
  /** Words after unwrapping `sudo`, `env`, `timeout`, `nice`, `xargs`, `command`, `exec`, `nohup`… */
  argv: string[];
  /** True when the part only reads (ls, cat, git status|log|diff, rg, …). */
  readOnly: boolean;
  /**
   * The part would be read-only but for its `writes` (`git log > out`, `sort -o f`): read-only when
   * every write lands in the sandbox's private /tmp.
   */
  readsButWrites?: true;
  /**
   * `git status|diff|log|show`: read-only only while the repository's config names no program for it
   * to run; the gate reads that config (src/policy/git-repo-config.ts) and takes `readOnly` back if so.
   */
  repoConfig?: true;
  /** Indices in `argv` of unquoted patterns bash expands (`*.txt`); the gate expands them (src/policy/glob-operands.ts). */
  globs?: number[];
  /** Set when the part destroys or publishes something (rm, git push --force, npm publish, …). */
  destructive?: string;
  /**
   * Paths this part writes, as the guard reads them: redirect targets (`>`, `>>`, `&>`, `>|`), `tee`,
   * `cp`/`mv`/`install`/`ln` destinations, `sed -i` files, `-o`/`--output` values, `dd of=`, and the
   * implicit writes of programs it models (`git commit` writes `.git`, `npm install` writes
   * `package.json` and the lock file). Relative paths are relative to the command's cwd argument,
   * already joined onto any `cd` the command made before this part; absolute paths stay absolute.
   * The gate passes each one through the path fence (see `CallFacts.writes`).
   */
  writes?: string[];
  /** Files this part reads through an input redirection (`< file`), as written; the gate fences them like operands. */
  reads?: string[];
};

/**
 * The command guard's verdict.
 * - deny: a hard rule forbids a part; no approval can override it.
 * - cannot_judge: the parser cannot model the command; the gate must ask, never allow silently.
 * - ok: every part was judged; `readOnly` holds when every part only reads.
 */
export type CommandVerdict =
  | { kind: 'deny'; ruleId: string; reason: string; part: string; parts: CommandPart[]; notes: string[] }
  | { kind: 'cannot_judge'; reason: string; parts: CommandPart[]; notes: string[] }
  | { kind: 'ok'; parts: CommandPart[]; readOnly: boolean; destructive: string[]; notes: string[] };

/** Contract: `judge` is synchronous, pure and never throws. */
export type CommandGuard = { judge(command: string): CommandVerdict };
