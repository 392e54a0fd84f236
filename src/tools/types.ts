import type { z } from 'zod';
import type { ApprovalPreview } from '../protocol';
import type { TurnChange } from '../protocol/review';
import type { CommandGuard } from '../policy/command/command-types';
import type { NetworkEntry } from '../policy/network-hosts';
import type { AuditWrite } from '../protocol/audit';
import type { PathFence, PathVerdict } from '../policy/guards/path-guard';
import type { GuardedArgs, SandboxInfo, ToolKind } from '../policy/tool-profile';
import type { FileRead } from './fs/safe-fs';

export type { GuardedArgs, SandboxInfo, ToolKind } from '../policy/tool-profile';

/** A revert's target: the latest `turns`, or one turn by id (only `paths` of it, when given). */
export type RevertTarget = { turns: number } | { turnId: string; paths?: readonly string[] };

/**
 * How a revert treats a file changed by someone else since the turn changed it: kept (the default:
 * nothing of another warden's or the person's is thrown away silently), or overwritten because a
 * person approved a card that showed both versions.
 */
export type RevertOptions = { overwriteChanged?: boolean };

/** What reverting did: files written back, files removed, files it could not restore (and why). */
export type RevertResult = {
  restored: string[];
  removed: string[];
  skipped: { path: string; reason: string }[];
  turns: number;
};

/** What reverting would do, for the card shown before it runs. */
export type RevertPlan = { turns: number; changes: TurnChange[] };

/** A file's content before a write: its bytes and mode, or that it did not exist. */
export type PreImage = { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'absent' };

/** One sub-agent to start: a short name and a self-contained task. */
export type SubAgentSpec = { name: string; task: string };
/** How a sub-agent ended and what it reported. */
export type SubAgentReport = { name: string; status: 'done' | 'failed' | 'cancelled'; report: string };

/**
 * What the agent layer offers the tools that steer agents and plans (spawn_agents, propose_plan,
 * update_plan). The hub puts them on each caller and the gate hands them on, so a tool is built
 * before the hub that serves it (no late binding in the composition root).
 */
export type AgentPorts = {
  /** Runs sub-agents of the calling agent in parallel. Contract: resolves one report per spec; never rejects. */
  spawn(specs: SubAgentSpec[], signal: AbortSignal): Promise<SubAgentReport[]>;
  /** Keeps an approved plan as the session's checklist. */
  adoptPlan(plan: { title: string; steps: string[] }): void;
  /** Ticks a step (1-based); returns an error text when there is no such step or plan. */
  markStep(step: number, done: boolean): string | undefined;
};

/** A path the fence let through: its real absolute path and its project-relative form. */
export type FencedPath = Extract<PathVerdict, { ok: true }>;

/** What every executor receives besides its arguments. */
export type ToolContext = {
  /** Real path of the project root. */
  root: string;
  fence: PathFence;
  /**
   * The fence's verdicts on this call's declared path arguments (`guarded.paths`), keyed by argument
   * field: the ones the executor checked the guards on at execution time, for exactly these arguments.
   * Read them through `fencedPath`; absent when a tool is called outside the gate (unit tests).
   */
  paths?: Readonly<Record<string, FencedPath>>;
  commands: CommandGuard;
  sandbox: SandboxInfo;
  signal: AbortSignal;
  /**
   * Records the pre-image of a file before a write touches it (checkpoints for revert). `pre` is the
   * content the tool already read through a verified descriptor, so the store need not reopen the path.
   */
  recordPreImage?: (absPath: string, pre?: PreImage) => Promise<void>;
  /** Which agent is calling (sub-agent tools need their parent). */
  agent?: { id: string; name: string; taskId: string };
  /** The agent layer's ports, for tools that steer agents and plans; absent outside an agent's turn (/undo). */
  agents?: AgentPorts;
  /** The person's answer, for tools that ask one (ask_user). */
  answer?: string;
  /**
   * Protected paths (absolute, real) the sandbox leaves writable for this one run: set by the gate only
   * when a person approved (or edited) a card that listed them; never by a rule, a grant or a mode.
   */
  liftProtected?: string[];
  /**
   * Credential files (absolute, real) the sandbox shows for this one run instead of masking them: set
   * by the gate only when a person approved (or edited) a card that named them.
   */
  unmaskCredentials?: string[];
  /**
   * The hosts this run may reach through warden's proxy, and the audit of each connection it allows or
   * refuses: set by the gate only when a person approved a card that named them, or the person's own
   * `sandbox.network` lists every one. Absent, a sandboxed command has no network at all.
   */
  network?: { entries: readonly NetworkEntry[]; audit(connection: NetworkConnection): AuditWrite };
  /**
   * A person approved this very call on its card (not a rule, a grant or the mode): a revert may then
   * overwrite a file someone else changed since, because the card showed both versions.
   */
  personApproved?: true;
  /**
   * Set by the gate when the command was judged read-only (src/gate/read-only-run.ts): the sandbox binds
   * the whole project read-only, so no checkpoint was taken for the run.
   */
  readOnlyProject?: true;
  /**
   * Set by the executor when the token binds a write's pre-image (a person saw the file as it was):
   * true when the target as the tool read it is that very file (absent, when the card said so). A tool
   * that writes over the current file (edit_file, write_file) checks what it read, first, so a change
   * after the card fails closed instead of being replaced unseen.
   */
  preImageMatches?: (current: FileRead) => boolean;
  /**
   * Hears a running call's output as it arrives (decoded text, stdout and stderr interleaved, raw: not
   * sanitised, not capped), for a live view; the result still carries the tool's own capped output.
   * Contract: called synchronously from the output stream; must be cheap, and a throw is ignored.
   */
  onOutput?: (chunk: string) => void;
};

