/**
 * The hooks in force in a session: the person's own (always) and a trusted project's (while its files
 * are trusted and as they were read at start). `matching` picks an event's hooks for a name; `run`
 * runs them side by side, as Claude Code does, each given the event's JSON on stdin, and returns what
 * each said. A failure is reported (once per hook) and fails closed where the caller decides.
 */
import type { Mode } from '../protocol';
import type { HookEventName } from '../config/hooks-schema';
import type { CompiledHook } from './hook-config';
import { type HookVerdict, verdictOf } from './hook-output';
import { runHookProcess } from './hook-process';
import { type AliasOf, claudeToolInput, claudeToolName } from './tool-names';

export type HookSetOptions = {
  root: string;
  sessionId: string;
  /** The session's saved conversation (warden's JSONL, not Claude Code's). */
  transcriptPath: string;
  /** The person's own hooks ($WARDEN_HOME/config.json). */
  user: readonly CompiledHook[];
  /** The project's hooks that count now (trusted, unchanged since start); none otherwise. */
  project?: () => readonly CompiledHook[];
  /** Each tool's Claude Code name and input (its declaration's `hookAlias`). */
  aliasOf?: AliasOf;
  /** The mode now (Claude Code's `permission_mode`). */
  mode?: () => Mode;
  env?: NodeJS.ProcessEnv;
  /** Hears a hook that failed (said once per hook) or said something for the person (`systemMessage`). */
  report?: (report: HookReport) => void;
};

/** What the session tells the person about a hook. */
export type HookReport =
  | { kind: 'failed'; hook: CompiledHook; detail: string; reason: string }
  | { kind: 'message'; hook: CompiledHook; text: string };

/** One hook's answer. */
export type HookAnswer = { hook: CompiledHook; verdict: HookVerdict };

/** Claude Code's `permission_mode` for warden's mode. */
const PERMISSION_MODES: Record<Mode, string> = {
  manual: 'default',
  'auto-edit': 'acceptEdits',
  plan: 'plan',
  auto: 'auto',
};

export class HookSet {
  private readonly failedOnce = new Set<string>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly closing = new AbortController();

  constructor(private readonly o: HookSetOptions) {}

  /** The project folder hooks run in. */
  get root(): string {
    return this.o.root;
  }

  /** The fields naming a call, as Claude Code's hooks read them and as warden names it. */
  toolFields(tool: string, args: unknown): { tool_name: string; tool_input: unknown; warden_tool: string } {
    const aliasOf = this.o.aliasOf ?? (() => undefined);
    return {
      tool_name: claudeToolName(aliasOf, tool),
      tool_input: claudeToolInput(aliasOf, tool, args, this.o.root),
      warden_tool: tool,
    };
  }

  /** The names a matcher is tried on for `tool`: Claude Code's, then warden's. */
  namesOf(tool: string): string[] {
    return [claudeToolName(this.o.aliasOf ?? (() => undefined), tool), tool];
  }

  /** The event's hooks whose matcher takes one of `names` (Stop's hooks take every name). Never throws. */
  matching(event: HookEventName, names: readonly string[]): CompiledHook[] {
    const all = [...this.o.user, ...(this.o.project?.() ?? [])];
    return all.filter((h) => h.event === event && (event === 'Stop' || safeMatch(h, names)));
  }

  /** Whether any hook of `event` exists (before building its input). */
  has(event: HookEventName): boolean {
    return (
      this.o.user.some((h) => h.event === event) || (this.o.project?.() ?? []).some((h) => h.event === event)
    );
  }

  /** The fields every event's input starts with, as Claude Code names them. */
  common(event: HookEventName): Record<string, unknown> {
    const mode = this.o.mode?.();
    return {
      session_id: this.o.sessionId,
      transcript_path: this.o.transcriptPath,
      cwd: this.o.root,
      hook_event_name: event,
      ...(mode ? { permission_mode: PERMISSION_MODES[mode], warden_mode: mode } : {}),
    };
  }

  /** Runs `hooks` side by side with `input`. Contract: never rejects; each answer is its hook's verdict. */
  run(
    hooks: readonly CompiledHook[],
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<HookAnswer[]> {
    const stop = signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
    const all = Promise.all(
      hooks.map(async (hook) => {
        const run = await runHookProcess({
          command: hook.command,
          root: this.o.root,
          input,
          timeoutMs: hook.timeoutMs,
          ...(this.o.env ? { env: this.o.env } : {}),
          signal: stop,
        });
        const verdict = verdictOf(run, hook.timeoutMs);
        this.tell(hook, verdict);
        return { hook, verdict };
      }),
    );
    this.running.add(all);
    void all.finally(() => this.running.delete(all));
    return all;
  }

  /** Resolves once no hook runs (what the hooks said has been told). Contract: never rejects. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The session ends: running hooks are stopped (their groups killed), later runs stop at once. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.settled();
  }

  private tell(hook: CompiledHook, verdict: HookVerdict): void {
    try {
      if (verdict.kind === 'failed' && verdict.detail !== 'cancelled') {
        const key = `${hook.event}\0${hook.name}\0${verdict.detail}`;
        if (this.failedOnce.has(key)) return;
        this.failedOnce.add(key);
        this.o.report?.({ kind: 'failed', hook, detail: verdict.detail, reason: verdict.reason });
      } else if (verdict.kind !== 'failed' && verdict.message)
        this.o.report?.({ kind: 'message', hook, text: verdict.message });
    } catch {
      // Telling is advice: its failure changes no verdict.
    }
  }
}

function safeMatch(hook: CompiledHook, names: readonly string[]): boolean {
  try {
    return hook.matches(names);
  } catch {
    // A matcher that throws cannot say the hook does not apply: a hook that may only tighten runs; one
    // that could answer a card does not (the person is asked).
    return hook.event !== 'PermissionRequest';
  }
}
