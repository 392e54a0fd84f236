// What the policy knows of a tool, declared here so the policy reads it without importing the tools
// (tools depend on the policy, never the other way); src/tools/types.ts re-exports these.

/** How a tool touches the world; the policy allows `read` tools by default and asks for the rest. */
export type ToolKind = 'read' | 'write' | 'execute' | 'network' | 'interact';

/** Sandbox availability, decided once per session. */
export type SandboxInfo = { kind: 'bwrap'; path: string } | { kind: 'none'; reason: string };

/**
 * Which arguments the hard guards must check before the policy sees the call: paths go through the
 * path fence, the command through the command guard, the URL through the SSRF guard.
 */
export type GuardedArgs = {
  /** Path arguments; an absent optional path means the project root. */
  paths?: string[];
  /** The argument holding a shell command, judged by the command guard. */
  command?: string;
  /** The path argument (one of `paths`) a command runs in; absent, the project root. */
  cwd?: string;
  /** The argument giving a command's timeout in milliseconds, shown on the card. */
  timeout?: string;
  /** The argument holding the whole new content of the first path: the card shows a diff, the token binds the file's pre-image. */
  content?: string;
  url?: string;
  /** The argument listing the hosts a command asks to reach through warden's proxy (network-hosts.ts). */
  network?: string;
  /** A string argument whose UTF-8 size is capped (write_file content). */
  maxBytes?: { field: string; bytes: number };
};

/**
 * The part of a tool definition the guards and the policy read: every `ToolDefinition` is one.
 * `interactive`: a conversation with the person (a question, a plan): it always asks, in every mode,
 * and no grant covers it. `autoEditable`: a write the auto-edit mode may allow inside the project.
 */
export type ToolProfile = {
  name: string;
  kind: ToolKind;
  guarded?: GuardedArgs;
  interactive?: boolean;
  autoEditable?: boolean;
};