/** One connection a run's proxy allowed or refused, as its audit line records it. */
export type NetworkConnection = { target: string; decision: 'allow' | 'deny'; rule: string; reason?: string };

/** What an executor returns. `output` is the text the model reads; `data` is structured extra. */
export type ToolOutput =
  | { ok: true; output: string; data?: unknown }
  /** `stopped`: the call's signal aborted it (the person cancelled); reported as `cancelled`, not as an error. */
  | { ok: false; error: string; data?: unknown; stopped?: true };

/** A tool as the model sees it plus its executor. Executors are reachable only through the gate. */
export type ToolDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  description: string;
  schema: S;
  /** JSON Schema shown to the model; derived from `schema` when absent (MCP tools bring their own). */
  parameters?: Record<string, unknown>;
  kind: ToolKind;
  guarded?: GuardedArgs;
  /** A conversation with the person (a question, a plan): always asks, in every mode; no grant covers it. */
  interactive?: true;
  /** False for tools a sub-agent is not offered (spawning more agents). */
  forSubAgents?: false;
  /** Writes the auto-edit mode may allow inside the project (protected paths and high risk still ask). */
  autoEditable?: true;
  /**
   * The card's preview when the tool has its own (a plan, a question); a write's diff and a command's
   * details come from the guards' facts. Contract: may throw on odd arguments; the gate fails the call closed.
   */
  preview?(args: z.infer<S>): ApprovalPreview | undefined;
  /** One line for the call on a tool card (its path, command, question …); the gate falls back to the first plain argument. */
  summary?(args: z.infer<S>): string;
  /**
   * A write that changes the current text of its first path (edit_file): the card's diff is the file
   * → `after`, and the token binds the file's pre-image. Contract: never throws; an edit that cannot
   * apply is `ok:false` with the reason the model gets, and nobody is asked.
   */
  editText?(args: z.infer<S>, before: string): { ok: true; after: string } | { ok: false; error: string };
  /** Lines for the approval card saying what the call will do, when its arguments alone do not. */
  describeEffects?(args: z.infer<S>): Promise<string[]>;
  /**
   * The call can change files in the project (a write, a command, an opaque MCP tool): the session takes
   * a checkpoint of the project before it runs, so /undo and the turn review can put its changes back.
   */
  changesFiles?: true;
  /**
   * A command tool that honours `ToolContext.readOnlyProject`: when its command is judged read-only it
   * runs with the project mounted read-only, and the gate takes no checkpoint for it.
   */
  readOnlyWhenJudged?: true;
  /**
   * Work that depends on no call, done ahead of the first one (src/session/command-warm-up.ts): a
   * command's sandbox layout and protection scan. Contract: never throws; may do nothing.
   */
  warm?(project: { root: string; fence: PathFence }): void;
  /**
   * The tool holds the target it reads to the card (`ctx.preImageMatches`) before anything else: the
   * executor then reads nothing itself, and the target is read once per run.
   */
  checksPreImage?: true;
  /** True when the effect can be undone by revert_turn (checkpointed writes). */
  reversible?: boolean;
  /**
   * The name Claude Code's hooks know this tool by (`Bash`, `Write` …) and, where its arguments differ,
   * the fields of that tool's input (`file_path` absolute): a hook written for Claude Code then runs
   * unchanged (src/hooks). Contract: `input` is pure and never throws on schema-valid arguments.
   */
  hookAlias?: { name: string; input?(args: z.infer<S>, root: string): Record<string, unknown> };
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
};

/** A tool's Claude Code name and input, as its declaration gives them (`hookAlias`). */
export type HookAlias = NonNullable<AnyTool['hookAlias']>;

/**
 * The fenced path of argument `field` (whose value is `value`, '.' when an optional path is absent): the
 * verdict the gate made at execution time when it is on `ctx.paths`, else the fence's check now.
 * Contract: never throws; a refused path is `ok:false` with the fence's reason.
 */
export function fencedPath(ctx: ToolContext, field: string, value: string): PathVerdict {
  return ctx.paths?.[field] ?? ctx.fence.check(value);
}

/** Helps inference: `defineTool({...})` keeps the schema's type for `execute`. */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

// `any` on purpose: a registry holds tools of many argument types, each checked by its own schema.
export type AnyTool = ToolDefinition<any>;
