import type { CoreClient, CoreCommand, CoreEvent, CoreState, GrantScope, TranscriptEntry } from '../protocol';
import { sanitizeDeep } from './sanitize-deep';

/** How many sanitised names are remembered to map a command's name back to the core's own. */
const MAX_NAMES = 1024;

/**
 * The UI's one door to the core, with every string it renders made safe: the snapshot and each
 * event pass through `sanitizeDeep`, so no component can print model text, command output, file
 * names, MCP names or audit records raw, however it renders them. Approval requests keep every
 * character visible (`exact`: a person sees what a file will hold); the rest drops colour codes.
 * Commands go to the core as sent, except names the UI only echoes back (an approve-all scope,
 * an MCP server to restart), which are mapped back to the core's originals.
 * Contract: the same raw snapshot gives the same safe snapshot (identity), so a UI that compares
 * by identity renders only on change; `send` never throws, as the client it wraps.
 */
export function safeClient(client: CoreClient): CoreClient {
  const names = new Map<string, string>();
  let last: { raw: CoreState; safe: CoreState } | undefined;

  // Transcript entries are never changed once published (a change replaces the entry), so each is
  // made safe once: a frame then costs the entries that changed, not the whole transcript.
  const safeEntries = new WeakMap<TranscriptEntry, TranscriptEntry>();
  const safeEntry = (entry: TranscriptEntry): TranscriptEntry => {
    let safe = safeEntries.get(entry);
    if (safe === undefined) {
      safe = sanitizeDeep(entry, 'display');
      safeEntries.set(entry, safe);
    }
    return safe;
  };

  const snapshot = (): CoreState => {
    const raw = client.snapshot();
    if (last?.raw === raw) return last.safe;
    const { pending, transcript, ...rest } = raw;
    const safeRest = sanitizeDeep(rest, 'display');
    const safePending = sanitizeDeep(pending, 'exact');
    let safeTranscript: TranscriptEntry[] | undefined;
    for (let i = 0; i < transcript.length; i++) {
      const entry = transcript[i] as TranscriptEntry;
      const safe = safeEntry(entry);
      if (safe !== entry && safeTranscript === undefined) safeTranscript = transcript.slice(0, i);
      safeTranscript?.push(safe);
    }
    for (const server of raw.mcp) rememberName(names, server.name);
    const next =
      safeRest === rest && safePending === pending && safeTranscript === undefined
        ? raw
        : ({
            ...safeRest,
            pending: safePending,
            transcript: safeTranscript ?? transcript,
          } as CoreState);
    last = { raw, safe: next };
    return next;
  };

  /** Puts back the core's own values where the UI echoes a name or a scope it was shown. */
  const restore = (command: CoreCommand): CoreCommand => {
    if (command.type === 'restart_mcp') {
      const server = names.get(command.server);
      return server === undefined ? command : { ...command, server };
    }
    if (command.type === 'decide' && command.decision.kind === 'approve_all') {
      const offered = last?.raw.pending.find((r) => r.id === command.id)?.grantOptions ?? [];
      const scope = restoreScope(command.decision.scope, offered);
      return scope === command.decision.scope
        ? command
        : { ...command, decision: { ...command.decision, scope } };
    }
    return command;
  };

  // Every listener gets the same event: it is made safe once, not once per listener.
  let lastEvent: { raw: CoreEvent; safe: CoreEvent } | undefined;
  const safeOnce = (event: CoreEvent): CoreEvent => {
    if (lastEvent?.raw !== event) lastEvent = { raw: event, safe: safeEvent(event) };
    return lastEvent.safe;
  };

  return {
    subscribe: (listener, only) => client.subscribe((event) => listener(safeOnce(event)), only),
    // An event's type is the core's own word, never model text: passed on as it is.
    changes: (listener) => client.changes(listener),
    send: (command) => client.send(restore(command)),
    snapshot,
  };
}

function safeEvent(event: CoreEvent): CoreEvent {
  if (event.type === 'approval_requested') {
    const request = sanitizeDeep(event.request, 'exact');
    return request === event.request ? event : { ...event, request };
  }
  return sanitizeDeep(event, 'display');
}

function rememberName(names: Map<string, string>, name: string): void {
  const shown = sanitizeDeep(name);
  if (shown === name) return;
  if (names.size >= MAX_NAMES) names.clear();
  names.set(shown, name);
}

/** What the gate compares to tell which offered scope was chosen. */
const scopeKey = (scope: GrantScope): string => JSON.stringify([scope.tool, scope.match, scope.agents]);

/**
 * The grant chooser sends a copy of an offered scope as it was shown (sanitised, `minutes` set):
 * answer with the offered original, so a name that had to be made visible still matches.
 */
function restoreScope(scope: GrantScope, offered: GrantScope[]): GrantScope {
  const key = scopeKey(scope);
  // An offered scope that is exactly the one sent wins: when a clean scope's text reads like another's
  // stand-ins (a literal `⟨U+200B⟩`), the grant is the text the person read, never the hidden one.
  if (offered.some((original) => scopeKey(original) === key)) return scope;
  for (const original of offered) {
    const shown = sanitizeDeep(original, 'exact');
    if (shown === original || scopeKey(shown) !== key) continue;
    const { minutes: _drop, ...rest } = original;
    return scope.minutes === undefined ? rest : { ...rest, minutes: scope.minutes };
  }
  return scope;
}
