import type { CoreEvent, CoreState } from '../protocol';
import { OutputRelay } from './output-relay';

type Listener = (event: CoreEvent) => void;

/**
 * A session's event plumbing: `emit` (a running call's output coalesced by the relay), the session's
 * own bookkeeping (`tap`, in the order added, before anyone else hears the event), the listeners
 * (`listen`), and the snapshot cache a UI compares by identity.
 * Contract: never throws into the emitter; a listener's failure is its own.
 */
export class SessionEvents {
  private readonly listeners = new Set<Listener>();
  /** Delivery walks this array, made again only when someone joins or leaves (never changed in place:
   *  a delivery under way keeps the list it started with). */
  private listening: readonly Listener[] = [];
  private readonly taps: Listener[] = [];
  private version = 0;
  private cached: { version: number; state: CoreState } | undefined;
  /** A running call's output is coalesced (one event per call per ~50 ms, only the newest text kept). */
  readonly relay = new OutputRelay((event) => this.deliver(event));

  /** Sends an event on its way. */
  readonly emit = (event: CoreEvent): void => {
    if (event.type === 'tool_output') return this.relay.push(event);
    if (event.type === 'tool_finished') this.relay.end(event.callId);
    this.deliver(event);
  };

  /** The session's own bookkeeping on every event (state, grants, the home guard); runs before the listeners. */
  tap(fn: Listener): void {
    this.taps.push(fn);
  }

  /** Someone hears every event from now on; returns the function that stops it. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    this.listening = [...this.listeners];
    return () => {
      this.listeners.delete(listener);
      this.listening = [...this.listeners];
    };
  }

  /**
   * Snapshots are immutable: a new object (with new arrays) after any event, the same one otherwise,
   * so a UI can tell by identity whether to render again.
   */
  snapshot(build: () => CoreState): CoreState {
    if (this.cached?.version === this.version) return this.cached.state;
    const state = build();
    this.cached = { version: this.version, state };
    return state;
  }

  private deliver(event: CoreEvent): void {
    for (const tap of this.taps) tap(event);
    this.version += 1;
    for (const listener of this.listening) {
      try {
        listener(event);
      } catch {
        // A UI listener's failure must not break the core.
      }
    }
  }
}
