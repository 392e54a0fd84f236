import { join } from 'node:path';
import type { CoreEvent } from '../../protocol';
import type { HomeGuard } from '../../trust/home-guard';
import type { ProjectTrust } from '../../trust/project-trust';
import type { AnyTool } from '../../tools/types';
import { isInside, keptNotice, mayWriteHome } from '../home-writers';
import type { SessionSettings } from '../session-settings';

/**
 * Watches warden's own settings files across tool calls. After every call of a tool that may change
 * something, and once no call runs any more (a read-only call of warden's own cannot write there; a
 * process the gate cannot fence is found at the latest when the batch it ran beside ends): a change
 * behind the gate is put back (src/trust/home-guard.ts); one nothing running could have made is the
 * person's, kept and read again.
 */
export class HomeWatch {
  /** Calls running now: a burst of read-only calls is followed by one home check, not one per call. */
  private readonly inFlight = new Map<string, string>();
  private readonly readOnly: ReadonlySet<string>;
  private readonly kinds: ReadonlyMap<string, 'write' | 'execute' | 'other'>;

  constructor(
    private readonly d: {
      home: string;
      root: string;
      tools: readonly AnyTool[];
      homeGuard: HomeGuard;
      trust: ProjectTrust;
      settings: SessionSettings;
      emit: (event: CoreEvent) => void;
    },
  ) {
    this.readOnly = readOnlyTools(d.tools);
    this.kinds = new Map(
      d.tools.map((t) => [t.name, t.kind === 'write' || t.kind === 'execute' ? t.kind : ('other' as const)]),
    );
  }

  /** The session's tap on every event. */
  readonly onEvent = (event: CoreEvent): void => {
    if (event.type === 'tool_started') this.inFlight.set(event.callId, event.tool);
    if (event.type === 'tool_finished') {
      this.inFlight.delete(event.callId);
      if (this.inFlight.size === 0 || !this.readOnly.has(event.tool)) this.check(event.tool);
    }
  };

  private check(tool: string): void {
    const { d } = this;
    // Only a process the call started can have been the writer: with none that could write there, a
    // change is the person's editor or another warden — kept and read again.
    const couldWrite = [tool, ...this.inFlight.values()].some((t) =>
      mayWriteHome({
        kind: this.readOnly.has(t) ? 'read' : (this.kinds.get(t) ?? 'other'),
        mcp: t.startsWith('mcp__'),
        sandboxed: d.settings.sandboxed,
        homeInProject: isInside(d.root, d.home),
      }),
    );
    if (!couldWrite) {
      const changed = d.homeGuard.acceptAll();
      if (changed.length === 0) return;
      d.trust.refresh();
      d.emit(keptNotice(d.home, changed, tool));
      return;
    }
    for (const t of d.homeGuard.restoreChanged()) {
      const kept = t.savedAs
        ? ` The changed file is kept as ${t.savedAs}; if you made that change yourself, copy it back while no tool runs.`
        : '';
      const done = t.restored
        ? 'warden put back the version it had loaded'
        : `warden could not put it back (${t.error ?? 'unknown content'}); check it before the next start`;
      d.emit({
        type: 'notice',
        level: 'error',
        code: 'settings_restored',
        text: `${join(d.home, t.file)} changed behind the gate while ${tool} ran; ${done}.${kept}`,
      });
    }
  }
}

/** The tools that change nothing (reads, network fetches): they run in parallel and skip the home check. */
export function readOnlyTools(tools: readonly AnyTool[]): ReadonlySet<string> {
  return new Set(tools.filter((t) => t.kind === 'read' || t.kind === 'network').map((t) => t.name));
}
