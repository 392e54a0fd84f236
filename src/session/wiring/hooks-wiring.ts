import { join, relative, isAbsolute, sep } from 'node:path';
import type { HooksConfig } from '../../config/hooks-schema';
import { afterEvents } from '../../hooks/after-events';
import { type CompiledHook, compileHooks } from '../../hooks/hook-config';
import { HookSet } from '../../hooks/hook-set';
import { type CardAnswer, permissionRequest } from '../../hooks/permission-request';
import { preToolUse, type PreToolCall } from '../../hooks/pre-tool-use';
import { hookCommandsOf, hookFilesIn } from '../../policy/hook-files';
import type { ProjectSnapshot } from '../../policy/project-files';
import type { PolicyResult } from '../../policy/resolve';
import type { ApprovalRequest, CoreEvent, Mode, Notification } from '../../protocol';
import type { AnyTool } from '../../tools/types';
import type { ProjectTrust } from '../../trust/project-trust';
import { sessionFile } from '../saved/store-index';

/** The session's hooks, as the gate, its queue and the event stream take them. */
export type SessionHooks = {
  preToolUse: (call: PreToolCall, policy: PolicyResult) => Promise<PolicyResult> | undefined;
  screen: (request: ApprovalRequest) => ((signal: AbortSignal) => Promise<CardAnswer>) | undefined;
  onEvent: (event: CoreEvent) => void;
  onNotify: (notification: Notification) => void;
  /** Resolves once no hook runs (each is bounded by its timeout). Never rejects. */
  settled: () => Promise<void>;
  /** Stops the hooks still running (the session ends). Never rejects. */
  close: () => Promise<void>;
};

/**
 * The person's hooks and the project's (counted while its files are trusted, as read at start), plugged
 * where the gate judges a call, where its queue asks, and into the session's events. Contract: throws
 * a clear message for a matcher of the person's config the linear-time engine cannot run.
 */
export function wireHooks(d: {
  home: string;
  root: string;
  sessionId: string;
  /** The person's own hooks ($WARDEN_HOME/config.json), after the managed config's. */
  hooks?: HooksConfig | undefined;
  /** The managed config's `allowManagedHooksOnly`: a project's hooks never run (the person's are left out at load). */
  managedHooksOnly?: boolean;
  trust: ProjectTrust;
  tools: readonly AnyTool[];
  mode: () => Mode;
  emit: (event: CoreEvent) => void;
}): SessionHooks {
  const user = compileHooks(d.hooks, 'user', join(d.home, 'config.json'));
  if (!user.ok) throw new Error(user.error);
  const aliases = new Map(d.tools.flatMap((t) => (t.hookAlias ? [[t.name, t.hookAlias] as const] : [])));
  let project: CompiledHook[] | undefined;
  const projectHooks = (): readonly CompiledHook[] => {
    const now = d.trust.hooks();
    if (d.managedHooksOnly || !now.counts || !now.hooks) return [];
    if (!project) {
      const compiled = compileHooks(now.hooks, 'project', now.file);
      if (!compiled.ok)
        d.emit({ type: 'notice', level: 'warn', text: `${compiled.error}; the project's hooks do not run.` });
      project = compiled.ok ? compiled.hooks : [];
    }
    return project;
  };
  const set = new HookSet({
    root: d.root,
    sessionId: d.sessionId,
    transcriptPath: sessionFile(d.home, d.sessionId),
    user: user.hooks,
    project: projectHooks,
    aliasOf: (tool) => aliases.get(tool),
    mode: d.mode,
    report: (r) =>
      d.emit(
        r.kind === 'failed'
          ? {
              type: 'notice',
              level: 'warn',
              code: 'hook_failed',
              text: `The ${r.hook.event} hook ${r.hook.name} failed (${r.detail}): ${r.reason}. It fails closed.`,
            }
          : {
              type: 'notice',
              level: 'info',
              code: 'hook_said',
              text: `${r.hook.event} hook ${r.hook.name}: ${r.text}`,
            },
      ),
  });
  const after = afterEvents(set, {
    tell: (text) => d.emit({ type: 'notice', level: 'info', code: 'hook_said', text }),
  });
  return {
    preToolUse: (call, policy) => preToolUse(set, call, policy),
    screen: (request) => permissionRequest(set, request),
    onEvent: after.onEvent,
    onNotify: after.onNotify,
    settled: () => set.settled(),
    close: () => set.close(),
  };
}

/**
 * The project files no call may write because a hook runs them, and the config naming a project's
 * hooks (the fence seals them; they are also read-only in the sandbox): the files the person's own
 * hooks name inside the project, those of the project's hooks (trusted or not: trust may come later),
 * `.warden/config.json` when it names hooks, and the person's config.json when it lies in the project.
 */
export function sealedHookFiles(
  hooks: HooksConfig | undefined,
  snapshot: ProjectSnapshot | undefined,
  root: string,
  home: string,
): string[] {
  const sealed = new Set(hookFilesIn(hookCommandsOf(hooks), root));
  for (const f of snapshot?.hookFiles ?? []) sealed.add(f.file);
  if (snapshot?.config.kind === 'ok' && hookCommandsOf(hooksIn(snapshot.config.text)).length > 0)
    sealed.add('.warden/config.json');
  const mine = relative(root, join(home, 'config.json'));
  if (
    hooks &&
    Object.keys(hooks).length > 0 &&
    mine !== '' &&
    !isAbsolute(mine) &&
    !mine.startsWith(`..${sep}`)
  )
    sealed.add(mine.split(sep).join('/'));
  return [...sealed].sort();
}

/** The `hooks` of a config file's text, read leniently (undefined when it does not parse). */
function hooksIn(text: string): unknown {
  try {
    return (JSON.parse(text.replace(/^\uFEFF/, '')) as { hooks?: unknown } | null)?.hooks;
  } catch {
    return undefined;
  }
}
